// Errors and warnings of the file loaders.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace klampt {

/// A file could not be read or is malformed; the message names the file (and
/// the line, where there is one).
struct LoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Options and diagnostics shared by the loaders. Warnings name what was
/// skipped or guessed and are passed on to Python's warnings by the bindings.
struct LoadContext {
  bool loadGeometry = true;
  std::vector<std::string> warnings;
  void warn(const std::string& message) { warnings.push_back(message); }
};

/// "file:line: message" (line omitted when <= 0).
std::string fileMessage(const std::string& file, int line, const std::string& message);

}  // namespace klampt
