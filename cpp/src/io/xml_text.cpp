#include "klampt/io/xml_text.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace klampt {

namespace {

// TinyXML 1's names: a letter, '_' or a non-ASCII byte, then also digits, '-', '.' and ':'.
bool nameStart(char c) { return std::isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80; }
bool nameChar(char c) {
  return std::isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == ':' || (unsigned char)c >= 0x80;
}
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

struct OpenElement {
  std::string name;
  int line;
  size_t offset;
};

/// Walks the tags of a text, keeping the stack of open elements, the way
/// TinyXML 1 nests them.
class NestingScanner {
 public:
  explicit NestingScanner(const std::string& text) : s_(text) {}

  bool run(XmlNestingMistake& mistake) {
    while (true) {
      const size_t lt = s_.find('<', pos_);
      if (lt == std::string::npos) break;
      moveTo(lt);
      bool ok;
      if (at("<!--")) ok = skipPast("-->");
      else if (at("<![CDATA[")) ok = skipPast("]]>");
      else if (at("<?")) ok = skipPast("?>");
      else if (at("</")) {
        bool stray;
        if (!endTag(stray)) return false;
        if (stray) return report(mistake, true);
        continue;
      } else if (at("<!")) ok = skipPast(">");
      else if (pos_ + 1 < s_.size() && nameStart(s_[pos_ + 1])) ok = startTag();
      else return false;  // "<" not starting a markup TinyXML-2 reads
      if (!ok) return false;
    }
    if (open_.empty()) return false;
    // The text ends inside elements: the mistake's line is that of the last character.
    size_t last = s_.size();
    while (last > pos_ && space(s_[last - 1])) --last;
    moveTo(last);
    pos_ = s_.size();
    return report(mistake, false);
  }

 private:
  bool at(const char* prefix) const { return s_.compare(pos_, std::char_traits<char>::length(prefix), prefix) == 0; }

  void moveTo(size_t p) {
    line_ += (int)std::count(s_.begin() + pos_, s_.begin() + p, '\n');
    pos_ = p;
  }

  bool skipPast(const char* terminator) {
    const size_t end = s_.find(terminator, pos_);
    if (end == std::string::npos) return false;
    moveTo(end + std::char_traits<char>::length(terminator));
    return true;
  }

  /// A start or empty-element tag, with its attributes (quoted values may hold '>').
  bool startTag() {
    const size_t begin = pos_;
    const int line = line_;
    size_t p = pos_ + 1;
    while (p < s_.size() && nameChar(s_[p])) ++p;
    std::string name = s_.substr(pos_ + 1, p - pos_ - 1);
    while (p < s_.size() && s_[p] != '>') {
      if (s_[p] == '"' || s_[p] == '\'') {
        p = s_.find(s_[p], p + 1);
        if (p == std::string::npos) return false;
      }
      ++p;
    }
    if (p >= s_.size()) return false;
    moveTo(p + 1);
    if (s_[p - 1] == '/')
      lastEmpty_ = OpenElement{name, line, begin};
    else
      open_.push_back(OpenElement{name, line, begin});
    return true;
  }

  /// An end tag. TinyXML 1 accepts "</name", spaces, ">" for the innermost open
  /// element, skips end tags outside every element, and stops at any other.
  bool endTag(bool& stray) {
    const size_t gt = s_.find('>', pos_);
    if (open_.empty()) {
      if (gt == std::string::npos) return false;
      moveTo(gt + 1);
      stray = false;
      return true;
    }
    const std::string& name = open_.back().name;
    size_t p = pos_ + 2;
    stray = s_.compare(p, name.size(), name) != 0;
    if (!stray) {
      p += name.size();
      while (p < s_.size() && space(s_[p])) ++p;
      stray = p >= s_.size() || s_[p] != '>';
    }
    if (!stray) {
      open_.pop_back();
      moveTo(p + 1);
    }
    return true;
  }

  /// The mistake at pos_: a stray end tag there, or the end of the text.
  bool report(XmlNestingMistake& mistake, bool strayTag) {
    const OpenElement& inner = open_.back();
    std::string message;
    if (strayTag) {
      size_t end = s_.find_first_of(">\r\n", pos_);
      end = end == std::string::npos ? s_.size() : end + (s_[end] == '>');
      std::string tag = s_.substr(pos_, std::min<size_t>(end - pos_, 40));
      message = "<" + inner.name + "> (line " + std::to_string(inner.line) + ") is closed by " + tag;
    } else {
      message = "the text ends with";
      for (size_t k = 0; k < open_.size(); ++k)
        message += (k ? ", <" : " <") + open_[k].name + "> (line " + std::to_string(open_[k].line) + ")";
      message += " still open";
    }
    if (lastEmpty_.name == inner.name && lastEmpty_.offset > inner.offset)
      message += " (the <" + inner.name + "/> on line " + std::to_string(lastEmpty_.line) + " was probably meant as </" +
                 inner.name + ">)";
    mistake.line = line_;
    mistake.offset = pos_;
    mistake.description = message;
    mistake.closing.clear();
    for (auto it = open_.rbegin(); it != open_.rend(); ++it) mistake.closing += "</" + it->name + ">";
    return true;
  }

  const std::string& s_;
  size_t pos_ = 0;
  int line_ = 1;
  std::vector<OpenElement> open_;
  OpenElement lastEmpty_{"", 0, 0};
};

std::string tinyxmlError(const tinyxml2::XMLDocument& doc) {
  const char* s = doc.ErrorStr();
  return s ? s : "malformed XML";
}

}  // namespace

bool findXmlNestingMistake(const std::string& text, XmlNestingMistake& mistake) {
  return NestingScanner(text).run(mistake);
}

XmlParse parseXmlText(tinyxml2::XMLDocument& doc, const std::string& text, bool keepPartialTree) {
  XmlParse result;
  if (doc.Parse(text.c_str(), text.size()) == tinyxml2::XML_SUCCESS) {
    result.ok = true;
    return result;
  }
  result.line = doc.ErrorLineNum();
  result.error = tinyxmlError(doc);
  XmlNestingMistake mistake;
  if (!findXmlNestingMistake(text, mistake)) return result;
  const bool atEnd = mistake.offset >= text.size();
  // Parsed again into doc itself: copies of TinyXML-2 nodes lose their line numbers.
  const std::string partial = text.substr(0, mistake.offset) + mistake.closing;
  if (doc.Parse(partial.c_str(), partial.size()) != tinyxml2::XML_SUCCESS)
    return result;  // malformed before the mistake too: TinyXML-2's first error stands
  if (!keepPartialTree) {
    doc.Clear();
    result.line = mistake.line;
    result.error = mistake.description;
    return result;
  }
  result.ok = true;
  result.line = mistake.line;
  result.recovered = mistake.description + "; read as Klamp't reads it, up to " +
                     (atEnd ? "the end" : "this tag") + " with " + mistake.closing + " added there" +
                     (atEnd ? "" : ", ignoring the rest");
  return result;
}

void warnXmlNestingMistake(const std::string& text, const std::string& file, int firstLine, LoadContext& ctx) {
  XmlNestingMistake mistake;
  if (!findXmlNestingMistake(text, mistake)) return;
  ctx.warn(fileMessage(file, firstLine + mistake.line - 1,
                       mistake.description + "; it is read as Klamp't reads it, up to " +
                           (mistake.offset < text.size() ? "this tag" : "the end") + " with " + mistake.closing +
                           " added there"));
}

}  // namespace klampt
