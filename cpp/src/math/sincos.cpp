#include "klampt/math/sincos.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace klampt {

namespace {

constexpr double kTwoOverPi = 0.6366197723675814;
// pi/2 split in three: the first two have 33 significant bits, so k times
// either is exact for |k| < 2^20 and x - k pi/2 loses only the third's rounding.
constexpr double kHalfPi1 = 1.5707963267341256;
constexpr double kHalfPi2 = 6.077100506303966e-11;
constexpr double kHalfPi3 = 2.0222662487959506e-21;
// Adding 1.5 * 2^52 rounds to an integer held in the low mantissa bits.
constexpr double kRoundShift = 6755399441055744.0;

std::uint64_t bitsOf(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

double fromBits(std::uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

/// Whether the kernel cannot take x: too large for the three-part
/// reduction, not finite, or a zero (whose sign sin keeps).
bool outsideKernel(double x) { return !(std::abs(x) < 1e5) || x == 0.0; }

/// sin and cos where the kernel cannot take x.
void sinCosOutside(double x, double& s, double& c) {
  if (x == 0.0) {  // a fixed joint's angle, often
    s = x;
    c = 1.0;
    return;
  }
  s = std::sin(x);
  c = std::cos(x);
}

/// sin and cos of |x| < 1e5 without a branch, so that a loop of it runs on
/// vector registers.
inline void sinCosKernel(double x, double& s, double& c) {
  const double shifted = x * kTwoOverPi + kRoundShift;
  const double k = shifted - kRoundShift;  // nearest integer to x / (pi/2)
  const std::uint64_t quadrant = bitsOf(shifted);  // k mod 4 in the low two bits
  const double r = ((x - k * kHalfPi1) - k * kHalfPi2) - k * kHalfPi3;  // |r| <= pi/4
  // Taylor series to r^17 and r^18, whose remainders are below half an ulp
  // on [-pi/4, pi/4], evaluated in Estrin's scheme for a short dependency chain.
  const double z = r * r, z2 = z * z, z4 = z2 * z2;
  const double sinTail =
      (-1.6666666666666666e-01 + z * 8.3333333333333332e-03) + z2 * (-1.9841269841269841e-04 + z * 2.7557319223985893e-06) +
      z4 * ((-2.5052108385441720e-08 + z * 1.6059043836821613e-10) +
            z2 * (-7.6471637318198164e-13 + z * 2.8114572543455206e-15));
  const double cosTail =
      (4.1666666666666664e-02 + z * -1.3888888888888889e-03) + z2 * (2.4801587301587302e-05 + z * -2.7557319223985888e-07) +
      z4 * ((2.0876756987868100e-09 + z * -1.1470745597729725e-11) +
            z2 * (4.7794773323873853e-14 + z * -1.5619206968586225e-16));
  const double sinR = r + r * z * sinTail;
  // 1 - z/2 rounds; its exact error is recovered and added back with the tail.
  const double half = 0.5 * z, head = 1.0 - half;
  const double cosR = head + (((1.0 - head) - half) + z2 * cosTail);
  // Odd quadrants swap sine and cosine; bit 1 of the quadrant flips the
  // sine's sign, bit 1 of the next quadrant the cosine's. Bit masks rather
  // than branches: the quadrant of random angles is unpredictable.
  const std::uint64_t swap = -(quadrant & 1);
  const std::uint64_t sinBits = bitsOf(sinR), cosBits = bitsOf(cosR);
  s = fromBits(((sinBits & ~swap) | (cosBits & swap)) ^ ((quadrant & 2) << 62));
  c = fromBits(((cosBits & ~swap) | (sinBits & swap)) ^ (((quadrant + 1) & 2) << 62));
}

}  // namespace

void sinCos(double x, double& s, double& c) {
  if (outsideKernel(x))
    sinCosOutside(x, s, c);
  else
    sinCosKernel(x, s, c);
}

void sinCos(const double* x, int n, double* s, double* c) {
  for (int i = 0; i < n; ++i) sinCosKernel(x[i], s[i], c[i]);
  for (int i = 0; i < n; ++i)
    if (outsideKernel(x[i])) sinCosOutside(x[i], s[i], c[i]);
}

}  // namespace klampt
