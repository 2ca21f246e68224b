#include "robot_args.h"

namespace klampt_py {

klampt::Robot& readLinkVector(const RobotModel& robot, pybind11::handle obj, const char* name, VectorX& out,
                              bool allowEmpty) {
  readFiniteVector(obj, allowEmpty ? -1 : robot.get().numLinks(), name, out);
  klampt::Robot& r = robot.get();
  if (!(allowEmpty && out.size() == 0)) checkSize(out.size(), r.numLinks(), name);
  return r;
}

}  // namespace klampt_py
