#pragma once
// UTF-8 repair for text that came from outside (a child's output, a device name from a GPU
// runtime, a file name) on its way into a document that must stay valid whatever bytes it
// carries: JSON reports, JUnit XML, job summaries. Every writer of such a document runs its
// text through here rather than trusting the bytes.
#include <cstddef>
#include <string>
#include <string_view>

namespace gatekit {

// The Unicode replacement character U+FFFD, UTF-8 encoded.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

struct Utf8Char {
  char32_t code_point = 0;
  // Bytes taken from the text: the whole sequence when valid; when not, the maximal
  // subpart (Unicode 15, section 3.9) that one U+FFFD replaces, at least 1.
  std::size_t length = 0;
  bool valid = false;
};

// Decodes the character starting at `pos` (< text.size()). Well-formed UTF-8 only: overlong
// forms, surrogates (U+D800..U+DFFF, the CESU-8 encoding of a lone surrogate), code points
// above U+10FFFF and truncated sequences are invalid. An invalid sequence never takes an
// ASCII byte, so repairing a serialized JSON or XML document cannot change its structure.
Utf8Char decode_utf8(std::string_view text, std::size_t pos);

bool is_valid_utf8(std::string_view text);

// Fast paths for the common case of plain text (paths, test names): one scan, no branch per
// byte. Every byte below 0x80 (valid UTF-8 as it is) / every byte a printable ASCII
// character, U+0020..U+007E (nothing a helper that escapes or repairs text would change).
bool is_ascii(std::string_view text);
bool is_printable_ascii(std::string_view text);

// `text` with each invalid sequence replaced by one U+FFFD (as Python's
// `decode("utf-8", "replace")` does); valid text comes back unchanged.
std::string to_valid_utf8(std::string_view text);

// Whether XML 1.0 can carry the character at all (section 2.2, Char): tab, LF, CR,
// U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF.
bool is_xml_char(char32_t code_point);

}  // namespace gatekit
