// Byte streams of the archive format (klampt/io/archive.h): fixed-width
// little-endian integers and doubles written by value, so that the bytes are
// the same on every machine. The reader checks every length against the bytes
// left and throws std::invalid_argument when they run out.
#pragma once
#include <cstdint>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>
#include "klampt/math/types.h"

namespace klampt::archive {

class Writer {
 public:
  std::string bytes;
  void u64(std::uint64_t x) {
    char b[8];
    for (int k = 0; k < 8; ++k) b[k] = (char)((x >> (8 * k)) & 0xff);
    bytes.append(b, 8);
  }
  void i64(std::int64_t x) { u64((std::uint64_t)x); }
  void u32(std::uint32_t x) {
    char b[4];
    for (int k = 0; k < 4; ++k) b[k] = (char)((x >> (8 * k)) & 0xff);
    bytes.append(b, 4);
  }
  void boolean(bool b) { bytes.push_back(b ? 1 : 0); }
  void f64(double x) {
    std::uint64_t u;
    std::memcpy(&u, &x, 8);
    u64(u);
  }
  void f32(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    u32(u);
  }
  void str(const std::string& s) {
    u64(s.size());
    bytes.append(s);
  }
  void doubles(const double* p, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) f64(p[k]);
  }
  void vec(const VectorX& v) {
    u64((std::uint64_t)v.size());
    doubles(v.data(), (std::size_t)v.size());
  }
  void v3(const Vector3& v) { doubles(v.data(), 3); }
  void m3(const Matrix3& m) { doubles(m.data(), 9); }
  void transform(const RigidTransform& T) {
    m3(T.R);
    v3(T.t);
  }
  /// A header naming what follows and the format version.
  void header(const char* kind, std::uint64_t version) {
    str(std::string("KLAMPT-") + kind);
    u64(version);
  }
};

class Reader {
 public:
  explicit Reader(const std::string& bytes) : data_(bytes.data()), size_(bytes.size()) {}
  std::uint64_t u64() {
    need(8);
    std::uint64_t x = 0;
    for (int k = 0; k < 8; ++k) x |= (std::uint64_t)(unsigned char)data_[pos_ + k] << (8 * k);
    pos_ += 8;
    return x;
  }
  std::int64_t i64() { return (std::int64_t)u64(); }
  std::uint32_t u32() {
    need(4);
    std::uint32_t x = 0;
    for (int k = 0; k < 4; ++k) x |= (std::uint32_t)(unsigned char)data_[pos_ + k] << (8 * k);
    pos_ += 4;
    return x;
  }
  bool boolean() {
    need(1);
    return data_[pos_++] != 0;
  }
  /// A double; NaN is refused (no value of the models may be NaN).
  double f64() {
    const std::uint64_t u = u64();
    double x;
    std::memcpy(&x, &u, 8);
    if (std::isnan(x)) fail("a value is NaN");
    return x;
  }
  /// A double that must be finite.
  double finite() {
    const double x = f64();
    if (!std::isfinite(x)) fail("a value that must be finite is not");
    return x;
  }
  float f32() {
    const std::uint32_t u = u32();
    float x;
    std::memcpy(&x, &u, 4);
    return x;
  }
  /// A count of items of at least `itemBytes` bytes each, checked against the bytes left.
  std::size_t count(std::size_t itemBytes) {
    const std::uint64_t n = u64();
    if (itemBytes > 0 && n > (size_ - pos_) / itemBytes) fail("a length exceeds the data");
    if (itemBytes == 0 && n > size_) fail("a length exceeds the data");
    return (std::size_t)n;
  }
  /// An int that must lie in [lo, hi].
  int index(std::int64_t lo, std::int64_t hi) {
    const std::int64_t v = i64();
    if (v < lo || v > hi) fail("a value is out of range");
    return (int)v;
  }
  std::string str() {
    const std::size_t n = count(1);
    std::string s(data_ + pos_, n);
    pos_ += n;
    return s;
  }
  void doubles(double* p, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) p[k] = f64();
  }
  VectorX vec() {
    const std::size_t n = count(8);
    VectorX v(n);
    doubles(v.data(), n);
    return v;
  }
  /// Vectors, matrices and transforms are poses, axes, inertias: finite.
  Vector3 v3() {
    Vector3 v;
    for (int k = 0; k < 3; ++k) v[k] = finite();
    return v;
  }
  Matrix3 m3() {
    Matrix3 m;
    for (int k = 0; k < 9; ++k) m.data()[k] = finite();
    return m;
  }
  RigidTransform transform() {
    RigidTransform T;
    T.R = m3();
    T.t = v3();
    return T;
  }
  void header(const char* kind, std::uint64_t version) {
    const std::string expected = std::string("KLAMPT-") + kind;
    if (size_ < 8 + expected.size() + 8) fail("not a Klamp't archive of a " + std::string(kind));
    std::string got;
    try {
      got = str();
    } catch (const std::invalid_argument&) {
      got.clear();
    }
    if (got != expected) throw std::invalid_argument("not a Klamp't archive of a " + std::string(kind));
    if (u64() != version) fail("unsupported archive version");
  }
  std::size_t left() const { return size_ - pos_; }
  /// Throws unless every byte was read.
  void finish() const {
    if (pos_ != size_) fail("trailing bytes after the archive");
  }
  [[noreturn]] static void fail(const std::string& why) { throw std::invalid_argument("malformed archive: " + why); }

 private:
  void need(std::size_t n) const {
    if (n > size_ - pos_) fail("the data is truncated");
  }
  const char* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace klampt::archive
