#pragma once
// The property both the libFuzzer target (fuzz/git_refs.cpp) and the deterministic CTest
// (tests/core/test_git_refs_fuzz.cpp) check for the core's git syntax helpers, which stand
// between outside text (revisions from event payloads and inputs, paths in git's output) and
// the git command line:
// - check_revision accepts nothing git could read as an option or that breaks the ref-name
//   rules of `git check-ref-format` (checked here by an independent model of those rules),
//   and names the value, quoted without control characters, when it refuses;
// - unquote_c_style inverts git's C-style quoting of any byte string;
// - parse_name_status_z returns non-empty paths that survive a round trip through the same
//   `-z` form.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/git.hpp"

namespace gatekit::fuzzing {

// What `git check-ref-format --allow-onelevel` forbids in a ref name (the part before any
// ~N / ^N suffix), written from git-check-ref-format(1), not from gatekit's code.
inline bool git_forbids_ref_name(std::string_view name) {
  if (name.empty() || name.front() == '-' || name.back() == '.' || name == "@") return true;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' ||
        c == '[' || c == '\\')
      return true;
    const std::string_view pair = name.substr(i, 2);
    if (pair == ".." || pair == "@{") return true;
  }
  // Slash-separated components: none empty, none starting with '.', none ending in ".lock".
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto end = std::min(name.find('/', start), name.size());
    const auto component = name.substr(start, end - start);
    if (component.empty() || component.front() == '.') return true;
    if (component.size() >= 5 && component.substr(component.size() - 5) == ".lock") return true;
    start = end + 1;
  }
  return false;
}

// git's C-style quoting (core.quotePath=true): every byte outside printable ASCII as \NNN.
inline std::string quote_c_style(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f) {
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

inline bool has_control(std::string_view text) {
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

inline std::string revision_violation(std::string_view rev) {
  const auto checked = check_revision(rev);
  if (!checked) {
    const auto& message = checked.error().message;
    if (message.empty()) return "a refusal without a message";
    if (has_control(message)) return "a refusal message with a control character: " + message;
    if (!rev.empty() && message.find(quote_for_message(rev)) == std::string::npos)
      return "a refusal that does not name the value: " + message;
    return "";
  }
  if (rev.empty() || rev.front() == '-') return "accepted a revision git reads as an option or nothing";
  const auto name = rev.substr(0, rev.find_first_of("~^"));
  if (git_forbids_ref_name(name)) return "accepted a ref name git-check-ref-format forbids: " + quote_for_message(rev);
  return "";
}

inline std::string name_status_violation(std::string_view text) {
  const auto parsed = parse_name_status_z(text);
  if (!parsed) return parsed.error().message.empty() ? "a refusal without a message" : "";
  std::string again_text;
  for (const auto& change : *parsed) {
    if (change.path.empty()) return "an empty path";
    again_text += std::string(1, change.status) + '\0';
    if (change.status == 'R' || change.status == 'C') {
      if (change.previous_path.empty()) return "an empty previous path";
      again_text += change.previous_path + '\0';
    }
    again_text += change.path + '\0';
  }
  const auto again = parse_name_status_z(again_text);
  if (!again) return "round trip rejected: " + again.error().message;
  if (again->size() != parsed->size()) return "round trip changed the number of changes";
  for (std::size_t i = 0; i < parsed->size(); ++i) {
    const auto& a = (*parsed)[i];
    const auto& b = (*again)[i];
    if (a.status != b.status || a.path != b.path || a.previous_path != b.previous_path)
      return "round trip changed change " + std::to_string(i);
  }
  return "";
}

// "" when the property holds, else what broke. The whole input is tried in each role.
inline std::string git_refs_property_violation(std::string_view input) {
  if (auto v = revision_violation(input); !v.empty()) return v;
  const auto quoted = quote_c_style(input);
  const auto unquoted = unquote_c_style(quoted);
  if (!unquoted) return "refused git's own quoting: " + unquoted.error().message;
  if (*unquoted != input) return "quoting round trip changed the text";
  if (const auto raw = unquote_c_style(input); !raw && raw.error().message.empty())
    return "a quoting error without a message";
  if (has_control(quote_for_message(input))) return "quote_for_message kept a control character";
  return name_status_violation(input);
}

}  // namespace gatekit::fuzzing
