#include "gatekit/utf8.hpp"

#include <cstdint>
#include <cstring>

#include "swar.hpp"

namespace gatekit {

namespace {

bool continuation(unsigned char b, unsigned char low = 0x80, unsigned char high = 0xBF) {
  return b >= low && b <= high;
}

// Eight bytes at a time (SWAR): a word's high bits, and the bytes outside 0x20..0x7E.
using swar::kHighs;
using swar::kOnes;

std::uint64_t word_at(const char* p) {
  std::uint64_t w = 0;
  std::memcpy(&w, p, sizeof(w));
  return w;
}

// High bit set in each byte that is below 0x20 or above 0x7E.
std::uint64_t unprintable(std::uint64_t w) {
  const std::uint64_t below = (w - kOnes * 0x20) & ~w;          // < 0x20 (or >= 0x80)
  const std::uint64_t above = (w + kOnes * (0x80 - 0x7F)) | w;  // > 0x7E (or >= 0x80)
  return (below | above) & kHighs;
}

}  // namespace

Utf8Char decode_utf8(std::string_view text, std::size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return {lead, 1, true};
  // The second byte's range depends on the lead byte (Unicode table 3-7); it is what rules
  // out overlong forms, surrogates and code points above U+10FFFF.
  std::size_t need = 0;
  unsigned char low = 0x80, high = 0xBF;
  char32_t cp = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    need = 1;
    cp = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    need = 2;
    cp = lead & 0x0Fu;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    need = 3;
    cp = lead & 0x07u;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return {0, 1, false};  // a stray continuation byte, C0, C1 or F5..FF
  }
  std::size_t length = 1;
  for (std::size_t k = 0; k < need; ++k) {
    if (pos + length >= text.size()) return {0, length, false};
    const auto b = static_cast<unsigned char>(text[pos + length]);
    if (!(k == 0 ? continuation(b, low, high) : continuation(b))) return {0, length, false};
    cp = (cp << 6) | (b & 0x3Fu);
    ++length;
  }
  return {cp, length, true};
}

bool is_ascii(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t seen = 0;
  for (; i + 8 <= text.size(); i += 8) seen |= word_at(text.data() + i);
  for (; i < text.size(); ++i) seen |= static_cast<unsigned char>(text[i]);
  return (seen & kHighs) == 0;
}

bool is_printable_ascii(std::string_view text) {
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8)
    if (unprintable(word_at(text.data() + i)) != 0) return false;
  for (; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x20 || b > 0x7E) return false;
  }
  return true;
}

bool is_valid_utf8(std::string_view text) {
  if (is_ascii(text)) return true;
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const auto c = decode_utf8(text, i);
    if (!c.valid) return false;
    i += c.length;
  }
  return true;
}

std::string to_valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    const auto c = decode_utf8(text, i);
    if (c.valid) out.append(text.substr(i, c.length));
    else out.append(kReplacementCharacter);
    i += c.length;
  }
  return out;
}

bool is_xml_char(char32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
         (cp >= 0x10000 && cp <= 0x10FFFF);
}

}  // namespace gatekit
