// Collision preshrink: a shape shrunk inward by a body's collision padding,
// so that the padded shape (what contacts see) matches the original surface.
#pragma once
#include <memory>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// The shape moved inward by `amount`: mesh vertices are offset so that each
/// incident face plane moves by `amount` (least squares over the faces),
/// boxes, AABBs and spheres shrink (never below zero size), groups shrink
/// element by element. Other types, which have no inside, are unchanged.
std::shared_ptr<const GeometryData> preshrunkShape(const std::shared_ptr<const GeometryData>& shape, double amount);

}  // namespace klampt
