// Registration of the query result/settings classes (DistanceQuerySettings,
// DistanceQueryResult, ContactQueryResult), before Geometry3D uses them.
#pragma once
#include <pybind11/pybind11.h>

namespace klampt_py {
void bindGeometryQueryTypes(pybind11::module_& m);
}
