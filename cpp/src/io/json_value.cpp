// A small JSON reader and writer (see json_value.h).
#include "json_value.h"
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace klampt {

namespace {

constexpr int kMaxDepth = 64;

struct Parser {
  const std::string& s;
  size_t i = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i));
  }
  void space() {
    while (i < s.size() && std::isspace((unsigned char)s[i])) ++i;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s.compare(i, w.size(), w) != 0) return false;
    i += w.size();
    return true;
  }
  std::string string() {
    if (s[i] != '"') fail("expected a string");
    ++i;
    std::string out;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= s.size()) break;
      const char e = s[i++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (i + 4 > s.size()) fail("bad \\u escape");
          const unsigned code = (unsigned)std::strtoul(s.substr(i, 4).c_str(), nullptr, 16);
          i += 4;
          if (code < 0x80) {
            out += (char)code;
          } else if (code < 0x800) {
            out += (char)(0xC0 | (code >> 6));
            out += (char)(0x80 | (code & 0x3F));
          } else {
            out += (char)(0xE0 | (code >> 12));
            out += (char)(0x80 | ((code >> 6) & 0x3F));
            out += (char)(0x80 | (code & 0x3F));
          }
          break;
        }
        default: out += e;
      }
    }
    if (i >= s.size()) fail("unterminated string");
    ++i;
    return out;
  }
  JsonValue value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
    space();
    if (i >= s.size()) fail("unexpected end");
    JsonValue v;
    const char c = s[i];
    if (c == '{') {
      v.kind = JsonValue::Kind::Object;
      ++i;
      space();
      if (i < s.size() && s[i] == '}') return ++i, v;
      while (true) {
        space();
        std::string key = string();
        space();
        if (i >= s.size() || s[i] != ':') fail("expected ':'");
        ++i;
        v.fields[key] = value(depth + 1);
        space();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == '}') return ++i, v;
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = JsonValue::Kind::Array;
      ++i;
      space();
      if (i < s.size() && s[i] == ']') return ++i, v;
      while (true) {
        v.items.push_back(value(depth + 1));
        space();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == ']') return ++i, v;
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.kind = JsonValue::Kind::String;
      v.text = string();
      return v;
    }
    if (literal("true") || literal("false")) {
      v.kind = JsonValue::Kind::Boolean;
      v.boolean = c == 't';
      return v;
    }
    if (literal("null")) return v;
    const char* start = s.c_str() + i;
    char* end = nullptr;
    v.number = std::strtod(start, &end);
    if (end == start) fail("unexpected character");
    i += (size_t)(end - start);
    v.kind = JsonValue::Kind::Number;
    return v;
  }
};

void write(const JsonValue& v, std::string& out) {
  switch (v.kind) {
    case JsonValue::Kind::Null: out += "null"; break;
    case JsonValue::Kind::Boolean: out += v.boolean ? "true" : "false"; break;
    case JsonValue::Kind::Number: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", std::isfinite(v.number) ? v.number : 0.0);
      out += buf;
      break;
    }
    case JsonValue::Kind::String:
      out += '"';
      for (char c : v.text) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
          out += "\\n";
          continue;
        }
        out += c;
      }
      out += '"';
      break;
    case JsonValue::Kind::Array:
      out += '[';
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (k) out += ", ";
        write(v.items[k], out);
      }
      out += ']';
      break;
    case JsonValue::Kind::Object: {
      out += '{';
      bool first = true;
      for (const auto& kv : v.fields) {
        if (!first) out += ", ";
        first = false;
        write(jsonString(kv.first), out);
        out += ": ";
        write(kv.second, out);
      }
      out += '}';
      break;
    }
  }
}

}  // namespace

const JsonValue* JsonValue::find(const std::string& key) const {
  if (kind != Kind::Object) return nullptr;
  auto it = fields.find(key);
  return it == fields.end() ? nullptr : &it->second;
}

JsonValue parseJson(const std::string& text) {
  Parser p{text};
  JsonValue v = p.value(0);
  p.space();
  if (p.i != text.size()) p.fail("unexpected text after the value");
  return v;
}

std::string writeJson(const JsonValue& value) {
  std::string out;
  write(value, out);
  return out;
}

JsonValue jsonNumber(double x) {
  JsonValue v;
  v.kind = JsonValue::Kind::Number;
  v.number = x;
  return v;
}

JsonValue jsonString(const std::string& s) {
  JsonValue v;
  v.kind = JsonValue::Kind::String;
  v.text = s;
  return v;
}

JsonValue jsonArray(const std::vector<double>& xs) {
  JsonValue v;
  v.kind = JsonValue::Kind::Array;
  for (double x : xs) v.items.push_back(jsonNumber(x));
  return v;
}

}  // namespace klampt
