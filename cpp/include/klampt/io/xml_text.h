// XML text parsed as Klamp't 0.9.2 parses it. Its parser (TinyXML 1) keeps the
// tree it has built when an end tag does not close the innermost open element,
// or when elements are left open at the end, and stops there; Klamp't's URDF
// and sensor readers go on with that partial tree. This reproduces it on top of
// TinyXML-2, which rejects such text.
#pragma once
#include <string>
#include "klampt/io/load_error.h"

namespace tinyxml2 {
class XMLDocument;
}

namespace klampt {

/// The first nesting mistake of an XML text, where TinyXML 1 stops reading.
struct XmlNestingMistake {
  int line = 0;             ///< the stray end tag's line, or the last line for unclosed elements
  size_t offset = 0;        ///< where the text is cut: the stray end tag, or the end of the text
  std::string description;  ///< e.g. "<klampt> (line 240) is closed by </robot>"
  std::string closing;      ///< the end tags that close the elements still open there
};

/// Finds the first end tag that does not close the innermost open element, or
/// elements still open at the end of the text. False when the nesting is right,
/// or when the text is malformed before that in another way (an unterminated
/// comment, tag or quoted value) and nesting cannot be told.
bool findXmlNestingMistake(const std::string& text, XmlNestingMistake& mistake);

/// The outcome of parseXmlText.
struct XmlParse {
  bool ok = false;
  int line = 0;           ///< the line of the error, or of the mistake read past
  std::string error;      ///< why the text was refused (ok false)
  std::string recovered;  ///< what was read past, for a warning (ok true, text not well formed)
};

/// Parses `text` into `doc`. A nesting mistake is refused with a message that
/// names it, unless `keepPartialTree`: then the text is read as TinyXML 1 reads
/// it (everything before the mistake, with the elements still open closed
/// there) and `recovered` says so. Other malformed text is refused with
/// TinyXML-2's message.
XmlParse parseXmlText(tinyxml2::XMLDocument& doc, const std::string& text, bool keepPartialTree);

/// Warns through ctx, naming `file` and the line (the text's first line being
/// `firstLine` there), when `text` has a nesting mistake: a sensors or
/// controller declaration that is read up to that mistake when it is used.
void warnXmlNestingMistake(const std::string& text, const std::string& file, int firstLine, LoadContext& ctx);

}  // namespace klampt
