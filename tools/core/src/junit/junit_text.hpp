#pragma once
// Pieces of the JUnit reader that do not touch expat: the byte sanitiser in front of the
// parser and the bounded text excerpts behind it. Private to the core.
#include <cstddef>
#include <string>
#include <string_view>

namespace gatekit::junit::detail {

// Turns any byte stream into UTF-8 that XML 1.0 accepts: invalid sequences and the control
// characters XML forbids (all of C0 but tab, LF and CR; U+FFFE, U+FFFF) become U+FFFD. A
// sequence cut by a chunk boundary is held back until the next chunk (or `finish`).
class Utf8Sanitizer {
 public:
  void feed(std::string_view in, std::string& out);
  void finish(std::string& out);
  std::size_t replaced() const { return replaced_; }
  // Whether `feed(in, out)` would append `in` unchanged: nothing held back from the previous
  // chunk, and only printable ASCII, tab, LF and CR in it. Checked 64 bytes at a time.
  bool passes_unchanged(std::string_view in) const;

 private:
  std::string pending_;  // an incomplete multi-byte sequence from the previous chunk (< 4 bytes)
  std::size_t replaced_ = 0;
};

// Keeps the first and the last `limit / 2` bytes of everything appended, cut at UTF-8
// character boundaries, and counts what was left out.
class Excerpt {
 public:
  explicit Excerpt(std::size_t limit = 4096) : limit_(limit) {}
  void append(std::string_view text);
  bool empty() const { return total_ == 0; }
  // head, then "\n[... N bytes left out ...]\n", then tail; or everything when it fit.
  std::string str() const;
  void str_into(std::string& out) const;  // str(), into `out`'s storage
  void clear();

 private:
  std::size_t limit_;
  std::size_t total_ = 0;
  std::string head_;
  char after_head_ = 0;  // the first byte that did not fit the head
  std::string tail_;  // the most recent bytes, trimmed lazily to limit / 2
};

// `text` cut to at most `limit` bytes at a UTF-8 boundary, with " [... N bytes left out]".
std::string bounded(std::string_view text, std::size_t limit);

// Seconds from a `time` attribute: "1.5", "1,234.5" (Surefire under some locales), "" -> 0.
double parse_seconds(std::string_view text);

}  // namespace gatekit::junit::detail
