// Shapes shared by every model that loads the same file unchanged.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>
#include "klampt/geometry/geometry.h"

namespace klampt {

/// The shape registered under `key` (a file and its contents), or the one
/// `load` makes, registered under it. Loading a world again while another
/// holds its meshes then parses no file and builds no collision structure.
/// The registry holds a reference, so a geometry editing its shape copies it
/// (Geometry::mutableData) and the registered shape never changes. A shape no
/// model holds any more is dropped at the next lookup and when a world is
/// destroyed. `load` runs without the registry's lock; an exception from it
/// propagates and registers nothing.
std::shared_ptr<const GeometryData> sharedShape(const std::string& key,
                                                const std::function<std::shared_ptr<const GeometryData>()>& load);

/// A copy of `base` edited by `change`. When `base` is registered, the copy
/// is registered too, under `base`'s key and `changeKey` (what `change` does,
/// e.g. from shapeChangeKey), so models that make the same change to the same
/// file share the result.
std::shared_ptr<const GeometryData> sharedChange(const std::shared_ptr<const GeometryData>& base,
                                                 const std::string& changeKey,
                                                 const std::function<void(GeometryData&)>& change);

/// A key naming a change by its kind and its numbers, exactly.
std::string shapeChangeKey(const std::string& kind, const std::vector<double>& numbers);

/// Drops the registered shapes that nothing but the registry holds.
void releaseUnusedSharedShapes();

/// How many shapes are registered (held by a model, or not yet released).
std::size_t numSharedShapes();

}  // namespace klampt
