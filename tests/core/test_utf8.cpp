// UTF-8 repair (utf8.hpp): what every JSON and XML writer relies on to stay valid whatever
// bytes a child printed. The expectations are Python's bytes.decode("utf-8", "replace").
#include <string>

#include "catch.hpp"
#include "gatekit/utf8.hpp"

using namespace gatekit;

namespace {
const std::string R(kReplacementCharacter);
}

TEST_CASE("invalid UTF-8 becomes U+FFFD, one per maximal subpart, as Python decodes it") {
  struct Row {
    std::string in, out;
  };
  const Row rows[] = {
      {"plain ascii", "plain ascii"},
      {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},  // 2, 3, 4 bytes
      {"\xFF\xFE", R + R},                             // never valid bytes
      {"a\x80" "b", "a" + R + "b"},                    // a stray continuation byte
      {"\xC0\xAF", R + R},                             // overlong '/'
      {"\xE0\x80\xAF", R + R + R},                     // overlong, 3 bytes
      {"\xED\xA0\x80", R + R + R},                     // a lone surrogate (U+D800, CESU-8)
      {"\xF4\x90\x80\x80", R + R + R + R},             // above U+10FFFF
      {"\xE2\x82", R},                                 // truncated at the end: one subpart
      {"\xE2\x82" "x", R + "x"},                       // truncated before ASCII, which is kept
      {"\xF0\x9F\x98", R},
      {"\xE2\x82\xE2\x82\xAC", R + "\xE2\x82\xAC"},   // a new lead byte ends the subpart
      {std::string("nul\0byte", 8), std::string("nul\0byte", 8)},  // NUL is valid UTF-8
      {"\xEF\xBF\xBE\xEF\xBF\xBF", "\xEF\xBF\xBE\xEF\xBF\xBF"},   // noncharacters are valid UTF-8
  };
  for (const auto& row : rows) {
    INFO(row.in);
    CHECK(to_valid_utf8(row.in) == row.out);
    CHECK(is_valid_utf8(row.out));
    CHECK(is_valid_utf8(row.in) == (row.in == row.out));
  }
}

TEST_CASE("a repair never takes an ASCII byte, so a serialized document keeps its structure") {
  // Every lead byte followed by each ASCII structure character: the character survives.
  for (int lead = 0x80; lead <= 0xFF; ++lead) {
    for (char structural : std::string("\"\\]<>&,:}")) {
      std::string text{static_cast<char>(lead), structural};
      const std::string repaired = to_valid_utf8(text);
      INFO(lead);
      CHECK(repaired == R + structural);
    }
  }
}

TEST_CASE("decoding gives the code point and the length") {
  const std::string text = "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  auto a = decode_utf8(text, 0);
  CHECK((a.valid && a.code_point == U'A' && a.length == 1));
  auto e = decode_utf8(text, 1);
  CHECK((e.valid && e.code_point == 0xE9 && e.length == 2));
  auto euro = decode_utf8(text, 3);
  CHECK((euro.valid && euro.code_point == 0x20AC && euro.length == 3));
  auto smile = decode_utf8(text, 6);
  CHECK((smile.valid && smile.code_point == 0x1F600 && smile.length == 4));
  auto bad = decode_utf8("\xED\xA0\x80", 0);
  CHECK_FALSE(bad.valid);
  CHECK(bad.length == 1);
}

TEST_CASE("the characters XML 1.0 can carry") {
  CHECK(is_xml_char(U'\t'));
  CHECK(is_xml_char(U'\n'));
  CHECK(is_xml_char(U'\r'));
  CHECK(is_xml_char(U' '));
  CHECK(is_xml_char(0x7F));
  CHECK(is_xml_char(0xFFFD));
  CHECK(is_xml_char(0x10FFFF));
  CHECK_FALSE(is_xml_char(0));
  CHECK_FALSE(is_xml_char(0x1B));
  CHECK_FALSE(is_xml_char(0xD800));
  CHECK_FALSE(is_xml_char(0xFFFE));
  CHECK_FALSE(is_xml_char(0xFFFF));
  CHECK_FALSE(is_xml_char(0x110000));
}

TEST_CASE("the plain-text fast paths agree with a byte-by-byte check, whatever byte sits at whatever place") {
  // The scans take eight bytes at a time, then the tail: every byte value at every place of
  // texts from 1 to 19 bytes (two words and a tail), in printable ASCII otherwise.
  for (std::size_t length = 1; length <= 19; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (int byte = 0; byte <= 0xFF; ++byte) {
        std::string text(length, 'a');
        text[at] = static_cast<char>(byte);
        const bool printable = byte >= 0x20 && byte <= 0x7E;
        INFO("length " << length << ", byte " << byte << " at " << at);
        REQUIRE(is_ascii(text) == (byte < 0x80));
        REQUIRE(is_printable_ascii(text) == printable);
        REQUIRE(is_valid_utf8(text) == (byte < 0x80));  // a lone byte above 0x7F is never valid
        REQUIRE(to_valid_utf8(text) == (byte < 0x80 ? text : text.substr(0, at) + R + text.substr(at + 1)));
      }
    }
  }
  CHECK(is_ascii(""));
  CHECK(is_printable_ascii(""));
  // Valid multi-byte text after a run of ASCII still goes through the decoder.
  CHECK(is_valid_utf8("plain ascii, then caf\xC3\xA9"));
  CHECK_FALSE(is_valid_utf8("plain ascii, then \xED\xA0\x80"));
}
