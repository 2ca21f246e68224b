// Simulation::getState / setState: every body's pose and velocity, time,
// controller state and sensor state, as base64 text.
#include <cmath>
#include <cstring>
#include <stdexcept>
#include "klampt/sim/simulation.h"

namespace klampt {

namespace {

const char* kMagic = "KSIM2";  // 2: motion-queue ramps

struct Writer {
  std::string out;
  void raw(const void* p, size_t n) { out.append((const char*)p, n); }
  void f(double x) { raw(&x, sizeof x); }
  void i(int64_t x) { raw(&x, sizeof x); }
  void vec(const VectorX& v) {
    i(v.size());
    raw(v.data(), sizeof(double) * v.size());
  }
  void v3(const Vector3& v) { raw(v.data(), sizeof(double) * 3); }
  void str(const std::string& s) {
    i((int64_t)s.size());
    raw(s.data(), s.size());
  }
};

struct Reader {
  const std::string& in;
  size_t pos = 0;
  void raw(void* p, size_t n) {
    if (pos + n > in.size()) throw std::runtime_error("truncated state");
    std::memcpy(p, in.data() + pos, n);
    pos += n;
  }
  double f() {
    double x;
    raw(&x, sizeof x);
    return x;
  }
  int64_t i() {
    int64_t x;
    raw(&x, sizeof x);
    return x;
  }
  VectorX vec(int64_t expected = -1) {
    const int64_t n = i();
    if (n < 0 || n > (int64_t)(in.size() / 8) || (expected >= 0 && n != expected))
      throw std::runtime_error("bad vector size in state");
    VectorX v(n);
    raw(v.data(), sizeof(double) * n);
    return v;
  }
  Vector3 v3() {
    Vector3 v;
    raw(v.data(), sizeof(double) * 3);
    return v;
  }
  std::string str() {
    const int64_t n = i();
    if (n < 0 || pos + n > in.size()) throw std::runtime_error("bad string in state");
    std::string s = in.substr(pos, n);
    pos += n;
    return s;
  }
};

const char* kB64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64Encode(const std::string& s) {
  std::string out;
  out.reserve((s.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < s.size(); i += 3) {
    const unsigned v = (unsigned char)s[i] << 16 | (unsigned char)s[i + 1] << 8 | (unsigned char)s[i + 2];
    for (int k = 3; k >= 0; --k) out += kB64[(v >> (6 * k)) & 63];
  }
  if (i < s.size()) {
    unsigned v = (unsigned char)s[i] << 16;
    if (i + 1 < s.size()) v |= (unsigned char)s[i + 1] << 8;
    out += kB64[(v >> 18) & 63];
    out += kB64[(v >> 12) & 63];
    out += i + 1 < s.size() ? kB64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool base64Decode(const std::string& s, std::string& out) {
  int table[256];
  std::fill(table, table + 256, -1);
  for (int k = 0; k < 64; ++k) table[(unsigned char)kB64[k]] = k;
  unsigned v = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=' || c == '\n' || c == '\r' || c == ' ') continue;
    const int d = table[(unsigned char)c];
    if (d < 0) return false;
    v = (v << 6) | d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += (char)((v >> bits) & 0xff);
    }
  }
  return true;
}

void writeController(Writer& w, const RobotController& c) {
  w.i((int)c.mode);
  w.f(c.rate);
  w.f(c.queueTime);
  w.vec(c.qCommand);
  w.vec(c.dqCommand);
  w.vec(c.torqueCommand);
  w.vec(c.integral);
  w.vec(c.kP);
  w.vec(c.kI);
  w.vec(c.kD);
  w.vec(c.gravityTorque);
  w.vec(c.appliedTorque);
  w.i(c.feedforwardAcceleration | c.gravityCompensation << 1 | c.onlyJointCommands << 2);
  w.v3(c.gravity);
  w.vec(c.queue.qEnd);
  w.vec(c.queue.vEnd);
  w.i((int64_t)c.queue.segments.size());
  for (const auto& s : c.queue.segments) {
    w.f(s.start);
    w.f(s.duration);
    w.vec(s.q0);
    w.vec(s.v0);
    w.vec(s.q1);
    w.vec(s.v1);
    w.i((int64_t)s.ramps.size());
    for (const Ramp1D& r : s.ramps) {
      w.f(r.x0);
      w.f(r.v0);
      w.i(r.phases);
      for (int k = 0; k < r.phases; ++k) {
        w.f(r.accel[k]);
        w.f(r.length[k]);
      }
    }
  }
}

void readController(Reader& r, RobotController& c, int n, int nd) {
  const int64_t mode = r.i();
  if (mode < 0 || mode > 2) throw std::runtime_error("bad controller mode");
  c.mode = (RobotController::Mode)mode;
  c.rate = r.f();
  c.queueTime = r.f();
  c.qCommand = r.vec(n);
  c.dqCommand = r.vec(n);
  c.torqueCommand = r.vec(nd);
  c.integral = r.vec(nd);
  c.kP = r.vec(nd);
  c.kI = r.vec(nd);
  c.kD = r.vec(nd);
  c.gravityTorque = r.vec(nd);
  c.appliedTorque = r.vec(nd);
  const int64_t flags = r.i();
  c.feedforwardAcceleration = flags & 1;
  c.gravityCompensation = flags & 2;
  c.onlyJointCommands = flags & 4;
  c.gravity = r.v3();
  c.queue.qEnd = r.vec(n);
  c.queue.vEnd = r.vec(n);
  const int64_t ns = r.i();
  if (ns < 0 || ns > 1000000) throw std::runtime_error("bad motion queue");
  c.queue.segments.resize(ns);
  for (auto& s : c.queue.segments) {
    s.start = r.f();
    s.duration = r.f();
    s.q0 = r.vec(n);
    s.v0 = r.vec(n);
    s.q1 = r.vec(n);
    s.v1 = r.vec(n);
    const int64_t nr = r.i();
    if (nr != 0 && nr != n) throw std::runtime_error("bad motion queue");
    s.ramps.resize(nr);
    for (Ramp1D& ramp : s.ramps) {
      ramp.x0 = r.f();
      ramp.v0 = r.f();
      const int64_t phases = r.i();
      if (phases < 0 || phases > Ramp1D::kMaxPhases) throw std::runtime_error("bad motion queue");
      ramp.phases = (int)phases;
      for (int k = 0; k < ramp.phases; ++k) {
        ramp.accel[k] = r.f();
        ramp.length[k] = r.f();
      }
    }
  }
}

}  // namespace

std::string Simulation::getState() const {
  Writer w;
  w.raw(kMagic, 5);
  w.f(time);
  w.i(status);
  w.i((int64_t)bodies.size());
  for (const SimBody& b : bodies) {
    w.i(b.enabled | b.dynamicsEnabled << 1 | b.asleep << 2 | (int64_t)b.idleSteps << 3);
    w.f(b.lastKineticEnergy);
    w.v3(b.pendingForce);
    w.v3(b.pendingTorque);
    if (!b.body) continue;
    w.raw(dBodyGetPosition(b.body), sizeof(dReal) * 3);
    w.raw(b.rawQuaternion.data(), sizeof(dReal) * 4);
    w.raw(dBodyGetLinearVel(b.body), sizeof(dReal) * 3);
    w.raw(dBodyGetAngularVel(b.body), sizeof(dReal) * 3);
  }
  w.i((int64_t)robots.size());
  for (size_t r = 0; r < robots.size(); ++r) {
    w.vec(robots[r].lastQ);
    w.f(nextControlTime[r]);
    w.f(nextSenseTime[r]);
    writeController(w, controllers[r]);
    w.str(saveSensorState(*robotSensors[r]));
  }
  return base64Encode(w.out);
}

bool Simulation::setState(const std::string& data) {
  std::string bin;
  if (!base64Decode(data, bin) || bin.compare(0, 5, kMagic) != 0) return false;
  struct Body {
    int64_t flags;
    double ke;
    Vector3 force, torque;
    dReal pos[3], quat[4], lin[3], ang[3];
  };
  std::vector<Body> bs(bodies.size());
  std::vector<VectorX> lastQ(robots.size());
  std::vector<double> nextControl(robots.size()), nextSense(robots.size());
  std::vector<RobotController> ctrl = controllers;
  std::vector<std::string> sensorState(robots.size());
  double t;
  int64_t st;
  try {
    Reader r{bin, 5};
    t = r.f();
    st = r.i();
    if ((size_t)r.i() != bodies.size()) return false;
    for (size_t i = 0; i < bodies.size(); ++i) {
      Body& b = bs[i];
      b.flags = r.i();
      b.ke = r.f();
      b.force = r.v3();
      b.torque = r.v3();
      if (!bodies[i].body) continue;
      r.raw(b.pos, sizeof b.pos);
      r.raw(b.quat, sizeof b.quat);
      r.raw(b.lin, sizeof b.lin);
      r.raw(b.ang, sizeof b.ang);
      // A non-finite pose or velocity would stop ODE in the middle of a step.
      for (const dReal* v : {b.pos, b.lin, b.ang})
        if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) return false;
      for (dReal x : b.quat)
        if (!std::isfinite(x)) return false;
    }
    if ((size_t)r.i() != robots.size()) return false;
    for (size_t k = 0; k < robots.size(); ++k) {
      const Robot& robot = *world->robots[k];
      lastQ[k] = r.vec(robot.numLinks());
      nextControl[k] = r.f();
      nextSense[k] = r.f();
      readController(r, ctrl[k], robot.numLinks(), (int)robot.drivers.size());
      sensorState[k] = r.str();
    }
    if (r.pos != bin.size()) return false;
  } catch (const std::exception&) {
    return false;
  }
  for (size_t k = 0; k < robots.size(); ++k)
    if (!restoreSensorState(*robotSensors[k], sensorState[k])) return false;
  time = t;
  status = (int)st;
  for (size_t i = 0; i < bodies.size(); ++i) {
    SimBody& sb = bodies[i];
    const Body& b = bs[i];
    sb.enabled = b.flags & 1;
    sb.dynamicsEnabled = b.flags & 2;
    sb.asleep = b.flags & 4;
    sb.idleSteps = (int)(b.flags >> 3);
    sb.lastKineticEnergy = b.ke;
    sb.pendingForce = b.force;
    sb.pendingTorque = b.torque;
    if (!sb.body) continue;
    sb.applyFlags();
    dBodySetPosition(sb.body, b.pos[0], b.pos[1], b.pos[2]);
    sb.setRawQuaternion(b.quat);
    dBodySetLinearVel(sb.body, b.lin[0], b.lin[1], b.lin[2]);
    dBodySetAngularVel(sb.body, b.ang[0], b.ang[1], b.ang[2]);
    sb.syncGeometry();
  }
  for (size_t k = 0; k < robots.size(); ++k) {
    robots[k].lastQ = lastQ[k];
    nextControlTime[k] = nextControl[k];
    nextSenseTime[k] = nextSense[k];
  }
  controllers = std::move(ctrl);
  contactsValid_ = false;
  lastStepContacts_.clear();
  updateWorld();
  return true;
}

}  // namespace klampt
