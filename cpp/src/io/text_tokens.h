// Internal: a lazy tokenizer for the small text formats (.off, .tri, .geom,
// .vol, .pcd headers, key/value element files). Tokens are separated by
// whitespace, '#' starts a comment running to the end of the line and
// "double quotes" group a token. Every error is a LoadError naming the file
// and the line.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace klampt {

struct Token {
  std::string text;
  int line = 0;
};

class TokenStream {
 public:
  TokenStream(std::string file, std::string content);
  /// Reads the whole file; throws LoadError if it cannot be opened.
  static TokenStream open(const std::string& path);

  bool atEnd();
  /// The next token without consuming it (empty text at the end).
  const Token& peek();
  /// Consumes the next token; `what` names the expected item in the error
  /// raised at the end of the file.
  Token next(const char* what);
  double nextDouble(const char* what);
  long nextInt(const char* what);
  /// A non-negative integer (a count).
  int nextCount(const char* what);
  /// True if another token follows on the line of the last consumed token.
  bool moreOnLine();
  /// Discards the rest of the line of the last consumed token.
  void skipLine();

  /// Line of the last consumed token (1-based, 0 before the first).
  int line() const { return lastLine_; }
  const std::string& file() const { return file_; }
  /// Raw access for binary payloads: the content and the read position.
  const std::string& content() const { return content_; }
  std::size_t position() const { return pos_; }

  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void failAt(int line, const std::string& message) const;

 private:
  void scan();
  /// The peeked token's text, in the content.
  std::string_view peekView() const { return std::string_view(content_).substr(peekBegin_, peekSize_); }
  /// Consumes the peeked token.
  void consume(const char* what);

  std::string file_, content_;
  std::size_t pos_ = 0;
  int posLine_ = 1;
  int lastLine_ = 0;
  bool havePeek_ = false;
  // The peeked token: where its text lies in the content, and its line;
  // peek_.text is filled only when a caller asks for the token.
  std::size_t peekBegin_ = 0, peekSize_ = 0;
  bool peekTextFilled_ = false;
  Token peek_;
};

/// Strict number parsing ("inf" and "nan" accepted): false if `text` is not
/// entirely a number.
bool parseDouble(std::string_view text, double& value);
bool parseInt(std::string_view text, long& value);
/// Shortest text that reads back to exactly `value` ("inf", "-inf", "nan").
std::string formatDouble(double value);

/// One line of a key/value file: the key and its values.
struct KeyValueLine {
  std::string key;
  std::vector<std::string> values;
  int line = 0;
};
/// Splits a key/value file (Klamp't .obj, .env) into lines.
std::vector<KeyValueLine> readKeyValueLines(TokenStream& in);
/// The values of `entry` as numbers; a LoadError names a malformed one.
std::vector<double> keyValueNumbers(const TokenStream& in, const KeyValueLine& entry);

}  // namespace klampt
