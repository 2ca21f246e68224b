#include "rob_lexer.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>

namespace klampt {

namespace {

bool isBlank(const std::string& s) {
  for (char c : s)
    if (!std::isspace((unsigned char)c)) return false;
  return true;
}

}  // namespace

std::vector<RobLine> splitRobLines(const std::string& s) {
  std::vector<RobLine> lines;
  RobLine cur;
  int physical = 1;
  cur.line = 1;
  bool inQuote = false, inComment = false;
  auto endLine = [&]() {
    if (!isBlank(cur.text)) lines.push_back(cur);
    cur.text.clear();
    cur.line = physical;
    inQuote = inComment = false;
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\n') {
      ++physical;
      endLine();
      continue;
    }
    if (inComment) continue;
    if (c == '\\') {
      size_t j = i + 1;
      if (j < s.size() && s[j] == '\r') ++j;
      if (j < s.size() && s[j] == '\n') {  // line continuation
        cur.text += ' ';
        ++physical;
        i = j;
        continue;
      }
      cur.text += c;
      // Keep an escaped quote (or backslash) inside a quoted string with its backslash.
      if (inQuote && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) cur.text += s[++i];
      continue;
    }
    if (c == '\r') {
      cur.text += ' ';
      continue;
    }
    if (c == '#' && !inQuote) {
      inComment = true;
      continue;
    }
    if (c == '"') inQuote = !inQuote;
    cur.text += c;
  }
  endLine();
  return lines;
}

bool parseRobNumber(const std::string& token, double& value) {
  if (token.empty()) return false;
  char* end = nullptr;
  value = std::strtod(token.c_str(), &end);
  return end == token.c_str() + token.size();
}

bool parseRobInteger(const std::string& token, int& value) {
  if (token.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(token.c_str(), &end, 10);
  if (end != token.c_str() + token.size() || errno == ERANGE || v < INT_MIN || v > INT_MAX) return false;
  value = (int)v;
  return true;
}

std::string translateEscapes(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char n = s[i + 1];
    switch (n) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      default: out += '\\'; continue;  // not an escape: keep the backslash verbatim
    }
    ++i;
  }
  return out;
}

void RobTokens::skipSpace() {
  while (pos_ < text_.size() && std::isspace((unsigned char)text_[pos_])) ++pos_;
}

bool RobTokens::atEnd() {
  skipSpace();
  return pos_ >= text_.size();
}

bool RobTokens::nextString(std::string& out) {
  out.clear();
  if (atEnd()) return false;
  if (text_[pos_] != '"') {
    size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace((unsigned char)text_[pos_])) ++pos_;
    out = text_.substr(start, pos_ - start);
    return true;
  }
  for (size_t i = pos_ + 1; i < text_.size(); ++i) {
    char c = text_[i];
    if (c == '\\' && i + 1 < text_.size() && (text_[i + 1] == '"' || text_[i + 1] == '\\')) {
      out += text_[++i];
    } else if (c == '"') {
      pos_ = i + 1;
      return true;
    } else {
      out += c;
    }
  }
  fail("unterminated quoted string");
}

std::string RobTokens::peek() {
  size_t save = pos_;
  std::string tok;
  nextString(tok);
  pos_ = save;
  return tok;
}

bool RobTokens::nextIsWord() {
  if (atEnd()) return false;
  unsigned char c = (unsigned char)text_[pos_];
  if (!std::isalpha(c) && c != '"' && c != '_') return false;
  double dummy;
  return !parseRobNumber(peek(), dummy);
}

double RobTokens::number(const std::string& what) {
  std::string tok;
  if (!nextString(tok)) fail("missing number for " + what);
  double v;
  if (!parseRobNumber(tok, v)) fail("malformed number '" + tok + "' for " + what);
  return v;
}

int RobTokens::integer(const std::string& what) {
  std::string tok;
  if (!nextString(tok)) fail("missing integer for " + what);
  int v;
  if (!parseRobInteger(tok, v)) fail("malformed integer '" + tok + "' for " + what);
  return v;
}

std::string RobTokens::rest() {
  skipSpace();
  size_t end = text_.size();
  while (end > pos_ && std::isspace((unsigned char)text_[end - 1])) --end;
  std::string r = text_.substr(pos_, end - pos_);
  pos_ = text_.size();
  return r;
}

void RobTokens::fail(const std::string& message) const { throw LoadError(fileMessage(file_, line_, message)); }

}  // namespace klampt
