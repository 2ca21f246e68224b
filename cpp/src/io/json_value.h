// Internal to io: a small JSON document model for the JSON files of Klamp't
// 0.10 (heightmap descriptions), read and written by the file loaders.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace klampt {

struct JsonValue {
  enum class Kind { Null, Boolean, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<JsonValue> items;             // Array
  std::map<std::string, JsonValue> fields;  // Object

  /// The member `key` of an object, or nullptr.
  const JsonValue* find(const std::string& key) const;
  bool isNumber() const { return kind == Kind::Number; }
};

/// Parses one JSON value filling the whole text (whitespace aside). Throws
/// std::runtime_error naming the offset of the first error.
JsonValue parseJson(const std::string& text);
/// Compact JSON text of a value (numbers with 17 significant digits).
std::string writeJson(const JsonValue& value);

JsonValue jsonNumber(double x);
JsonValue jsonString(const std::string& s);
JsonValue jsonArray(const std::vector<double>& xs);

}  // namespace klampt
