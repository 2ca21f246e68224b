// Sine and cosine of a joint angle at once, for forward kinematics.
#pragma once

namespace klampt {

/// Sets s = sin(x) and c = cos(x), each within 1.5 units in the last place
/// for |x| < 100 and 2.5 below 1e5. For |x| < 1e5 (every joint angle forward kinematics meets) this is a
/// branch-free reduction to [-pi/4, pi/4] and two polynomials, about twice as
/// fast as the C library's sincos; larger or non-finite x use std::sin and
/// std::cos. Single calls and batches both place link frames with it, so
/// they agree to the bit.
void sinCos(double x, double& s, double& c);

}  // namespace klampt
