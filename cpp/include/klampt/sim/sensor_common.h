// Helpers shared by the sensor models: settings printed and parsed in the
// reference's formats, and measurement noise.
#pragma once
#include <array>
#include <string>
#include <vector>
#include "klampt/sim/robot_sensor_set.h"

namespace klampt {

using Vector2 = Eigen::Vector2d;

/// Settings bound to a member, printed with C++ stream defaults (6 significant
/// digits). Matrices print row by row, transforms as R's rows then t.
SensorSetting realSetting(double& x);
SensorSetting intSetting(int& x);
SensorSetting boolSetting(bool& x);
SensorSetting vector2Setting(Vector2& x);
SensorSetting vector3Setting(Vector3& x);
SensorSetting matrixSetting(Matrix3& x);
SensorSetting transformSetting(RigidTransform& x);
/// Three flags, "1 0 1 ".
SensorSetting flagsSetting(std::array<bool, 3>& x);
/// A sized vector, "n\tv1 v2 ... " (KrisLibrary's Vector format).
SensorSetting sizedVectorSetting(std::vector<double>& x);
/// A plain list, "v1 v2 ... ".
SensorSetting valueListSetting(std::vector<double>& x);
SensorSetting indexListSetting(std::vector<int>& x);

/// value plus Gaussian noise of the given variance (none when 0), rounded to
/// a multiple of resolution (none when 0).
double discretize(double value, double resolution, double variance);
/// Standard normal sample from the shared generator.
double gaussianSample();
/// Uniform sample in [a, b] from the shared generator.
double uniformSample(double a, double b);

}  // namespace klampt
