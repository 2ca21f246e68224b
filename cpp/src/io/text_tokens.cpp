#include "text_tokens.h"
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include "klampt/io/load_error.h"

namespace klampt {

bool parseDouble(const std::string& text, double& value) {
  // from_chars ignores the C locale (a Python program may have changed it).
  const char* begin = text.c_str();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end) return false;
  auto res = std::from_chars(begin, end, value);
  if (res.ec == std::errc::result_out_of_range && res.ptr == end) {
    value = std::strtod(begin, nullptr);  // underflow to 0 / overflow to inf
    return true;
  }
  return res.ec == std::errc() && res.ptr == end;
}

bool parseInt(const std::string& text, long& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  value = std::strtol(text.c_str(), &end, 10);
  return end == text.c_str() + text.size() && errno != ERANGE;
}

std::string formatDouble(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, res.ptr);
}

TokenStream::TokenStream(std::string file, std::string content)
    : file_(std::move(file)), content_(std::move(content)) {}

TokenStream TokenStream::open(const std::string& path) {
  std::ifstream in(path, std::ios::in | std::ios::binary);
  if (!in) throw LoadError(fileMessage(path, 0, "cannot open file"));
  std::ostringstream ss;
  ss << in.rdbuf();
  return TokenStream(path, ss.str());
}

// Finds the next token after pos_, skipping whitespace and comments.
void TokenStream::scan() {
  if (havePeek_) return;
  const std::string& s = content_;
  while (pos_ < s.size()) {
    char c = s[pos_];
    if (c == '\n') {
      ++posLine_;
      ++pos_;
    } else if (std::isspace((unsigned char)c)) {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < s.size() && s[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
  peek_.text.clear();
  peek_.line = posLine_;
  if (pos_ >= s.size()) return;
  if (s[pos_] == '"') {
    std::size_t close = s.find('"', pos_ + 1);
    std::size_t eol = s.find('\n', pos_ + 1);
    if (close == std::string::npos || close > eol) failAt(posLine_, "unterminated quoted string");
    peek_.text = s.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
  } else {
    std::size_t start = pos_;
    while (pos_ < s.size() && !std::isspace((unsigned char)s[pos_]) && s[pos_] != '#') ++pos_;
    peek_.text = s.substr(start, pos_ - start);
  }
  havePeek_ = true;
}

bool TokenStream::atEnd() {
  scan();
  return !havePeek_;
}

const Token& TokenStream::peek() {
  scan();
  return peek_;
}

Token TokenStream::next(const char* what) {
  scan();
  if (!havePeek_) failAt(posLine_, std::string("unexpected end of file, expected ") + what);
  havePeek_ = false;
  lastLine_ = peek_.line;
  return peek_;
}

double TokenStream::nextDouble(const char* what) {
  Token t = next(what);
  double v;
  if (!parseDouble(t.text, v)) fail(std::string("expected ") + what + ", got \"" + t.text + "\"");
  return v;
}

long TokenStream::nextInt(const char* what) {
  Token t = next(what);
  long v;
  if (!parseInt(t.text, v)) fail(std::string("expected integer ") + what + ", got \"" + t.text + "\"");
  return v;
}

int TokenStream::nextCount(const char* what) {
  long v = nextInt(what);
  if (v < 0 || v > 1000000000L) fail(std::string("invalid ") + what + " " + std::to_string(v));
  return (int)v;
}

bool TokenStream::moreOnLine() {
  scan();
  return havePeek_ && peek_.line == lastLine_;
}

void TokenStream::skipLine() {
  if (havePeek_) {
    if (peek_.line != lastLine_) return;  // the peeked token already starts a later line
    havePeek_ = false;
  }
  while (pos_ < content_.size() && content_[pos_] != '\n') ++pos_;
  if (pos_ < content_.size()) {
    ++pos_;
    ++posLine_;
  }
}

void TokenStream::fail(const std::string& message) const { failAt(lastLine_, message); }

void TokenStream::failAt(int line, const std::string& message) const {
  throw LoadError(fileMessage(file_, line, message));
}

std::vector<KeyValueLine> readKeyValueLines(TokenStream& in) {
  std::vector<KeyValueLine> lines;
  while (!in.atEnd()) {
    KeyValueLine entry;
    Token key = in.next("key");
    entry.key = key.text;
    entry.line = key.line;
    while (in.moreOnLine()) entry.values.push_back(in.next("value").text);
    lines.push_back(std::move(entry));
  }
  return lines;
}

std::vector<double> keyValueNumbers(const TokenStream& in, const KeyValueLine& entry) {
  std::vector<double> values(entry.values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!parseDouble(entry.values[i], values[i]))
      in.failAt(entry.line, "invalid number \"" + entry.values[i] + "\" for " + entry.key);
  return values;
}

}  // namespace klampt
