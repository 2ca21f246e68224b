// klampt._robotsim._set_camera_renderer: the Python function (klampt.vis's
// OpenGL renderer) that camera sensors render through instead of ray casting.
#include <Python.h>
#include <pybind11/numpy.h>
#include "convert.h"
#include "handles.h"
#include "klampt/sim/sensor_visual.h"

namespace klampt_py {

namespace {

/// The installed Python renderer; owned (one reference) while installed.
/// Replaced and called only with the GIL held.
PyObject* renderer = nullptr;

bool renderThroughPython(const klampt::CameraSensor& cam, const klampt::World& world, const klampt::Robot* robot,
                         const klampt::RigidTransform& T, klampt::CameraImage& image) {
  py::gil_scoped_acquire gil;
  if (!renderer) return false;
  py::object fn = py::reinterpret_borrow<py::object>(renderer);
  try {
    // A handle that does not own the world: valid for this call only (the renderer keeps no reference).
    WorldModel handle;
    handle.world = std::shared_ptr<klampt::World>(std::shared_ptr<klampt::World>(), const_cast<klampt::World*>(&world));
    int robotIndex = robot ? world.robotIndex(robot) : -1;
    py::object result = fn(handle, transformToTuple(T), cam.xres, cam.yres, cam.xfov, cam.zmin, cam.zmax, robotIndex,
                           cam.link);
    if (result.is_none()) return false;
    auto parts = result.cast<py::tuple>();
    auto colors = parts[0].cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
    auto depths = parts[1].cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
    image.colors.assign(colors.data(), colors.data() + colors.size());
    image.depths.assign(depths.data(), depths.data() + depths.size());
    image.far = parts[2].cast<double>();
    return true;
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("klampt camera sensor rendering");
    return false;
  }
}

struct RendererHint {
  static constexpr auto name = py::detail::const_name("collections.abc.Callable[..., tuple | None] | None");
};
/// The renderer function, or None.
using RendererArg = TypedArg<RendererHint>;

}  // namespace

void bindCameraRenderer(py::module_& m) {
  m.def("_set_camera_renderer",
        [](RendererArg fn) {
          PyObject* next = fn.is_none() ? nullptr : fn.ptr();
          Py_XINCREF(next);
          PyObject* previous = renderer;
          renderer = next;
          Py_XDECREF(previous);
          klampt::setCameraRenderFunction(next ? klampt::CameraRenderFunction(&renderThroughPython) : nullptr);
        },
        py::arg("renderer"),
        "Installs fn(world, T, xres, yres, xfov, zmin, zmax, robotIndex, link) -> (colors, depths, far) or None, "
        "through which camera sensors render (None: ray casting).");
}

}  // namespace klampt_py
