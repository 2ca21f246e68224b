// Internal to the .rob reader: splits a .rob file into logical lines and
// reads the tokens of one line (numbers, integers, optionally quoted strings).
#pragma once
#include <string>
#include <vector>
#include "klampt/io/load_error.h"

namespace klampt {

/// One logical line: `#` comments removed, `\`-continued lines joined.
struct RobLine {
  std::string text;
  int line = 0;  // physical line where it starts (1-based)
};

/// Splits file contents into non-empty logical lines. A `#` outside a quoted
/// string starts a comment; `\` at the end of a line (before `\n` or `\r\n`)
/// joins the next line; other backslashes are kept verbatim.
std::vector<RobLine> splitRobLines(const std::string& contents);

/// A cursor over the tokens of one logical line. Errors throw LoadError naming
/// the file and the line.
class RobTokens {
 public:
  RobTokens(const RobLine& line, const std::string& file) : text_(line.text), line_(line.line), file_(file) {}

  int line() const { return line_; }
  const std::string& file() const { return file_; }

  /// True once only whitespace remains.
  bool atEnd();
  /// Next token: a quoted string ("..." with \" and \\ escapes) or a run of
  /// non-space characters. False at the end of the line.
  bool nextString(std::string& out);
  /// The next token without consuming it ("" at the end).
  std::string peek();
  /// True if the next token begins a word rather than a number (inf and nan
  /// count as numbers).
  bool nextIsWord();
  /// A floating-point number (inf, -inf, nan accepted); throws if missing or malformed.
  double number(const std::string& what);
  /// An integer; throws if missing or malformed.
  int integer(const std::string& what);
  /// Everything not read yet, trimmed, verbatim.
  std::string rest();

  [[noreturn]] void fail(const std::string& message) const;

 private:
  void skipSpace();
  std::string text_;
  size_t pos_ = 0;
  int line_;
  std::string file_;
};

/// Parses `token` as a whole floating-point number / integer.
bool parseRobNumber(const std::string& token, double& value);
bool parseRobInteger(const std::string& token, int& value);

/// Translates C-style escapes (\n, \t, \r, \", \\); other backslashes are kept.
std::string translateEscapes(const std::string& s);

}  // namespace klampt
