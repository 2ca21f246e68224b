// Sine and cosine of joint angles at once, for forward kinematics.
#pragma once

namespace klampt {

/// Sets s = sin(x) and c = cos(x), each within 1.5 units in the last place
/// for |x| < 100 and 2.5 below 1e5. For |x| < 1e5 (every joint angle forward
/// kinematics meets) this is a branch-free reduction to [-pi/4, pi/4] and two
/// polynomials, about twice as fast as the C library's sincos; larger or
/// non-finite x use std::sin and std::cos.
void sinCos(double x, double& s, double& c);

/// The same for x[0..n): the values of n calls of sinCos(x[i], ...), bit for
/// bit (its file is compiled without contracting a * b + c), computed
/// several at a time in vector registers.
void sinCos(const double* x, int n, double* s, double* c);

}  // namespace klampt
