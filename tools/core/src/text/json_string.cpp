// A string as Boost.JSON writes it, without building a json::value or running its serializer.
#include <bit>
#include <cstdint>
#include <cstring>

#include "gatekit/text.hpp"
#include "swar.hpp"

namespace gatekit {

namespace {

using swar::kHighs;
using swar::kOnes;

// A byte Boost.JSON's serializer escapes: below 0x20, '"' or '\\'.
bool escaped(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

// The bytes of `word` that may be escaped, as their 0x80 bits: `(x - 0x01...01) & ~x & 0x80...80`
// marks the zero bytes of x (and `(w - 0x20...20) & ~w & 0x80...80` the bytes of w below 0x20),
// exactly up to the first one: a borrow only runs upward from a marked byte. So the lowest
// mark, on a little-endian load, is the first byte to escape, and a word without one is
// passed whole.
std::uint64_t escape_marks(std::uint64_t word) {
  auto zeros = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  return ((word - kOnes * 0x20) & ~word & kHighs) | zeros(word ^ (kOnes * '"')) | zeros(word ^ (kOnes * '\\'));
}

// The first byte at or after `from` to escape, or text.size(); eight bytes a step.
std::size_t next_escaped(std::string_view text, std::size_t from) {
  if constexpr (std::endian::native == std::endian::little) {
    for (; from + 8 <= text.size(); from += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, text.data() + from, sizeof word);
      if (const auto marks = escape_marks(word)) return from + static_cast<std::size_t>(std::countr_zero(marks)) / 8;
    }
  }
  while (from < text.size() && !escaped(static_cast<unsigned char>(text[from]))) ++from;
  return from;
}

// The serializer's escape of `c` (its table): \" \\ \b \t \n \f \r, and \u00xx (lower-case
// hex) for the other bytes below 0x20.
void append_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  static constexpr std::string_view kShort("\"\\\b\t\n\f\r");
  static constexpr std::string_view kLetters("\"\\btnfr");
  if (const auto k = kShort.find(static_cast<char>(c)); k != std::string_view::npos) {
    const char escape[2] = {'\\', kLetters[k]};
    out.append(escape, 2);
    return;
  }
  const char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
  out.append(escape, 6);
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out.reserve(out.size() + text.size() + text.size() / 8 + 2);  // room for some escapes
  out += '"';
  std::size_t run = 0;  // the start of the bytes not written yet
  for (auto i = next_escaped(text, 0); i < text.size(); i = next_escaped(text, i + 1)) {
    out.append(text.substr(run, i - run));
    append_escape(out, static_cast<unsigned char>(text[i]));
    run = i + 1;
  }
  out.append(text.substr(run));
  out += '"';
}

}  // namespace gatekit
