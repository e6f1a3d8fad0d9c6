#include "gatekit/flaky_issue.hpp"

#include <cctype>

#include "gatekit/json.hpp"
#include "gatekit/sha256.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit::flaky_issue {

namespace {

constexpr std::string_view kMarker = "<!-- gatekit-flaky-test: ";
constexpr std::string_view kState = "<!-- gatekit-flaky-state: ";
constexpr std::string_view kEnd = " -->";

// Percent-encodes what could end or confuse the HTML comment: % - < > ! and controls.
std::string encode(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (c == '%' || c == '-' || c == '<' || c == '>' || c == '!' || c < 0x20 || c == 0x7f) {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::optional<std::string> decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(text[i + 2])))
      return std::nullopt;
    out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
    i += 2;
  }
  return out;
}

// The n-th line (0-based) of the body, when it has the given prefix and the comment's end.
std::optional<std::string_view> hidden_line(std::string_view body, int n, std::string_view prefix) {
  for (int i = 0; i < n; ++i) {
    const auto nl = body.find('\n');
    if (nl == std::string_view::npos) return std::nullopt;
    body.remove_prefix(nl + 1);
  }
  std::string_view line = body.substr(0, body.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!line.starts_with(prefix) || !line.ends_with(kEnd) || line.size() < prefix.size() + kEnd.size())
    return std::nullopt;
  return line.substr(prefix.size(), line.size() - prefix.size() - kEnd.size());
}

int int_at(const boost::json::object& o, std::string_view key) {
  const auto v = json_int_at(o, key);
  return v && *v >= 0 && *v < 1'000'000'000 ? static_cast<int>(*v) : 0;
}

}  // namespace

std::string issue_key(std::string_view test_id) {
  if (test_id.size() <= kMaxMarkerIdBytes) return std::string(test_id);
  std::size_t end = 0;
  while (end < test_id.size()) {
    const Utf8Char c = decode_utf8(test_id, end);
    if (end + c.length > kMaxMarkerIdBytes) break;
    end += c.length;
  }
  return std::string(test_id.substr(0, end)) + " [sha256 of the whole id: " + sha256_hex(test_id) + "]";
}

std::string marker_line(std::string_view test_id) { return std::string(kMarker) + encode(test_id) + std::string(kEnd); }

std::string state_line(const IssueState& s) {
  boost::json::array keys, scopes;
  for (const auto& k : s.applied) keys.emplace_back(k);
  for (const auto& k : s.scopes) scopes.emplace_back(k);
  const boost::json::object o{{"v", 1},
                              {"greens", s.greens},
                              {"absences", s.absences},
                              {"flakes", s.flakes},
                              {"first_seen", s.first_seen},
                              {"last_flake", s.last_flake},
                              {"last_run", s.last_run},
                              {"applied", keys},
                              {"scopes", scopes}};
  // JSON's own \u escapes keep `--`, `<`, `>` out of the comment (numbers are never negative).
  std::string json;
  for (char c : boost::json::serialize(o)) {
    if (c == '-') json += "\\u002d";
    else if (c == '<') json += "\\u003c";
    else if (c == '>') json += "\\u003e";
    else json += c;
  }
  return std::string(kState) + json + std::string(kEnd);
}

std::optional<std::string> marker_id(std::string_view body) {
  auto encoded = hidden_line(body, 0, kMarker);
  if (!encoded) return std::nullopt;
  return decode(*encoded);
}

Result<IssueState> parse_state(std::string_view body) {
  auto text = hidden_line(body, 1, kState);
  if (!text) return could_not_evaluate("no gatekit state line under the marker");
  if (text->size() > kMaxStateBytes) return could_not_evaluate("the state line is longer than 8192 bytes");
  boost::system::error_code ec;
  auto value = boost::json::parse(*text, ec);
  if (ec || !value.is_object()) return could_not_evaluate("the state line is not a JSON object");
  const auto& o = value.get_object();
  IssueState s;
  s.greens = int_at(o, "greens");
  s.absences = int_at(o, "absences");
  s.flakes = int_at(o, "flakes");
  s.first_seen = json_string_at(o, "first_seen").value_or("");
  s.last_flake = json_string_at(o, "last_flake").value_or("");
  s.last_run = json_string_at(o, "last_run").value_or("");
  if (const auto* keys = json_find(o, "applied"); keys && keys->is_array())
    for (const auto& k : keys->get_array())
      if (k.is_string() && s.applied.size() < kMaxApplied) s.applied.emplace_back(k.get_string());
  if (const auto* scopes = json_find(o, "scopes"); scopes && scopes->is_array())
    for (const auto& k : scopes->get_array())
      if (k.is_string() && s.scopes.size() < kMaxScopes) s.scopes.emplace_back(k.get_string());
  return s;
}

AppliedRun applied_run(std::string_view entry) {
  AppliedRun out;
  if (!entry.empty() && entry.back() == '!') {
    out.flake = true;
    entry.remove_suffix(1);
  }
  const auto dot = entry.find('.');
  if (dot == 0 || dot == std::string_view::npos || dot > 18 || dot + 1 == entry.size()) return out;
  const auto digits = [](std::string_view s) {
    for (char c : s)
      if (c < '0' || c > '9') return false;
    return true;
  };
  if (!digits(entry.substr(0, dot)) || !digits(entry.substr(dot + 1))) return out;
  out.run_id = std::stoll(std::string(entry.substr(0, dot)));
  return out;
}

}  // namespace gatekit::flaky_issue
