#include "junit_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "gatekit/utf8.hpp"

namespace gatekit::junit::detail {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Expected length of the sequence a lead byte starts, 0 for a byte that cannot lead.
std::size_t sequence_length(unsigned char c) {
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) return 3;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  return 0;
}

// Whether the sequence at `s[i]` of sequence_length(s[i]) == n bytes is one whole, well-formed
// character that XML allows (the core's UTF-8 decoder judges it).
bool valid_sequence(std::string_view s, std::size_t i, std::size_t n) {
  const Utf8Char ch = decode_utf8(s, i);
  return ch.valid && ch.length == n && is_xml_char(ch.code_point);
}

// Sanitises `s` into `out`. Unless `final`, an incomplete sequence at the end is not
// consumed: the return value is how many bytes were.
std::size_t sanitize(std::string_view s, bool final, std::string& out, std::size_t& replaced) {
  std::size_t run = 0;
  std::size_t i = 0;
  auto replace = [&](std::size_t at) {
    out.append(s.substr(run, at - run));
    out += kReplacement;
    ++replaced;
    run = at + 1;
  };
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80) { ++i; continue; }
    if (c == '\t' || c == '\n' || c == '\r') { ++i; continue; }
    const std::size_t n = sequence_length(c);
    if (n == 0) { replace(i++); continue; }
    if (i + n > s.size()) {
      bool prefix_ok = true;
      for (std::size_t k = i + 1; k < s.size(); ++k) prefix_ok = prefix_ok && is_continuation(static_cast<unsigned char>(s[k]));
      if (!final && prefix_ok) {
        out.append(s.substr(run, i - run));
        return i;
      }
      replace(i++);
      continue;
    }
    if (!valid_sequence(s, i, n)) { replace(i++); continue; }
    i += n;
  }
  out.append(s.substr(run));
  return s.size();
}

std::size_t head_boundary(std::string_view s, std::size_t limit) {
  if (limit >= s.size()) return s.size();
  std::size_t k = limit;
  while (k > 0 && is_continuation(static_cast<unsigned char>(s[k]))) --k;
  return k;
}

std::size_t tail_boundary(std::string_view s, std::size_t keep) {
  if (keep >= s.size()) return 0;
  std::size_t k = s.size() - keep;
  while (k < s.size() && is_continuation(static_cast<unsigned char>(s[k]))) ++k;
  return k;
}

constexpr std::size_t kBlock = 64;

// Whether `feed` keeps each of the n bytes as it is: printable ASCII, tab, LF or CR (neither
// is_ascii nor is_printable_ascii of gatekit/utf8.hpp: one lets every control byte through,
// the other refuses tab, LF, CR and DEL). No branch inside, so the compiler makes vector code
// of it; the caller hands it blocks of kBlock bytes, a trip count it can unroll, and returns
// at the first block with another byte.
bool passes_as_is(const unsigned char* p, std::size_t n) {
  unsigned char other = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const unsigned char c = p[k];
    other |= static_cast<unsigned char>((c >= 0x80) | ((c < 0x20) & (c != '\t') & (c != '\n') & (c != '\r')));
  }
  return other == 0;
}

}  // namespace

void Utf8Sanitizer::feed(std::string_view in, std::string& out) {
  if (!pending_.empty()) {
    const std::size_t need = sequence_length(static_cast<unsigned char>(pending_[0]));
    std::size_t taken = 0;
    while (pending_.size() < need && taken < in.size() && is_continuation(static_cast<unsigned char>(in[taken])))
      pending_ += in[taken++];
    if (pending_.size() < need && taken == in.size()) return;  // still incomplete: wait for more
    sanitize(pending_, true, out, replaced_);
    pending_.clear();
    in.remove_prefix(taken);
  }
  const std::size_t used = sanitize(in, false, out, replaced_);
  pending_.assign(in.substr(used));
}

bool Utf8Sanitizer::passes_unchanged(std::string_view in) const {
  if (!pending_.empty()) return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t i = 0;
  for (; i + kBlock <= in.size(); i += kBlock)
    if (!passes_as_is(bytes + i, kBlock)) return false;
  return passes_as_is(bytes + i, in.size() - i);
}

void Utf8Sanitizer::finish(std::string& out) {
  if (!pending_.empty()) sanitize(pending_, true, out, replaced_);
  pending_.clear();
}

void Excerpt::append(std::string_view text) {
  total_ += text.size();
  const std::size_t half = limit_ / 2;
  if (head_.size() < half) {
    const std::size_t take = std::min(half - head_.size(), text.size());
    head_.append(text.substr(0, take));
    text.remove_prefix(take);
    if (!text.empty()) after_head_ = text.front();
  }
  if (text.empty()) return;
  tail_.append(text);
  // Trimmed at a character boundary, so the tail never starts inside a character.
  if (tail_.size() > 2 * half + 64) tail_.erase(0, tail_boundary(tail_, half));
}

std::string Excerpt::str() const {
  if (total_ <= limit_ && head_.size() + tail_.size() == total_) return head_ + tail_;
  const std::size_t half = limit_ / 2;
  // The head ends inside a character when the byte after it continues one.
  std::size_t head_size = std::min(head_.size(), half);
  while (head_size > 0 && is_continuation(static_cast<unsigned char>(
                              head_size < head_.size() ? head_[head_size] : after_head_)))
    --head_size;
  const std::string_view head(head_.data(), head_size);
  const std::string_view tail = std::string_view(tail_).substr(tail_boundary(tail_, half));
  const std::size_t left_out = total_ - head.size() - tail.size();
  return std::string(head) + "\n[... " + std::to_string(left_out) + " bytes left out ...]\n" + std::string(tail);
}

void Excerpt::str_into(std::string& out) const {
  if (total_ == 0) {
    out.clear();  // most cases have no output
    return;
  }
  if (total_ <= limit_ && head_.size() + tail_.size() == total_) {
    out.assign(head_).append(tail_);
    return;
  }
  out = str();
}

void Excerpt::clear() {
  total_ = 0;
  after_head_ = 0;
  head_.clear();
  tail_.clear();
}

std::string bounded(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  const std::size_t cut = head_boundary(text, limit);
  return std::string(text.substr(0, cut)) + " [... " + std::to_string(text.size() - cut) + " bytes left out]";
}

// "123.456": at most 15 digits and no exponent, the form every runner writes. Both the digits
// and the power of ten are exact doubles, so one division rounds exactly as strtod does.
std::optional<double> plain_decimal(std::string_view text) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  std::uint64_t mantissa = 0;
  std::size_t digits = 0, fraction = 0;
  bool point = false;
  for (char c : text) {
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9' || ++digits > 15) return std::nullopt;
    mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
    fraction += point;
  }
  if (digits == 0) return std::nullopt;
  return static_cast<double>(mantissa) / kPow10[fraction];
}

double parse_seconds(std::string_view text) {
  if (const auto fast = plain_decimal(text)) return *fast;
  std::string digits;  // only when there is something to drop
  if (text.find_first_of(", ") != std::string_view::npos) {
    for (char c : text)
      if (c != ',' && c != ' ') digits += c;
    text = digits;
  }
  // The other forms ("1.5e3", longer digits): strtod, as libc++ (macOS's included) has no
  // floating-point std::from_chars before LLVM 20. Only a decimal number is read, as from_chars
  // reads one: strtod's leading blanks, '+', "inf", "nan" and hex digits are refused up front.
  // The tools never set a locale, so the decimal point is '.'.
  if (text.empty() || !((text[0] >= '0' && text[0] <= '9') || text[0] == '.' || text[0] == '-') ||
      text.find_first_of("xX") != std::string_view::npos)
    return 0;
  const std::string terminated(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(terminated.c_str(), &end);
  if (errno == ERANGE || end != terminated.c_str() + terminated.size() || !std::isfinite(value) || value < 0) return 0;
  return value;
}

}  // namespace gatekit::junit::detail
