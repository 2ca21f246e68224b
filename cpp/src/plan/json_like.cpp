#include "klampt/plan/json_like.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace klampt {
namespace plan {

namespace {

struct Reader {
  const std::string& s;
  size_t i = 0;
  void skipSpace() {
    while (i < s.size() && std::isspace((unsigned char)s[i])) ++i;
  }
  bool eat(char c) {
    skipSpace();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  bool quoted(std::string& out) {
    if (i >= s.size() || s[i] != '"') return false;
    ++i;
    out.clear();
    while (i < s.size() && s[i] != '"') {
      if (s[i] == '\\' && i + 1 < s.size()) {
        const char c = s[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
      } else {
        out += s[i];
      }
      ++i;
    }
    if (i >= s.size()) return false;
    ++i;
    return true;
  }
  /// A run of characters that can make up a bare key or value.
  std::string bare() {
    const size_t start = i;
    while (i < s.size() && (std::isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-' ||
                            s[i] == '+' || s[i] == '*'))
      ++i;
    return s.substr(start, i - start);
  }
  bool key(std::string& out) {
    skipSpace();
    if (i < s.size() && s[i] == '"') return quoted(out);
    out = bare();
    return !out.empty();
  }
  bool value(JsonValue& v) {
    skipSpace();
    if (i < s.size() && s[i] == '"') {
      v.kind = JsonValue::String;
      return quoted(v.text);
    }
    const std::string w = bare();
    if (w.empty()) return false;
    if (w == "true" || w == "false") {
      v.kind = JsonValue::Boolean;
      v.boolean = w == "true";
      return true;
    }
    v.kind = JsonValue::Number;
    if (w == "inf" || w == "+inf" || w == "Infinity") {
      v.number = INFINITY;
      return true;
    }
    if (w == "-inf" || w == "-Infinity") {
      v.number = -INFINITY;
      return true;
    }
    if (w == "nan") {
      v.number = NAN;
      return true;
    }
    char* end = nullptr;
    v.number = std::strtod(w.c_str(), &end);
    return end != w.c_str() && *end == 0;
  }
};

}  // namespace

bool JsonValue::asNumber(double& out) const {
  if (kind == String) return false;
  out = kind == Boolean ? (boolean ? 1.0 : 0.0) : number;
  return true;
}

bool parseJsonObject(const std::string& text, std::map<std::string, JsonValue>& out) {
  Reader r{text};
  std::map<std::string, JsonValue> result;
  if (!r.eat('{')) return false;
  if (!r.eat('}')) {
    while (true) {
      std::string k;
      JsonValue v;
      if (!r.key(k) || !r.eat(':') || !r.value(v)) return false;
      result[k] = v;
      if (r.eat(',') || r.eat(';')) continue;
      if (r.eat('}')) break;
      return false;
    }
  }
  r.skipSpace();
  if (r.i != text.size()) return false;
  out = std::move(result);
  return true;
}

std::string jsonNumber(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (std::isnan(x)) return "nan";
  std::ostringstream s;
  s.precision(17);
  s << x;
  // Prefer the short form when it is exact.
  std::ostringstream shortForm;
  shortForm << x;
  if (std::strtod(shortForm.str().c_str(), nullptr) == x) return shortForm.str();
  return s.str();
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace plan
}  // namespace klampt
