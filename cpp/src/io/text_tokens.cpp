#include "text_tokens.h"
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include "klampt/io/load_error.h"

namespace klampt {

bool parseDouble(std::string_view text, double& value) {
  // from_chars ignores the C locale (a Python program may have changed it).
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end) return false;
  auto res = std::from_chars(begin, end, value);
  if (res.ec == std::errc::result_out_of_range && res.ptr == end) {
    value = std::strtod(std::string(begin, end).c_str(), nullptr);  // underflow to 0 / overflow to inf
    return true;
  }
  return res.ec == std::errc() && res.ptr == end;
}

bool parseInt(std::string_view text, long& value) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+' && end - begin > 1 && begin[1] != '-') ++begin;
  if (begin == end) return false;
  auto res = std::from_chars(begin, end, value, 10);
  return res.ec == std::errc() && res.ptr == end;
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

namespace {

/// The C locale's whitespace, whatever the locale a program has set.
inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

// Finds the next token after pos_, skipping whitespace and comments.
void TokenStream::scan() {
  if (havePeek_) return;
  const std::string& s = content_;
  while (pos_ < s.size()) {
    char c = s[pos_];
    if (c == '\n') {
      ++posLine_;
      ++pos_;
    } else if (isBlank(c)) {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < s.size() && s[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
  peek_.line = posLine_;
  peekTextFilled_ = false;
  if (pos_ >= s.size()) {
    peekBegin_ = peekSize_ = 0;
    return;
  }
  if (s[pos_] == '"') {
    std::size_t close = s.find('"', pos_ + 1);
    std::size_t eol = s.find('\n', pos_ + 1);
    if (close == std::string::npos || close > eol) failAt(posLine_, "unterminated quoted string");
    peekBegin_ = pos_ + 1;
    peekSize_ = close - pos_ - 1;
    pos_ = close + 1;
  } else {
    std::size_t start = pos_;
    while (pos_ < s.size() && !isBlank(s[pos_]) && s[pos_] != '#') ++pos_;
    peekBegin_ = start;
    peekSize_ = pos_ - start;
  }
  havePeek_ = true;
}

bool TokenStream::atEnd() {
  scan();
  return !havePeek_;
}

const Token& TokenStream::peek() {
  scan();
  if (!peekTextFilled_) {
    peek_.text.assign(peekView());
    peekTextFilled_ = true;
  }
  return peek_;
}

void TokenStream::consume(const char* what) {
  scan();
  if (!havePeek_) failAt(posLine_, std::string("unexpected end of file, expected ") + what);
  havePeek_ = false;
  lastLine_ = peek_.line;
}

Token TokenStream::next(const char* what) {
  scan();
  Token t{std::string(peekView()), peek_.line};
  consume(what);
  return t;
}

double TokenStream::nextDouble(const char* what) {
  consume(what);
  double v;
  if (!parseDouble(peekView(), v)) fail(std::string("expected ") + what + ", got \"" + std::string(peekView()) + "\"");
  return v;
}

long TokenStream::nextInt(const char* what) {
  consume(what);
  long v;
  if (!parseInt(peekView(), v)) fail(std::string("expected integer ") + what + ", got \"" + std::string(peekView()) + "\"");
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
