#include "klampt/io/load_error.h"

namespace klampt {

std::string fileMessage(const std::string& file, int line, const std::string& message) {
  if (line > 0) return file + ":" + std::to_string(line) + ": " + message;
  return file + ": " + message;
}

}  // namespace klampt
