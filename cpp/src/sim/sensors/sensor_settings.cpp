// Setting formats and measurement noise of klampt/sim/sensor_common.h.
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include "klampt/model/config_space.h"
#include "klampt/sim/sensor_common.h"

namespace klampt {

namespace {

std::string print(double x) {
  std::ostringstream ss;
  ss << x;
  return ss.str();
}

/// Reads exactly `count` numbers (inf and nan accepted) and nothing else.
bool readNumbers(const std::string& text, int count, double* out) {
  std::istringstream ss(text);
  std::string word;
  int k = 0;
  while (ss >> word) {
    if (k == count) return false;
    char* end = nullptr;
    out[k++] = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != '\0') return false;
  }
  return k == count;
}

/// Every number in the text; false if a word is not a number.
bool readAllNumbers(const std::string& text, std::vector<double>& out) {
  std::istringstream ss(text);
  std::string word;
  out.clear();
  while (ss >> word) {
    char* end = nullptr;
    out.push_back(std::strtod(word.c_str(), &end));
    if (end == word.c_str() || *end != '\0') return false;
  }
  return true;
}

bool isInteger(double x) { return std::isfinite(x) && x == std::floor(x); }

}  // namespace

SensorSetting realSetting(double& x) {
  return {[&x] { return print(x); },
          [&x](const std::string& s) {
            double v;
            if (!readNumbers(s, 1, &v)) return false;
            x = v;
            return true;
          }};
}

SensorSetting intSetting(int& x) {
  return {[&x] { return std::to_string(x); },
          [&x](const std::string& s) {
            double v;
            if (!readNumbers(s, 1, &v) || !isInteger(v)) return false;
            if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) return false;
            x = (int)v;
            return true;
          }};
}

SensorSetting boolSetting(bool& x) {
  return {[&x] { return std::string(x ? "1" : "0"); },
          [&x](const std::string& s) {
            std::istringstream ss(s);
            std::string w;
            ss >> w;
            if (w == "1" || w == "true") x = true;
            else if (w == "0" || w == "false") x = false;
            else return false;
            return true;
          }};
}

SensorSetting vector2Setting(Vector2& x) {
  return {[&x] { return print(x[0]) + " " + print(x[1]); },
          [&x](const std::string& s) {
            double v[2];
            if (!readNumbers(s, 2, v)) return false;
            x = Vector2(v[0], v[1]);
            return true;
          }};
}

SensorSetting vector3Setting(Vector3& x) {
  return {[&x] { return print(x[0]) + " " + print(x[1]) + " " + print(x[2]); },
          [&x](const std::string& s) {
            double v[3];
            if (!readNumbers(s, 3, v)) return false;
            x = Vector3(v[0], v[1], v[2]);
            return true;
          }};
}

namespace {
std::string printRows(const Matrix3& R) {
  std::string out;
  for (int i = 0; i < 3; ++i) {
    if (i) out += "\n";
    out += print(R(i, 0)) + " " + print(R(i, 1)) + " " + print(R(i, 2));
  }
  return out;
}
}  // namespace

SensorSetting matrixSetting(Matrix3& x) {
  return {[&x] { return printRows(x); },
          [&x](const std::string& s) {
            double v[9];
            if (!readNumbers(s, 9, v)) return false;
            for (int i = 0; i < 9; ++i) x(i / 3, i % 3) = v[i];
            return true;
          }};
}

SensorSetting transformSetting(RigidTransform& x) {
  return {[&x] { return printRows(x.R) + "\n" + print(x.t[0]) + " " + print(x.t[1]) + " " + print(x.t[2]); },
          [&x](const std::string& s) {
            double v[12];
            if (!readNumbers(s, 12, v)) return false;
            for (int i = 0; i < 9; ++i) x.R(i / 3, i % 3) = v[i];
            x.t = Vector3(v[9], v[10], v[11]);
            return true;
          }};
}

SensorSetting flagsSetting(std::array<bool, 3>& x) {
  return {[&x] {
            std::string out;
            for (bool b : x) out += b ? "1 " : "0 ";
            return out;
          },
          [&x](const std::string& s) {
            double v[3];
            if (!readNumbers(s, 3, v)) return false;
            for (int i = 0; i < 3; ++i) x[i] = v[i] != 0;
            return true;
          }};
}

SensorSetting sizedVectorSetting(std::vector<double>& x) {
  return {[&x] {
            std::string out = std::to_string(x.size()) + "\t";
            for (double v : x) out += print(v) + " ";
            return out;
          },
          [&x](const std::string& s) {
            std::vector<double> v;
            if (!readAllNumbers(s, v) || v.empty() || !isInteger(v[0]) || v[0] < 0 ||
                (size_t)v[0] != v.size() - 1)
              return false;
            x.assign(v.begin() + 1, v.end());
            return true;
          }};
}

SensorSetting valueListSetting(std::vector<double>& x) {
  return {[&x] {
            std::string out;
            for (double v : x) out += print(v) + " ";
            return out;
          },
          [&x](const std::string& s) {
            std::vector<double> v;
            if (!readAllNumbers(s, v)) return false;
            x = v;
            return true;
          }};
}

SensorSetting indexListSetting(std::vector<int>& x) {
  return {[&x] {
            std::string out;
            for (int v : x) out += std::to_string(v) + " ";
            return out;
          },
          [&x](const std::string& s) {
            std::vector<double> v;
            if (!readAllNumbers(s, v)) return false;
            for (double d : v)
              if (!isInteger(d) || d < 0) return false;
            x.assign(v.begin(), v.end());
            return true;
          }};
}

double gaussianSample() {
  std::normal_distribution<double> n(0.0, 1.0);
  return n(*SharedRandom());
}

double uniformSample(double a, double b) {
  std::uniform_real_distribution<double> u(a, b);
  return u(*SharedRandom());
}

double discretize(double value, double resolution, double variance) {
  if (variance > 0) value += gaussianSample() * std::sqrt(variance);
  if (resolution > 0) value = std::round(value / resolution) * resolution;
  return value;
}

}  // namespace klampt
