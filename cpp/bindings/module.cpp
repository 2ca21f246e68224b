// The extension module klampt._robotsim: registers every bound class.
#include "geometry_handle.h"
#include "handles.h"
#include "geometry_queries.h"
#include "sim_handles.h"
#include "plan_bindings.h"
#include <pybind11/stl.h>

#include "klampt/model/config_space.h"
#include "klampt/geometry/queries/collision_cache.h"
#include "klampt/geometry/shared_shapes.h"
#include "klampt/native_versions.h"

namespace py = pybind11;

namespace klampt_py {
void bindCameraRenderer(py::module_& m);  // camera_render.cpp
void bindPickling(py::module_& m);        // pickling.cpp
void bindBatch(py::module_& m);           // batch.cpp
}

PYBIND11_MODULE(_robotsim, m) {
  m.doc() = "Core classes of klampt: world, robot and geometry models.";
  // Order matters: classes used in signatures are registered first.
  klampt_py::bindGeometryQueryTypes(m);
  klampt_py::bindGeometry(m);
  klampt_py::bindRenderData(m);
  klampt_py::bindMass(m);
  auto linkCls = klampt_py::declareRobotLink(m);
  auto driverCls = klampt_py::declareRobotDriver(m);
  klampt_py::bindRobot(m);
  klampt_py::bindRobotLink(linkCls);
  klampt_py::bindRobotDriver(driverCls);
  klampt_py::bindObjects(m);
  klampt_py::bindWorld(m);
  klampt_py::bindElementLists(m);
  klampt_py::bindIK(m);
  klampt_py::bindRobotSensors(m);
  klampt_py::bindCameraRenderer(m);
  klampt_py::bindSimulation(m);
  auto mp = m.def_submodule("motionplanning", "Motion planning: C-spaces, planners and time scaling (klampt.plan).");
  klampt_py::bindPlanTimeScaling(mp);
  klampt_py::bindPlanCSpace(mp);
  klampt_py::bindPlanner(mp);
  klampt_py::bindPlanModule(mp);
  klampt_py::bindPickling(m);
  klampt_py::bindBatch(m);
  m.def("set_random_seed", [](int seed) { (*klampt::SharedRandom()).seed((unsigned long long)seed); },
        py::arg("seed"), "Seeds the random generator used by sampling routines (randomizeConfig, ...).");
  m.def("native_library_versions", &klampt::nativeLibraryVersions,
        "Versions of the native libraries linked into the extension.");
  m.def("_shared_shape_count", &klampt::numSharedShapes,
        "How many shapes loaded from files are shared among the models holding them.");
  m.def("collision_structures_built", &klampt::collisionCachesBuilt,
        "How many shapes' collision structures (trees, hulls) this process has built; world files\n"
        "build theirs as they load, so later queries do not.");
}
