// The world file's <simulation> section: global settings, per-body surface
// and padding, initial velocities, controller rates, user joints and a saved
// state.
#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <tinyxml2.h>
#include "klampt/sim/simulation.h"

namespace klampt {

namespace {

using tinyxml2::XMLElement;

Vector3 readVector3(const char* text, const char* what) {
  std::istringstream s(text ? text : "");
  Vector3 v;
  if (!(s >> v[0] >> v[1] >> v[2])) throw std::runtime_error(std::string("<simulation>: bad ") + what + " '" + (text ? text : "") + "'");
  return v;
}

double readNumber(const char* text, const char* what) {
  std::istringstream s(text);
  std::string word;
  s >> word;
  if (word == "inf" || word == "Inf") return INFINITY;
  try {
    size_t used;
    const double x = std::stod(word, &used);
    if (used == word.size()) return x;
  } catch (const std::exception&) {
  }
  throw std::runtime_error(std::string("<simulation>: bad ") + what + " '" + text + "'");
}

/// Index of the element named by the `index` or `name` attribute.
template <class List>
int elementIndex(const XMLElement* e, const List& list, const char* kind) {
  if (const char* idx = e->Attribute("index")) {
    const int i = (int)readNumber(idx, "index");
    if (i < 0 || i >= (int)list.size()) throw std::runtime_error(std::string("<simulation>: ") + kind + " index " + idx + " out of range");
    return i;
  }
  if (const char* name = e->Attribute("name")) {
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i]->name == name) return (int)i;
    throw std::runtime_error(std::string("<simulation>: no ") + kind + " named '" + name + "'");
  }
  throw std::runtime_error(std::string("<simulation>: <") + kind + "> needs an index or a name");
}

/// Reads a body's <geometry> settings; returns its preshrink mode (0: none,
/// 1: contacts only, 2: the element's geometry too), which the reference
/// reads only alongside a padding.
int readGeometry(const XMLElement* g, SimBody& b) {
  if (!g) return 0;
  int preshrink = 0;
  if (const char* a = g->Attribute("padding")) {
    b.padding = readNumber(a, "padding");
    if (const char* p = g->Attribute("preshrink")) preshrink = (int)readNumber(p, "preshrink");
  }
  if (const char* a = g->Attribute("kFriction")) b.surface.kFriction = readNumber(a, "kFriction");
  if (const char* a = g->Attribute("kRestitution")) b.surface.kRestitution = readNumber(a, "kRestitution");
  if (const char* a = g->Attribute("kStiffness")) b.surface.kStiffness = readNumber(a, "kStiffness");
  if (const char* a = g->Attribute("kDamping")) b.surface.kDamping = readNumber(a, "kDamping");
  return preshrink;
}

void readVelocity(const XMLElement* v, SimBody& b) {
  if (!v) return;
  Vector3 w, lin;
  b.velocity(w, lin);
  if (const char* a = v->Attribute("angular")) w = readVector3(a, "angular velocity");
  if (const char* a = v->Attribute("linear")) lin = readVector3(a, "linear velocity");
  b.setVelocity(w, lin);
}

}  // namespace

void Simulation::applySimulationXml() {
  if (world->simulationXml.empty()) return;
  tinyxml2::XMLDocument doc;
  if (doc.Parse(world->simulationXml.c_str()) != tinyxml2::XML_SUCCESS || !doc.RootElement())
    throw std::runtime_error("<simulation>: malformed XML");
  const XMLElement* root = doc.RootElement();
  std::string state;
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "globals") {
      for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
        std::string name = a->Name();
        if (name == "ERP") name = "errorReductionParameter";
        else if (name == "CFM") name = "dampedLeastSquaresParameter";
        else if (name == "timestep") name = "simStep";
        else if (name == "boundaryLayer") name = "boundaryLayerCollisions";
        const auto& known = SimSettings::names();
        if (name != "simStep" && std::find(known.begin(), known.end(), name) == known.end()) continue;
        try {
          settings.set(name, a->Value());
        } catch (const std::invalid_argument& ex) {
          throw std::runtime_error(std::string("<simulation><globals>: ") + ex.what());
        }
      }
    } else if (tag == "object" || tag == "rigidObject") {
      const int index = bodyOfID[world->rigidObjectID(elementIndex(e, world->rigidObjects, "object"))];
      if (const int mode = readGeometry(e->FirstChildElement("geometry"), bodies[index])) preshrink(index, mode == 2);
      readVelocity(e->FirstChildElement("velocity"), bodies[index]);
    } else if (tag == "terrain") {
      const int index = bodyOfID[world->terrainID(elementIndex(e, world->terrains, "terrain"))];
      if (const int mode = readGeometry(e->FirstChildElement("geometry"), bodies[index])) preshrink(index, mode == 2);
    } else if (tag == "robot") {
      const int r = elementIndex(e, world->robots, "robot");
      const Robot& robot = *world->robots[r];
      int only = -1;
      if (const char* body = e->Attribute("body")) {
        only = robot.linkIndex(body);
        if (only < 0) only = (int)readNumber(body, "body");
        if (only < 0 || only >= robot.numLinks()) throw std::runtime_error(std::string("<simulation>: bad robot body ") + body);
      }
      for (int i = 0; i < robot.numLinks(); ++i) {
        if ((only >= 0 && i != only) || robots[r].body[i] < 0) continue;
        const int index = robots[r].body[i];
        if (const int mode = readGeometry(e->FirstChildElement("geometry"), bodies[index])) preshrink(index, mode == 2);
      }
      if (const XMLElement* c = e->FirstChildElement("controller"))
        if (const char* rate = c->Attribute("rate")) controllers[r].rate = readNumber(rate, "controller rate");
    } else if (tag == "joint") {
      const std::string type = e->Attribute("type") ? e->Attribute("type") : "";
      std::vector<int> ends;
      for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string ct = c->Name();
        if (ct == "rigidObject" || ct == "object") {
          ends.push_back(bodyOfID[world->rigidObjectID(elementIndex(c, world->rigidObjects, "rigidObject"))]);
        } else if (ct == "robot") {
          const int r = elementIndex(c, world->robots, "robot");
          const char* link = c->Attribute("link");
          const int li = link ? (int)readNumber(link, "link") : 0;
          if (li < 0 || li >= world->robots[r]->numLinks() || robots[r].body[li] < 0)
            throw std::runtime_error("<simulation><joint>: bad robot link");
          ends.push_back(robots[r].body[li]);
        }
      }
      if (ends.empty() || ends.size() > 2) throw std::runtime_error("<simulation><joint>: needs one or two bodies");
      SimUserJoint::Type jt = type == "hinge"    ? SimUserJoint::Type::Hinge
                              : type == "slider" ? SimUserJoint::Type::Slider
                              : type == "fixed"  ? SimUserJoint::Type::Fixed
                                                 : SimUserJoint::Type::None;
      if (jt == SimUserJoint::Type::None) throw std::runtime_error("<simulation><joint>: unknown type '" + type + "'");
      const Vector3 axis = e->Attribute("axis") ? readVector3(e->Attribute("axis"), "axis") : Vector3::UnitZ();
      const Vector3 point = e->Attribute("point") ? readVector3(e->Attribute("point"), "point") : Vector3::Zero();
      auto j = addUserJoint(jt, ends[0], ends.size() > 1 ? ends[1] : -1, point, axis);
      if (e->Attribute("min") && e->Attribute("max"))
        j->setLimits(readNumber(e->Attribute("min"), "min"), readNumber(e->Attribute("max"), "max"));
      if (const char* f = e->Attribute("friction")) j->setFriction(readNumber(f, "friction"));
    } else if (tag == "state") {
      if (const char* data = e->Attribute("data")) state = data;
    }
  }
  if (!state.empty() && !setState(state)) throw std::runtime_error("<simulation><state>: malformed state data");
}

}  // namespace klampt
