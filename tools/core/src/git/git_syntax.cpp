// The pure side of the git wrapper: which values may reach git as arguments, git's C-style
// path quoting, and `--name-status -z` output.
#include <algorithm>
#include <array>
#include <cstdio>

#include "gatekit/git.hpp"

namespace gatekit {
namespace {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

// `git check-ref-format --allow-onelevel`'s rules; returns what is wrong, or "".
std::string ref_name_problem(std::string_view name) {
  if (name.empty()) return "the name before ~ or ^ is empty";
  if (name == "@") return "'@' alone is not a ref name";
  for (char c : name) {
    switch (c) {
      case ' ': return "it contains a space";
      case ':': return "it contains ':'";
      case '\\': return "it contains '\\'";
      case '?':
      case '*':
      case '[': return std::string("it contains '") + c + "'";
      default: break;
    }
  }
  if (name.find("..") != std::string_view::npos) return "it contains '..' (ranges are not accepted)";
  if (name.find("@{") != std::string_view::npos) return "it contains '@{'";
  if (name.back() == '.') return "it ends with '.'";
  std::size_t start = 0;
  while (start <= name.size()) {
    auto end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    const auto component = name.substr(start, end - start);
    if (component.empty()) return "it has an empty '/'-separated component";
    if (component.front() == '.') return "a '/'-separated component starts with '.'";
    if (component.size() >= 5 && component.substr(component.size() - 5) == ".lock")
      return "a '/'-separated component ends with '.lock'";
    start = end + 1;
  }
  return "";
}

// `~N`, `^N` and `^{type}` suffixes; returns what is wrong, or "".
std::string suffix_problem(std::string_view suffix) {
  std::size_t i = 0;
  while (i < suffix.size()) {
    const char op = suffix[i++];
    if (op != '~' && op != '^') return "unexpected text after ~ or ^";
    if (op == '^' && i < suffix.size() && suffix[i] == '{') {
      const auto close = suffix.find('}', i);
      if (close == std::string_view::npos) return "'^{' is not closed";
      const auto type = suffix.substr(i + 1, close - i - 1);
      static constexpr std::array<std::string_view, 6> kTypes{"", "commit", "tree", "blob", "tag", "object"};
      bool known = false;
      for (auto t : kTypes) known = known || t == type;
      if (!known) return "'^{" + std::string(type) + "}' is not ^{commit}, ^{tree}, ^{blob}, ^{tag} or ^{object}";
      i = close + 1;
      continue;
    }
    while (i < suffix.size() && suffix[i] >= '0' && suffix[i] <= '9') ++i;
  }
  return "";
}

}  // namespace

std::string quote_for_message(std::string_view value, std::size_t limit) {
  std::string out = "'";
  std::size_t used = 0;
  for (char c : value) {
    if (used++ == limit) {
      out += "...";
      break;
    }
    if (is_control(c)) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "'";
}

Status check_revision(std::string_view rev) {
  if (rev.empty()) return could_not_evaluate("the revision is empty");
  const auto shown = quote_for_message(rev);
  if (rev.front() == '-') return could_not_evaluate("revision " + shown + " starts with '-': git would read it as an option");
  for (char c : rev)
    if (is_control(c)) return could_not_evaluate("revision " + shown + " contains a control character");
  const auto split = rev.find_first_of("~^");
  auto problem = ref_name_problem(rev.substr(0, split));
  if (problem.empty() && split != std::string_view::npos) problem = suffix_problem(rev.substr(split));
  if (problem.empty()) return {};
  return could_not_evaluate("revision " + shown +
                    " is not a commit SHA or ref name (such as main, origin/main or v1.2) optionally followed by "
                    "~N, ^N or ^{commit}: " + problem);
}

bool is_object_name(std::string_view text) {
  if (text.size() != 40 && text.size() != 64) return false;
  return text.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
}

std::vector<std::string> branch_candidates(std::string_view rev, std::string_view remote) {
  const auto split = std::min(rev.find_first_of("~^"), rev.size());
  const std::string_view name = rev.substr(0, split), suffix = rev.substr(split);
  const bool pseudo = name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string_view::npos;
  if (name.empty() || is_object_name(name) || name.starts_with("refs/") || pseudo) return {};
  std::vector<std::string> out;
  for (std::string prefix : {std::string("refs/heads/"), std::string("refs/remotes/"),
                             remote.empty() ? std::string() : "refs/remotes/" + std::string(remote) + "/"}) {
    if (prefix.empty()) continue;
    std::string full = prefix + std::string(name) + std::string(suffix);
    if (check_revision(full)) out.push_back(std::move(full));
  }
  return out;
}

Status check_argument(std::string_view what, std::string_view value) {
  if (value.empty()) return could_not_evaluate(std::string(what) + " is empty");
  if (value.front() == '-')
    return could_not_evaluate(std::string(what) + " " + quote_for_message(value) +
                      " starts with '-': git would read it as an option");
  for (char c : value)
    if (is_control(c)) return could_not_evaluate(std::string(what) + " " + quote_for_message(value) + " contains a control character");
  return {};
}

Result<std::string> unquote_c_style(std::string_view text) {
  if (text.empty() || text.front() != '"') return std::string(text);
  std::string out;
  std::size_t i = 1;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      if (i + 1 != text.size()) return could_not_evaluate("text after the closing quote");
      return out;
    }
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 >= text.size()) return could_not_evaluate("a '\\' at the end");
    const char e = text[i + 1];
    static constexpr std::string_view kNamed = "abtnvfr\"\\";
    static constexpr std::string_view kValues = "\a\b\t\n\v\f\r\"\\";
    if (const auto k = kNamed.find(e); k != std::string_view::npos) {
      out += kValues[k];
      i += 2;
      continue;
    }
    auto octal = [&](std::size_t at) { return at < text.size() && text[at] >= '0' && text[at] <= '7'; };
    if (e >= '0' && e <= '3' && octal(i + 2) && octal(i + 3)) {
      out += static_cast<char>(((e - '0') << 6) | ((text[i + 2] - '0') << 3) | (text[i + 3] - '0'));
      i += 4;
      continue;
    }
    if (e >= '0' && e <= '7') return could_not_evaluate("an octal escape that is not three digits from \\000 to \\377");
    return could_not_evaluate("an unknown escape " + quote_for_message(text.substr(i, 2)));
  }
  return could_not_evaluate("no closing quote");
}

Result<std::vector<FileChange>> parse_name_status_z(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\0', start);
    if (end == std::string_view::npos) end = text.size();
    fields.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::vector<FileChange> changes;
  for (std::size_t i = 0; i < fields.size();) {
    auto status = fields[i++];
    if (status.empty()) return could_not_evaluate("unexpected empty status field in git diff output");
    // git's letters, then a score for R and C (R100): anything else is not --name-status output.
    if (std::string_view("ACDMRTUX").find(status[0]) == std::string_view::npos ||
        status.find_first_not_of("0123456789", 1) != std::string_view::npos)
      return could_not_evaluate("unexpected status field " + quote_for_message(status) + " in git diff output");
    FileChange change;
    change.status = status[0];
    const bool two_paths = change.status == 'R' || change.status == 'C';
    if (i + (two_paths ? 2 : 1) > fields.size())
      return could_not_evaluate("truncated git diff output after status '" + std::string(status) + "'");
    if (two_paths) change.previous_path = fields[i++];
    change.path = fields[i++];
    if (change.path.empty() || (two_paths && change.previous_path.empty()))
      return could_not_evaluate("an empty path after status '" + std::string(status) + "' in git diff output");
    changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace gatekit
