// Range sensors by ray casting: a sweeping laser range finder and a camera
// with depth (and a flat-shaded color image).
#pragma once
#include <functional>
#include "klampt/sim/sensor_common.h"

namespace klampt {

/// measurementCount rays in the sensor's x-z plane (z forward) swept over
/// [-xSweepMagnitude, xSweepMagnitude] (and likewise in y); each reads the
/// distance from the sensor origin to the first hit, or depthMaximum when
/// nothing is hit between depthMinimum and depthMaximum. Sweep types:
/// 0 sinusoid, 1 triangular, 2 sawtooth; a period of 0 sweeps the whole range
/// at every reading.
class LaserRangeSensor : public Sensor {
 public:
  int link = -1;
  RigidTransform Tsensor;
  int measurementCount = 180;
  double depthResolution = 0, depthMinimum = 0.1, depthMaximum = INFINITY;
  double depthVarianceLinear = 0, depthVarianceConstant = 0;
  double xSweepMagnitude = M_PI / 2, xSweepPeriod = 0, xSweepPhase = 0;
  int xSweepType = 2;
  double ySweepMagnitude = 0, ySweepPeriod = 0, ySweepPhase = 0;
  int ySweepType = 0;

  LaserRangeSensor();
  const char* type() const override { return "LaserRangeSensor"; }
  void simulate(const SensorInputs& in) override;
  void advance(double dt) override;
  void reset() override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override { return depths_; }
  void setMeasurements(const std::vector<double>& v) override { depths_ = v; }
  std::vector<double> internalState() const override { return {lastDt_, time_}; }
  void setInternalState(const std::vector<double>& s) override;
  int* mountLink() override { return &link; }
  RigidTransform* mountTransform() override { return &Tsensor; }

 private:
  std::vector<double> depths_;
  double lastDt_ = 0, time_ = 0;
};

class CameraSensor;

/// An image rendered for a camera: xres*yres colors 0xRRGGBB and depths along
/// the view axis, rows from the top; a depth >= `far` means nothing was hit.
struct CameraImage {
  std::vector<double> colors, depths;
  double far = 0;
};

/// Renders a camera's view of the world from world transform T into an image
/// and returns true, or returns false to let the camera ray cast. klampt.vis
/// installs one (OpenGL, lit colors as the reference's GL path) while a
/// rendering backend is active; empty by default.
using CameraRenderFunction =
    std::function<bool(const CameraSensor& camera, const World& world, const Robot* robot,
                       const RigidTransform& T, CameraImage& image)>;
void setCameraRenderFunction(CameraRenderFunction f);

/// A pinhole camera looking along its z axis (x right, y down), focal length
/// from xfov (the settings fx, fy, cx, cy of Klamp't 0.10 are views of xfov,
/// yfov and the image centre). Measurements: xres*yres colors (if rgb) then xres*yres depths
/// (if depth), row by row from the top. Depth is the distance along the view
/// axis to the first hit beyond zmin; a hit beyond zmax reads 0 and no hit
/// at all reads zmax, as in the reference. A color is 0xRRGGBB of the hit element's appearance color, without
/// lighting, or 0x96AAFF (the reference's background) when nothing is hit.
class CameraSensor : public Sensor {
 public:
  int link = -1;
  RigidTransform Tsensor;
  bool rgb = true, depth = true;
  int xres = 640, yres = 480;
  double xfov = 56.0 * M_PI / 180, yfov = 43.0 * M_PI / 180;
  double zmin = 0.4, zmax = 4.0, zresolution = 0;
  double zvarianceLinear = 0, zvarianceConstant = 0;

  CameraSensor();
  const char* type() const override { return "CameraSensor"; }
  void simulate(const SensorInputs& in) override;
  std::vector<std::string> measurementNames() const override;
  std::vector<double> measurements() const override { return values_; }
  void setMeasurements(const std::vector<double>& v) override { values_ = v; }
  int* mountLink() override { return &link; }
  RigidTransform* mountTransform() override { return &Tsensor; }

 private:
  std::vector<double> values_;
};

}  // namespace klampt
