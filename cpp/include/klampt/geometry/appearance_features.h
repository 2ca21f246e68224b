// An Appearance's draw flags and colors addressed by feature
// (Appearance::Feature: ALL, VERTICES, EDGES, FACES, EMISSIVE, SPECULAR).
#pragma once
#include <vector>
#include "klampt/geometry/appearance.h"

namespace klampt {

/// Throws std::invalid_argument unless ALL <= feature <= last (FACES for the
/// draw flags, SPECULAR for the colors).
void checkAppearanceFeature(int feature, int last);

/// ALL sets every flag (drawn and each feature's), another feature its own.
void setFeatureDrawn(Appearance& a, int feature, bool drawn);
/// A feature's flag; ALL: whether anything is drawn.
bool featureDrawn(const Appearance& a, int feature);

/// The color of a feature; ALL and FACES share the main color.
Color& featureColor(Appearance& a, int feature);
/// Sets a feature's color; ALL also sets the vertex and edge colors.
void setFeatureColor(Appearance& a, int feature, const Color& c);

/// The per-element colors of VERTICES or FACES; throws
/// std::invalid_argument for another feature.
std::vector<Color>& elementColors(Appearance& a, int feature);

/// Sets one element's color of VERTICES or FACES; elements before it without
/// a color get the feature's. Throws std::out_of_range for a negative index
/// or one past 2^28.
void setElementColor(Appearance& a, int feature, long element, const Color& c);
/// An element's color, or the feature's if none was set for it; throws
/// std::out_of_range for a negative index.
Color elementColor(Appearance& a, int feature, long element);

}  // namespace klampt
