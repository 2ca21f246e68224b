// Mass and ContactParameters.
#include <pybind11/stl.h>

#include "convert.h"
#include "geometry_handle.h"
#include "handles.h"
#include "klampt/model/geometry_mass.h"
#include "klampt/model/inertia_elements.h"
#include "mass_value.h"

namespace klampt_py {

MassValue MassValue::from(const klampt::Mass& m) {
  MassValue v;
  v.mass = m.mass;
  v.com = {m.com[0], m.com[1], m.com[2]};
  v.inertia.assign(m.inertia.data(), m.inertia.data() + 9);
  return v;
}

klampt::Mass MassValue::toCore() const {
  klampt::Mass m;
  m.mass = mass;
  checkSize((Py_ssize_t)com.size(), 3, "Mass.com");
  m.com = Vector3(com[0], com[1], com[2]);
  m.inertia = klampt::inertiaFromElements(inertia, "Mass.inertia");
  return m;
}

static std::vector<double> inertiaElements(py::handle obj) {
  std::vector<double> v = toDoubleVector(obj, -1, "inertia");
  klampt::checkInertiaElementCount(v.size(), "inertia");
  return v;
}

void bindMass(py::module_& m) {
  py::class_<MassValue> massCls(m, "Mass", "Stores mass information for a rigid body or robot link.");
  addThisown(massCls);
  massCls.def(py::init<>())
      .def("setMass", [](MassValue& s, double v) { s.mass = v; }, py::arg("_mass"),
           "Sets the mass (kg).")
      .def("getMass", [](const MassValue& s) { return s.mass; },
           "Returns the mass (kg).")
      .def("setCom", [](MassValue& s, FloatsArg c) { s.com = toDoubleVector(c, 3, "com"); }, py::arg("_com"),
           "Sets the center of mass (3-list, metres, in the body's local frame).")
      .def("getCom", [](const MassValue& s) { return s.com; },
           "Returns the center of mass (3-list, metres, in the body's local frame).")
      .def("setInertia",
           [](MassValue& s, FloatsArg I) { s.inertia = inertiaElements(I); },
           py::arg("_inertia"),
           "Sets the inertia matrix about the center of mass (kg*m^2, local frame axes): 3 numbers for a diagonal "
           "matrix or 9 for a full one (column-major).")
      .def("getInertia", [](const MassValue& s) { return s.inertia; },
           "Returns the inertia matrix about the center of mass as set: 3 diagonal numbers or a column-major "
           "9-list (kg*m^2).")
      .def("estimate",
           [](MassValue& s, const Geometry3D& g, double mass, double surfaceFraction) {
             if (g.get().empty()) throw py::value_error("cannot estimate mass properties of an empty geometry");
             klampt::Mass out;
             klampt::setMassFromGeometry(*g.get().data, mass, surfaceFraction, out);
             s = MassValue::from(out);
           },
           py::arg("g"), py::arg("mass"), py::arg("surfaceFraction") = 0.0,
           "Sets mass, com and inertia of a body of the given mass shaped like g (in g's local frame).")
      .def_readwrite("mass", &MassValue::mass,
          "The mass, in kg.")
      .def_property("com", [](const MassValue& s) { return s.com; },
                    [](MassValue& s, FloatsArg c) { s.com = toDoubleVector(c, 3, "com"); },
          "The center of mass [x, y, z] in the body's local frame, in m.")
      .def_property("inertia", [](const MassValue& s) { return s.inertia; },
                    [](MassValue& s, FloatsArg I) { s.inertia = inertiaElements(I); },
          "The inertia matrix about the center of mass in the local frame, kg m^2, as 9 numbers (row-major); assigning 3 numbers sets a diagonal.")
      .def("__repr__", [](const MassValue& s) { return "<Mass " + std::to_string(s.mass) + ">"; });

  py::class_<klampt::ContactParameters> contactCls(m, "ContactParameters", "Stores contact parameters for an entity.");
  addThisown(contactCls);
  contactCls.def(py::init<>())
      .def_readwrite("kFriction", &klampt::ContactParameters::kFriction,
          "Coulomb friction coefficient (dimensionless).")
      .def_readwrite("kRestitution", &klampt::ContactParameters::kRestitution,
          "Coefficient of restitution in [0, 1].")
      .def_readwrite("kStiffness", &klampt::ContactParameters::kStiffness,
          "Contact stiffness, N/m.")
      .def_readwrite("kDamping", &klampt::ContactParameters::kDamping,
          "Contact damping, N s/m.");
}

}  // namespace klampt_py
