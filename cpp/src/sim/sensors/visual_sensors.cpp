// Laser range and camera sensors (klampt/sim/sensor_visual.h).
#include <algorithm>
#include <cmath>
#include <mutex>
#include <sstream>
#include "klampt/model/robot.h"
#include "klampt/sim/sensor_ray_cast.h"
#include "klampt/sim/sensor_visual.h"

namespace klampt {

namespace {

RigidTransform sensorFrame(const SensorInputs& in, int link, const RigidTransform& Tsensor) {
  if (link >= 0 && link < in.robot->numLinks()) return in.robot->linkTransforms[link] * Tsensor;
  return Tsensor;
}

/// Sweep pattern in [-1, 1] at phase u (in periods). The sawtooth is
/// stretched by `stretch` so that the last ray of a sweep reaches +1.
double sweep(int type, double u, double stretch) {
  if (type == 0) return std::sin(u * 2 * M_PI);
  if (type == 1) return 2.0 * (1.0 + std::abs(std::fmod(u, 2.0) - 1.0)) - 1.0;
  const double v = u / stretch;
  return 2.0 * ((v - std::floor(v)) * stretch) - 1.0;
}

}  // namespace

LaserRangeSensor::LaserRangeSensor() {
  addSetting("link", intSetting(link));
  addSetting("Tsensor", transformSetting(Tsensor));
  addSetting("measurementCount", intSetting(measurementCount));
  addSetting("depthResolution", realSetting(depthResolution));
  addSetting("depthMinimum", realSetting(depthMinimum));
  addSetting("depthMaximum", realSetting(depthMaximum));
  addSetting("depthVarianceLinear", realSetting(depthVarianceLinear));
  addSetting("depthVarianceConstant", realSetting(depthVarianceConstant));
  addSetting("xSweepMagnitude", realSetting(xSweepMagnitude));
  addSetting("xSweepPeriod", realSetting(xSweepPeriod));
  addSetting("xSweepPhase", realSetting(xSweepPhase));
  addSetting("xSweepType", intSetting(xSweepType));
  addSetting("ySweepMagnitude", realSetting(ySweepMagnitude));
  addSetting("ySweepPeriod", realSetting(ySweepPeriod));
  addSetting("ySweepPhase", realSetting(ySweepPhase));
  addSetting("ySweepType", intSetting(ySweepType));
}

void LaserRangeSensor::simulate(const SensorInputs& in) {
  const int n = std::max(measurementCount, 0);
  depths_.assign(n, depthMaximum);
  const RigidTransform T = sensorFrame(in, link, Tsensor);
  SensorRayCaster caster(in.world, in.robot, link);
  // Phases covered since the previous reading (the whole sweep if the period is 0).
  auto range = [&](double period, double phase, double& u0, double& u1) {
    u0 = period == 0 ? 0.0 : (time_ - lastDt_ + phase) / period;
    u1 = period == 0 ? 1.0 : (time_ + phase) / period;
    if (period != 0 && n > 1) u0 += (u1 - u0) / (n - 1);
  };
  double ux0, ux1, uy0, uy1;
  range(xSweepPeriod, xSweepPhase, ux0, ux1);
  range(ySweepPeriod, ySweepPhase, uy0, uy1);
  const double stretch = n > 1 ? 1.0 + 1.0 / (n - 1) : 1.0;
  for (int i = 0; i < n; ++i) {
    const double f = n > 1 ? double(i) / (n - 1) : 1.0;
    const double xt = xSweepMagnitude * sweep(xSweepType, ux0 + f * (ux1 - ux0), stretch);
    const double yt = ySweepMagnitude * sweep(ySweepType, uy0 + f * (uy1 - uy0), stretch);
    const Vector3 dirLocal(std::sin(xt), std::cos(xt) * std::sin(yt), std::cos(xt) * std::cos(yt));
    const Vector3 dir = T.R * dirLocal;
    const Vector3 source = T.t + depthMinimum * dir;
    Vector3 hit;
    double d = INFINITY;
    if (caster.cast(source, dir, hit, nullptr)) d = (hit - source).norm() + depthMinimum;
    if (std::isfinite(d)) d = discretize(d, depthResolution, d * depthVarianceLinear + depthVarianceConstant);
    depths_[i] = (d <= depthMinimum || d >= depthMaximum) ? depthMaximum : d;
  }
}

void LaserRangeSensor::advance(double dt) {
  lastDt_ = dt;
  time_ += dt;
}

void LaserRangeSensor::reset() {
  depths_.clear();
  time_ = 0;
  lastDt_ = 0;
}

std::vector<std::string> LaserRangeSensor::measurementNames() const {
  std::vector<std::string> names;
  for (int i = 0; i < measurementCount; ++i) names.push_back("d[" + std::to_string(i) + "]");
  return names;
}

void LaserRangeSensor::setInternalState(const std::vector<double>& s) {
  if (s.size() != 2) return;
  lastDt_ = s[0];
  time_ = s[1];
}

namespace {

/// The largest image a camera may take: a side no offscreen framebuffer
/// refuses, and measurements (colors and depths as doubles) of at most 1 GiB.
constexpr int kMaxCameraSide = 16384;
constexpr long long kMaxCameraPixels = 1LL << 26;

/// xres or yres: a whole number of pixels from 0 to kMaxCameraSide whose
/// image with the other side's resolution stays within kMaxCameraPixels.
SensorSetting resolutionSetting(int& side, const int& other) {
  SensorSetting setting = intSetting(side);
  auto parse = setting.set;
  setting.set = [parse, &side, &other](const std::string& s) {
    const int before = side;
    if (!parse(s)) return false;
    if (side < 0 || side > kMaxCameraSide || (long long)side * std::max(other, 0) > kMaxCameraPixels) {
      side = before;
      return false;
    }
    return true;
  };
  setting.accepts = "a whole number of pixels from 0 to " + std::to_string(kMaxCameraSide) +
                    ", with xres*yres at most " + std::to_string(kMaxCameraPixels);
  return setting;
}

/// Full precision: these values are computed, not echoed from a setting.
std::string printNumber(double x) {
  std::ostringstream ss;
  ss.precision(17);
  ss << x;
  return ss.str();
}

/// Klamp't 0.10's focal length fx (fy) in pixels, a view of xfov (yfov):
/// fx = xres / (2 tan(xfov / 2)); setting it sets the field of view.
SensorSetting focalSetting(double& fov, const int& side) {
  SensorSetting setting;
  setting.get = [&fov, &side] { return printNumber(0.5 * side / std::tan(0.5 * fov)); };
  setting.set = [&fov, &side](const std::string& s) {
    double f = 0;
    if (!realSetting(f).set(s) || !(f > 0) || !std::isfinite(f)) return false;
    fov = 2.0 * std::atan(0.5 * side / f);
    return true;
  };
  setting.accepts = "a positive focal length in pixels";
  setting.listed = false;
  return setting;
}

/// Klamp't 0.10's principal point cx (cy): the image centre, side / 2. The
/// renderers draw centred images only, so another value is refused; the
/// other convention for the centre, (side - 1) / 2, is accepted as it.
SensorSetting centreSetting(const int& side) {
  SensorSetting setting;
  setting.get = [&side] { return printNumber(0.5 * side); };
  setting.set = [&side](const std::string& s) {
    double c = 0;
    return realSetting(c).set(s) && std::abs(c - 0.5 * side) <= 0.5 + 1e-9;
  };
  setting.accepts = "the image centre (half the resolution, within half a pixel): off-centre principal points are not rendered";
  setting.listed = false;
  return setting;
}

}  // namespace

CameraSensor::CameraSensor() {
  addSetting("link", intSetting(link));
  addSetting("Tsensor", transformSetting(Tsensor));
  addSetting("rgb", boolSetting(rgb));
  addSetting("depth", boolSetting(depth));
  addSetting("xres", resolutionSetting(xres, yres));
  addSetting("yres", resolutionSetting(yres, xres));
  addSetting("xfov", realSetting(xfov));
  addSetting("yfov", realSetting(yfov));
  addSetting("fx", focalSetting(xfov, xres));
  addSetting("fy", focalSetting(yfov, yres));
  addSetting("cx", centreSetting(xres));
  addSetting("cy", centreSetting(yres));
  addSetting("zmin", realSetting(zmin));
  addSetting("zmax", realSetting(zmax));
  addSetting("zresolution", realSetting(zresolution));
  addSetting("zvarianceLinear", realSetting(zvarianceLinear));
  addSetting("zvarianceConstant", realSetting(zvarianceConstant));
}

namespace {

constexpr double kBackground = double(0x96AAFF);

/// 0xRRGGBB of the appearance color; channels are truncated as the reference does.
double packColor(const Appearance* a) {
  if (!a) return 0.0;
  auto channel = [](float c) { return (unsigned)(std::max(0.0f, std::min(1.0f, c)) * 255.0); };
  return double((channel(a->color[0]) << 16) | (channel(a->color[1]) << 8) | channel(a->color[2]));
}

}  // namespace

namespace {

std::mutex& renderFunctionMutex() {
  static std::mutex m;
  return m;
}

CameraRenderFunction& renderFunction() {
  static CameraRenderFunction f;
  return f;
}

}  // namespace

void setCameraRenderFunction(CameraRenderFunction f) {
  std::lock_guard<std::mutex> lock(renderFunctionMutex());
  renderFunction() = std::move(f);
}

void CameraSensor::simulate(const SensorInputs& in) {
  const int w = std::max(xres, 0), h = std::max(yres, 0);
  const size_t pixels = (size_t)w * h;
  values_.assign((rgb ? pixels : 0) + (depth ? pixels : 0), 0.0);
  if (pixels == 0) return;
  const RigidTransform T = sensorFrame(in, link, Tsensor);
  CameraRenderFunction render;
  {
    std::lock_guard<std::mutex> lock(renderFunctionMutex());
    render = renderFunction();
  }
  CameraImage image;
  if (render && in.world && render(*this, *in.world, in.robot, T, image) && image.colors.size() == pixels &&
      image.depths.size() == pixels) {
    const size_t depthStart = rgb ? pixels : 0;
    for (size_t k = 0; k < pixels; ++k) {
      if (rgb) values_[k] = image.colors[k];
      if (!depth) continue;
      const double d = image.depths[k];
      // As the ray-cast path: nothing hit reads zmax, a surface beyond zmax reads 0.
      values_[depthStart + k] = d >= image.far ? zmax
                                : d > zmax    ? 0.0
                                              : discretize(d, zresolution, zvarianceLinear * d + zvarianceConstant);
    }
    return;
  }
  SensorRayCaster caster(in.world, in.robot, link);
  const double focal = 0.5 * w / std::tan(0.5 * xfov);
  const Vector3 forward = T.R.col(2);
  const size_t depthStart = rgb ? pixels : 0;
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) {
      const size_t k = (size_t)j * w + i;
      const Vector3 local((i - 0.5 * w) / focal, (j - 0.5 * h) / focal, 1.0);
      const Vector3 dir = (T.R * local).normalized();
      const Vector3 source = T.t + dir * (zmin / forward.dot(dir));
      Vector3 hit;
      const Appearance* app = nullptr;
      if (caster.cast(source, dir, hit, &app)) {
        if (rgb) values_[k] = packColor(app);
        const double d = forward.dot(hit - T.t);
        // As the reference: a surface beyond zmax gives no reading (0).
        if (depth)
          values_[depthStart + k] = d > zmax ? 0.0 : discretize(d, zresolution, zvarianceLinear * d + zvarianceConstant);
      } else {
        if (rgb) values_[k] = kBackground;
        if (depth) values_[depthStart + k] = zmax;
      }
    }
  }
}

std::vector<std::string> CameraSensor::measurementNames() const {
  std::vector<std::string> names;
  for (const char* prefix : {"rgb", "d"}) {
    if ((prefix[0] == 'r' && !rgb) || (prefix[0] == 'd' && !depth)) continue;
    for (int i = 0; i < xres; ++i)
      for (int j = 0; j < yres; ++j)
        names.push_back(std::string(prefix) + "[" + std::to_string(i) + "," + std::to_string(j) + "]");
  }
  return names;
}

}  // namespace klampt
