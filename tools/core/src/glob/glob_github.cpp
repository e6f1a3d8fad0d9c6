// Dialect `github`: the syntax of `on.pull_request.paths`, validated like actionlint and
// translated like GitHub's runner-side implementations (`**/` is an optional `(.+/)`).
// Every character is ordinary, a newline or carriage return included: `*` is any run of
// bytes but '/', `**` any run of bytes at all (never a regex `.`, which stops at '\n').
#include <cctype>

#include "glob_program.hpp"

namespace gatekit::glob::detail {

void append_regex_literal(std::string& out, char c) {
  switch (c) {
    case '\\': case '^': case '$': case '.': case '|': case '?': case '*': case '+':
    case '(': case ')': case '[': case ']': case '{': case '}': case '/': case '-':
      out += '\\';
      break;
    default: break;
  }
  out += c;
}

std::string regex_literal(char c) {
  std::string out;
  append_regex_literal(out, c);
  return out;
}

namespace {

bool same_range_kind(char a, char b) {
  auto kind = [](char c) {
    if (c >= '0' && c <= '9') return 1;
    if (c >= 'a' && c <= 'z') return 2;
    if (c >= 'A' && c <= 'Z') return 3;
    return 0;
  };
  // GitHub accepts a-z, A-Z, 0-9 (and A-z, which spans both cases).
  if (kind(a) == 0 || kind(b) == 0) return false;
  if (kind(a) == 1 || kind(b) == 1) return kind(a) == kind(b);
  return true;
}

PatternError error(std::size_t index, std::string message, std::string hint = {}) {
  return PatternError{static_cast<int>(index) + 1, std::move(message), std::move(hint)};
}

}  // namespace

std::variant<Translation, PatternError> translate_github(std::string_view text) {
  Translation out;
  if (text.empty())
    return PatternError{0, "empty pattern", "remove the entry, or write '**' to match every path"};
  std::size_t i = 0;
  if (text[0] == '!') {
    if (text.size() == 1) return error(0, "'!' must be followed by a pattern");
    out.negated = true;
    i = 1;
  }
  std::string& re = out.regex;
  bool after_atom = false;  // the previous token was a character or a [...] class
  while (i < text.size()) {
    const char c = text[i];
    if (c == '*') {
      if (i + 1 < text.size() && text[i + 1] == '*') {
        if (i + 2 < text.size() && text[i + 2] == '/') {
          re += "(?:[\\s\\S]+/)?";
          i += 3;
        } else {
          re += "[\\s\\S]*";
          i += 2;
        }
      } else {
        re += "[^/]*";
        ++i;
      }
      after_atom = false;
    } else if (c == '?' || c == '+') {
      if (!after_atom) {
        if (c == '?')
          return error(i, "'?' must follow a character or a [...] class: it means zero or one of the preceding character",
                       "write '\\?' for a literal '?'; to match any one character use a class such as '[a-z0-9]'");
        return error(i, "'+' must follow a character or a [...] class: it means one or more of the preceding character",
                     "write '\\+' for a literal '+'");
      }
      re += c;
      ++i;
      after_atom = false;
    } else if (c == '[') {
      const std::size_t open = i;
      ++i;
      if (i < text.size() && text[i] == ']')
        return error(open, "empty brackets '[]'", "list at least one character, e.g. '[abc]'; write '\\[' for a literal '['");
      std::string cls = "[";
      bool closed = false;
      while (i < text.size()) {
        const char x = text[i];
        if (x == ']') {
          closed = true;
          ++i;
          break;
        }
        if (i + 1 < text.size() && text[i + 1] == '-' && !(i + 2 < text.size() && text[i + 2] == ']') &&
            i + 2 < text.size()) {
          const char lo = x, hi = text[i + 2];
          const std::string range{lo, '-', hi};
          if (!same_range_kind(lo, hi))
            return error(i, "a range in brackets can only span a-z, A-Z or 0-9, not '" + range + "'",
                         "list such characters one by one");
          if (lo > hi)
            return error(i, "reversed range '" + range + "' in brackets",
                         std::string("write '") + hi + '-' + lo + "'");
          cls += regex_literal(lo) + "-" + regex_literal(hi);
          i += 3;
          continue;
        }
        if (i + 1 < text.size() && text[i + 1] == '-' && i + 2 < text.size() && text[i + 2] == ']')
          return error(i, std::string("range '") + x + "-' in brackets has no end",
                       "put a literal '-' first, e.g. '[-a]'");
        append_regex_literal(cls, x);
        ++i;
      }
      if (!closed)
        return error(open, "'[' is not closed by ']'", "write '\\[' for a literal '['");
      re += cls + "]";
      after_atom = true;
    } else if (c == '\\') {
      const bool escapes = i + 1 < text.size() &&
                           std::string_view("[?*+\\!").find(text[i + 1]) != std::string_view::npos;
      if (escapes) {
        append_regex_literal(re, text[i + 1]);
        i += 2;
      } else {
        append_regex_literal(re, '\\');
        ++i;
      }
      after_atom = true;
    } else {
      append_regex_literal(re, c);
      ++i;
      after_atom = true;
    }
  }
  return out;
}

std::vector<PatternWarning> lint_github(std::string_view text) {
  std::vector<PatternWarning> out;
  std::string_view body = text;
  int base = 1;
  if (!body.empty() && body[0] == '!') {
    body.remove_prefix(1);
    base = 2;
  }
  if (body.size() >= 2 && body.substr(body.size() - 2) == "/*" &&
      (body.size() < 3 || body[body.size() - 3] != '*')) {
    const std::string dir(body.substr(0, body.size() - 1));
    out.push_back({base + static_cast<int>(body.size()) - 1,
                   "'" + std::string(body) + "' matches only files directly in '" + dir +
                       "', not in its subfolders (unlike a shell `case` pattern); write '" + dir +
                       "**' to cover the whole tree"});
  }
  if (body.rfind("./", 0) == 0 || body.rfind("/", 0) == 0)
    out.push_back({base, "changed paths never start with '" + std::string(body[0] == '/' ? "/" : "./") +
                             "': this pattern matches nothing; remove the prefix"});
  const auto brace = body.find('{');
  if (brace != std::string_view::npos && body.find(',', brace) != std::string_view::npos &&
      body.find('}', brace) != std::string_view::npos)
    out.push_back({base + static_cast<int>(brace),
                   "braces are literal in the github dialect ('{a,b}' is not a choice); write one pattern per "
                   "alternative, or use dialect: picomatch"});
  const auto paren = body.find('(');
  if (paren != std::string_view::npos && body.find('|', paren) != std::string_view::npos)
    out.push_back({base + static_cast<int>(paren),
                   "parentheses and '|' are literal in the github dialect; write one pattern per alternative, or "
                   "use dialect: picomatch"});
  return out;
}

}  // namespace gatekit::glob::detail
