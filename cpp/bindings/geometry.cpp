// Entry point of the geometry bindings: the data classes, Geometry3D (whose
// queries geometry_queries.cpp adds) and Appearance.
#include "geometry_handle.h"
#include "handles.h"

namespace klampt_py {

void bindGeometry(py::module_& m) {
  bindGeometryTypes(m);
  bindHeightmap(m);
  bindOccupancyGrid(m);
  bindGeometry3D(m);
  bindAppearance(m);
}

}  // namespace klampt_py
