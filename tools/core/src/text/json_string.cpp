// A string as Boost.JSON writes it, without building a json::value when nothing needs escaping.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit {

namespace {

// Printable ASCII holding no '"' and no '\\' (nearly every name), eight bytes at a time: a word
// holds byte `b` when `w ^ b...b` has a zero byte, which `(x - 0x01...01) & ~x & 0x80...80`
// detects exactly.
bool plain_ascii(std::string_view text) {
  if (!is_printable_ascii(text)) return false;
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  auto holds = [](std::uint64_t word, unsigned char byte) {
    const std::uint64_t x = word ^ (kOnes * byte);
    return ((x - kOnes) & ~x & kHighs) != 0;
  };
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, sizeof word);
    if (holds(word, '"') || holds(word, '\\')) return false;
  }
  return std::none_of(text.begin() + static_cast<std::ptrdiff_t>(i), text.end(),
                      [](char c) { return c == '"' || c == '\\'; });
}

// Any text with nothing Boost.JSON escapes: no byte below 0x20, no '"', no '\\'.
bool plain(std::string_view text) {
  return plain_ascii(text) || std::all_of(text.begin(), text.end(), [](char c) {
           return static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\';
         });
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  if (!plain(text)) {
    out += boost::json::serialize(boost::json::string_view(text.data(), text.size()));
    return;
  }
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  out.append(text);
  out += '"';
}

}  // namespace gatekit
