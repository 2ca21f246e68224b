#include "klampt/geometry/appearance_features.h"

#include <stdexcept>
#include <string>

namespace klampt {

void checkAppearanceFeature(int feature, int last) {
  if (feature < Appearance::ALL || feature > last)
    throw std::invalid_argument("feature must be one of Appearance.ALL, VERTICES, EDGES, FACES" +
                                std::string(last == Appearance::SPECULAR ? ", EMISSIVE, SPECULAR" : ""));
}

void setFeatureDrawn(Appearance& a, int feature, bool drawn) {
  checkAppearanceFeature(feature, Appearance::FACES);
  if (feature == Appearance::ALL) a.drawn = drawn;
  if (feature == Appearance::ALL || feature == Appearance::VERTICES) a.drawVertices = drawn;
  if (feature == Appearance::ALL || feature == Appearance::EDGES) a.drawEdges = drawn;
  if (feature == Appearance::ALL || feature == Appearance::FACES) a.drawFaces = drawn;
}

bool featureDrawn(const Appearance& a, int feature) {
  checkAppearanceFeature(feature, Appearance::FACES);
  switch (feature) {
    case Appearance::VERTICES: return a.drawVertices;
    case Appearance::EDGES: return a.drawEdges;
    case Appearance::FACES: return a.drawFaces;
    default: return a.drawn;
  }
}

Color& featureColor(Appearance& a, int feature) {
  checkAppearanceFeature(feature, Appearance::SPECULAR);
  switch (feature) {
    case Appearance::VERTICES: return a.vertexColor;
    case Appearance::EDGES: return a.edgeColor;
    case Appearance::EMISSIVE: return a.emissiveColor;
    case Appearance::SPECULAR: return a.specularColor;
    default: return a.color;
  }
}

void setFeatureColor(Appearance& a, int feature, const Color& c) {
  featureColor(a, feature) = c;
  if (feature == Appearance::ALL) a.vertexColor = a.edgeColor = c;
}

std::vector<Color>& elementColors(Appearance& a, int feature) {
  if (feature == Appearance::VERTICES) return a.vertexColors;
  if (feature == Appearance::FACES) return a.faceColors;
  throw std::invalid_argument("per-element colors are only available for Appearance.VERTICES and Appearance.FACES");
}

void setElementColor(Appearance& a, int feature, long element, const Color& c) {
  std::vector<Color>& list = elementColors(a, feature);
  if (element < 0) throw std::out_of_range("element index must be >= 0");
  if (element > (1L << 28)) throw std::out_of_range("element index too large");
  if ((std::size_t)element >= list.size()) list.resize(element + 1, featureColor(a, feature));
  list[element] = c;
}

Color elementColor(Appearance& a, int feature, long element) {
  const std::vector<Color>& list = elementColors(a, feature);
  if (element < 0) throw std::out_of_range("element index must be >= 0");
  return (std::size_t)element < list.size() ? list[element] : featureColor(a, feature);
}

}  // namespace klampt
