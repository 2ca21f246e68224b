// The relaxed JSON of the reference's planner settings (KrisLibrary
// AnyCollection): unquoted keys, bare inf / nan, ',' or ';' between entries,
// e.g. "{foundSolution:1,maxIters:1000}". One flat object of numbers,
// booleans and strings.
#pragma once
#include <map>
#include <string>

namespace klampt {
namespace plan {

struct JsonValue {
  enum Kind { Number, Boolean, String } kind = Number;
  double number = 0;
  bool boolean = false;
  std::string text;
  /// Numbers and booleans as a number (true = 1); false for strings.
  bool asNumber(double& out) const;
};

/// Parses a flat object; false (and out untouched) on a syntax error.
bool parseJsonObject(const std::string& text, std::map<std::string, JsonValue>& out);
/// A number as the reference writes it: %g-style, bare inf.
std::string jsonNumber(double x);
/// A string with quotes and escapes.
std::string jsonString(const std::string& s);

}  // namespace plan
}  // namespace klampt
