// motionplanning.interpolate_* / brake_* / combine_nd_cubic: knot lists of
// cpp/include/klampt/plan/time_scaling.h as (times, positions, velocities).
#include "convert.h"
#include "plan_bindings.h"

#include "klampt/plan/time_scaling.h"

namespace klampt_py {

namespace {

using klampt::Knots1D;
using klampt::KnotsND;

py::tuple toTuple(const Knots1D& k) { return py::make_tuple(toList(k.t), toList(k.x), toList(k.v)); }

/// Per-DOF knots as ([times_i], [positions_i], [velocities_i]).
py::tuple toTuple(const std::vector<Knots1D>& dofs) {
  py::list ts, xs, vs;
  for (const Knots1D& k : dofs) {
    ts.append(toList(k.t));
    xs.append(toList(k.x));
    vs.append(toList(k.v));
  }
  return py::make_tuple(ts, xs, vs);
}

py::tuple toTuple(const KnotsND& k) {
  py::list xs, vs;
  for (const VectorX& x : k.x) xs.append(toList(x));
  for (const VectorX& v : k.v) vs.append(toList(v));
  return py::make_tuple(toList(k.t), xs, vs);
}

VectorX vec(py::handle obj, const char* name) { return toVector(obj, -1, name); }

}  // namespace

void bindPlanTimeScaling(py::module_& mp) {
  mp.def(
      "interpolate_1d_min_time",
      [](double x0, double v0, double x1, double v1, double xmin, double xmax, double vmax, double amax) {
        return toTuple(klampt::minTimeKnots(x0, v0, x1, v1, xmin, xmax, vmax, amax));
      },
      py::arg("x0"), py::arg("v0"), py::arg("x1"), py::arg("v1"), py::arg("xmin"), py::arg("xmax"), py::arg("vmax"),
      py::arg("amax"),
      "The fastest move from (x0, v0) to (x1, v1) with |v| <= vmax, |a| <= amax within [xmin, xmax], as\n"
      "(times, positions, velocities) at the phase boundaries. Empty lists if the start cannot brake\n"
      "before a limit; RuntimeError if x1 is outside the limits. amax = inf moves at constant velocity.");
  mp.def(
      "interpolate_1d_min_accel",
      [](double x0, double v0, double x1, double v1, double endTime, double xmin, double xmax, double vmax) {
        return toTuple(klampt::minAccelKnots(x0, v0, x1, v1, endTime, xmin, xmax, vmax));
      },
      py::arg("x0"), py::arg("v0"), py::arg("x1"), py::arg("v1"), py::arg("endTime"), py::arg("xmin"),
      py::arg("xmax"), py::arg("vmax"),
      "The move of least acceleration from (x0, v0) to (x1, v1) taking exactly endTime, as (times,\n"
      "positions, velocities); empty lists if none exists within the bounds.");
  mp.def(
      "interpolate_nd_min_time",
      [](FloatsArg x0, FloatsArg v0, FloatsArg x1, FloatsArg v1, FloatsArg xmin, FloatsArg xmax,
         FloatsArg vmax, FloatsArg amax) {
        return toTuple(klampt::minTimeKnots(vec(x0, "x0"), vec(v0, "v0"), vec(x1, "x1"), vec(v1, "v1"),
                                            vec(xmin, "xmin"), vec(xmax, "xmax"), vec(vmax, "vmax"),
                                            vec(amax, "amax")));
      },
      py::arg("x0"), py::arg("v0"), py::arg("x1"), py::arg("v1"), py::arg("xmin"), py::arg("xmax"), py::arg("vmax"),
      py::arg("amax"),
      "The fastest synchronized n-D move: one (times, positions, velocities) knot list per DOF, all\n"
      "ending at the slowest DOF's time. Empty lists if some DOF cannot stay within its limits.");
  mp.def(
      "interpolate_nd_min_accel",
      [](FloatsArg x0, FloatsArg v0, FloatsArg x1, FloatsArg v1, double endTime, FloatsArg xmin,
         FloatsArg xmax, FloatsArg vmax) {
        return toTuple(klampt::minAccelKnots(vec(x0, "x0"), vec(v0, "v0"), vec(x1, "x1"), vec(v1, "v1"), endTime,
                                             vec(xmin, "xmin"), vec(xmax, "xmax"), vec(vmax, "vmax")));
      },
      py::arg("x0"), py::arg("v0"), py::arg("x1"), py::arg("v1"), py::arg("endTime"), py::arg("xmin"),
      py::arg("xmax"), py::arg("vmax"),
      "The least-acceleration n-D move lasting endTime: one knot list per DOF; empty lists if some DOF\n"
      "has no such move.");
  mp.def(
      "interpolate_nd_min_time_linear",
      [](FloatsArg x0, FloatsArg x1, FloatsArg vmax, FloatsArg amax) {
        return toTuple(klampt::minTimeLinearKnots(vec(x0, "x0"), vec(x1, "x1"), vec(vmax, "vmax"), vec(amax, "amax")));
      },
      py::arg("x0"), py::arg("x1"), py::arg("vmax"), py::arg("amax"),
      "The fastest rest-to-rest move along the straight segment from x0 to x1, as (times,\n"
      "configurations, velocities).");
  mp.def(
      "brake_1d", [](double x0, double v0, double amax) { return toTuple(klampt::brakeKnots(x0, v0, amax)); },
      py::arg("x0"), py::arg("v0"), py::arg("amax"),
      "Stopping from (x0, v0) at full deceleration amax, as (times, positions, velocities).");
  mp.def(
      "brake_nd",
      [](FloatsArg x0, FloatsArg v0, FloatsArg xmin, FloatsArg xmax, FloatsArg amax) {
        return toTuple(klampt::brakeKnots(vec(x0, "x0"), vec(v0, "v0"), vec(xmin, "xmin"), vec(xmax, "xmax"),
                                          vec(amax, "amax")));
      },
      py::arg("x0"), py::arg("v0"), py::arg("xmin"), py::arg("xmax"), py::arg("amax"),
      "Stopping every DOF together in the least time the slowest needs, each decelerating uniformly:\n"
      "one knot list per DOF. The limits are not enforced (a stop cannot be made shorter).");
  mp.def(
      "combine_nd_cubic",
      [](FloatRowsArg times, FloatRowsArg positions, FloatRowsArg velocities) {
        const py::list ts = py::list(py::reinterpret_borrow<py::object>(times));
        const py::list xs = py::list(py::reinterpret_borrow<py::object>(positions));
        const py::list vs = py::list(py::reinterpret_borrow<py::object>(velocities));
        if (xs.size() != ts.size() || vs.size() != ts.size())
          throw py::value_error("times, positions and velocities must have one entry per DOF");
        std::vector<Knots1D> dofs(ts.size());
        for (size_t i = 0; i < dofs.size(); ++i) {
          dofs[i].t = toDoubleVector(ts[i], -1, "times");
          dofs[i].x = toDoubleVector(xs[i], -1, "positions");
          dofs[i].v = toDoubleVector(vs[i], -1, "velocities");
        }
        return toTuple(klampt::combineCubic(dofs));
      },
      py::arg("times"), py::arg("positions"), py::arg("velocities"),
      "Merges per-DOF knot lists (as interpolate_nd_min_time returns) into one time grid:\n"
      "(times, configurations, velocities), cubic Hermite between each DOF's knots.");
}

}  // namespace klampt_py
