#include "gatekit/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>

#include "gatekit/clock.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: a swap of two neighbours ("naem") costs one edit, like a typo.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string_view> candidates) {
  // A typo is at most a third of the word away (and at least one edit is allowed).
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (auto candidate : candidates) {
    auto d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

std::string escape_markdown_cell(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else if (c != '\r') out += c;
  }
  return out;
}

namespace {

void append_hex(std::string& out, const char* prefix, unsigned value, int digits, bool upper = false) {
  const char* hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += hex[(value >> shift) & 0xF];
}

}  // namespace

std::string visible_controls(std::string_view text, bool keep_tabs) {
  if (is_printable_ascii(text)) return std::string(text);  // nothing to escape
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += keep_tabs ? "\t" : "\\t";
    else if (c < 0x20 || c == 0x7F) append_hex(out, "\\x", c, 2);
    else if (c == 0xC2 && next(1) >= 0x80 && next(1) <= 0x9F) {  // C1 controls, U+0085 NEL among them
      append_hex(out, "\\u", next(1), 4);
      i += 1;
    } else if (c == 0xE2 && next(1) == 0x80 && (next(2) == 0xA8 || next(2) == 0xA9)) {  // U+2028, U+2029
      append_hex(out, "\\u", 0x2000u + (next(2) - 0x80u), 4);
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  if (text.empty()) return {};
  const std::string body = visible_controls(text);
  // The fence is one backtick longer than the longest run inside, so no run can close it.
  std::size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  // CommonMark strips one space from each end when both ends are spaces, and a backtick next
  // to the fence would merge with it: pad with one space on each side, which is stripped.
  const bool all_spaces = body.find_first_not_of(' ') == std::string::npos;
  const bool pad = !all_spaces && (body.front() == '`' || body.back() == '`' || (body.front() == ' ' && body.back() == ' '));
  return pad ? fence + " " + body + " " + fence : fence + body + fence;
}

std::string markdown_text(std::string_view text, bool line_start) {
  const std::string shown = visible_controls(text);
  // At the start of a line these marks, or the `.` / `)` of `1.` / `1)`, can open a block
  // (heading, quote, list, rule, fence, HTML, table row, link definition): escape that one too.
  // Leading spaces do not stop a block mark (up to three still open one): look past them.
  const std::size_t first = std::min(shown.find_first_not_of(' '), shown.size());
  std::size_t digits = first;
  while (digits < shown.size() && std::isdigit(static_cast<unsigned char>(shown[digits]))) ++digits;
  std::size_t block_mark = shown.npos;
  if (line_start && digits > first && digits < shown.size() && (shown[digits] == '.' || shown[digits] == ')'))
    block_mark = digits;
  else if (line_start && first < shown.size() && std::string_view("#>-+*=_`~<|[$").find(shown[first]) != std::string_view::npos)
    block_mark = first;
  std::string out;
  out.reserve(shown.size());
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const char c = shown[i];
    if (i == block_mark || std::string_view("\\`*_[]<&~$").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_link(std::string_view text, std::string_view url) {
  const bool web = url.rfind("https://", 0) == 0 || url.rfind("http://", 0) == 0;
  if (!web) return markdown_text(text);
  std::string target;
  for (char ch : url) {
    const auto c = static_cast<unsigned char>(ch);
    // Unreserved and reserved URL characters pass; anything that could end or break the
    // `(destination)` (space, parentheses, <, >, backslash, quotes, controls, non-ASCII) is encoded.
    const bool plain = std::isalnum(c) || std::string_view("-._~:/?#@!$&*+,;=%").find(ch) != std::string_view::npos;
    if (plain) target += ch;
    else append_hex(target, "%", c, 2, true);
  }
  return "[" + markdown_text(text) + "](" + target + ")";
}

std::string html_text(std::string_view text) {
  std::string out;
  for (char c : visible_controls(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows) {
  std::string out = "|";
  for (const auto& h : header) out += " " + escape_markdown_cell(h) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < header.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (std::size_t i = 0; i < header.size(); ++i)
      out += " " + (i < row.size() ? escape_markdown_cell(row[i]) : std::string()) + " |";
    out += "\n";
  }
  return out;
}

std::string format_duration(std::chrono::milliseconds d) {
  const auto ms = d.count();
  char buffer[32];
  if (ms < 1000) {
    std::snprintf(buffer, sizeof buffer, "%lldms", static_cast<long long>(ms));
  } else if (ms < 60'000) {
    std::snprintf(buffer, sizeof buffer, "%.1fs", static_cast<double>(ms) / 1000.0);
  } else if (ms < 3'600'000) {
    std::snprintf(buffer, sizeof buffer, "%lldm %02llds", static_cast<long long>(ms / 60'000),
                  static_cast<long long>((ms / 1000) % 60));
  } else {
    std::snprintf(buffer, sizeof buffer, "%lldh %02lldm", static_cast<long long>(ms / 3'600'000),
                  static_cast<long long>((ms / 60'000) % 60));
  }
  return buffer;
}

std::string format_utc(std::int64_t epoch_seconds) {
  const auto t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::optional<std::int64_t> parse_utc(std::string_view v) {
  if (v.size() != 20 || v[4] != '-' || v[7] != '-' || v[10] != 'T' || v[13] != ':' || v[16] != ':' || v[19] != 'Z')
    return std::nullopt;
  bool ok = true;
  auto digits = [&](std::size_t from, std::size_t count) {
    int n = 0;
    for (std::size_t i = from; i < from + count; ++i) {
      if (v[i] < '0' || v[i] > '9') ok = false;
      n = n * 10 + (v[i] - '0');
    }
    return n;
  };
  const int year = digits(0, 4), month = digits(5, 2), day = digits(8, 2);
  const int hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2);
  if (!ok || year < 1970 || month < 1 || month > 12) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 59) return std::nullopt;
  return epoch_seconds_of(date) + hour * 3600 + minute * 60 + second;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    auto line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }
  return lines;
}

std::string trim(std::string_view text) {
  auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

bool has_control(std::string_view text) {
  for (unsigned char c : text)
    if (c < 0x20 || c == 0x7f) return true;
  return false;
}

}  // namespace gatekit
