#include "klampt/io/load_error.h"

namespace klampt {

namespace {

/// The length of the well-formed UTF-8 sequence at s[i] (as Python's strict
/// decoder accepts it: no overlong forms, surrogates or code points past
/// U+10FFFF), or 0 if there is none.
size_t utf8SequenceLength(const std::string& s, size_t i) {
  const unsigned char c = (unsigned char)s[i];
  if (c < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char b = (unsigned char)s[i + k];
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return n;
}

/// `s` with every byte that is not part of well-formed UTF-8 written as \xNN,
/// so that a message quoting a malformed file is still valid text in Python.
std::string validUtf8(const std::string& s) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8SequenceLength(s, i);
    if (n > 0) {
      out.append(s, i, n);
      i += n;
    } else {
      const unsigned char c = (unsigned char)s[i++];
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace

std::string fileMessage(const std::string& file, int line, const std::string& message) {
  if (line > 0) return validUtf8(file + ":" + std::to_string(line) + ": " + message);
  return validUtf8(file + ": " + message);
}

}  // namespace klampt
