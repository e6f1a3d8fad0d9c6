// Pattern shapes decided by a string test (see glob_strategy.hpp).
#include "glob_strategy.hpp"

#include <optional>
#include <vector>

namespace gatekit::glob::detail {

namespace {

enum class StrategyToken { literal, dirs, any, name };

// The regex as tokens, with the literal bytes gathered; nullopt for any other construct.
std::optional<std::vector<std::pair<StrategyToken, std::string>>> tokens_of(std::string_view re) {
  constexpr std::string_view kDirs = "(?:[\\s\\S]+/)?", kAny = "[\\s\\S]*", kName = "[^/]*";
  std::vector<std::pair<StrategyToken, std::string>> out;
  auto literal = [&](char c) {
    if (out.empty() || out.back().first != StrategyToken::literal) out.emplace_back(StrategyToken::literal, "");
    out.back().second += c;
  };
  std::size_t i = 0;
  while (i < re.size()) {
    if (re.substr(i).starts_with(kDirs)) {
      out.emplace_back(StrategyToken::dirs, "");
      i += kDirs.size();
    } else if (re.substr(i).starts_with(kAny)) {
      out.emplace_back(StrategyToken::any, "");
      i += kAny.size();
    } else if (re.substr(i).starts_with(kName)) {
      out.emplace_back(StrategyToken::name, "");
      i += kName.size();
    } else if (re[i] == '\\') {
      // An escaped literal: the front end escapes exactly these (append_regex_literal).
      if (i + 1 >= re.size() || std::string_view("\\^$.|?*+()[]{}/-").find(re[i + 1]) == std::string_view::npos)
        return std::nullopt;
      literal(re[i + 1]);
      i += 2;
    } else if (std::string_view("^$.|?*+()[]{}").find(re[i]) != std::string_view::npos) {
      return std::nullopt;  // a quantifier, a class, a group: the automaton decides
    } else {
      literal(re[i]);
      ++i;
    }
  }
  return out;
}

// `path` is D N `tail` with D in `(?:[\s\S]+/)?` when `dirs` (else empty) and N in `[^/]*`:
// it ends with `tail` (which has no '/'), and the '/' before N, if any, is allowed by D.
bool name_then_tail(std::string_view path, std::string_view tail, bool dirs) {
  if (!path.ends_with(tail)) return false;
  const auto rest = path.substr(0, path.size() - tail.size());
  const auto slash = rest.rfind('/');
  if (slash == std::string_view::npos) return true;
  return dirs && slash > 0;  // D is one byte or more, then '/'
}

bool has_slash(std::string_view s) { return s.find('/') != std::string_view::npos; }

}  // namespace

bool Strategy::matches(std::string_view path) const {
  switch (kind) {
    case Kind::none: return false;
    case Kind::any: return true;
    case Kind::literal: return path == head;
    case Kind::prefix: return path.starts_with(head);
    case Kind::suffix: return path.ends_with(tail);
    case Kind::basename:
      return path == head || (path.size() > head.size() + 1 && path.ends_with(head) &&
                              path[path.size() - head.size() - 1] == '/');
    case Kind::extension:
      return path.size() >= head.size() + tail.size() && path.starts_with(head) &&
             name_then_tail(path.substr(head.size()), tail, dirs);
    case Kind::name_in:
      return path.size() >= head.size() + tail.size() && path.starts_with(head) && path.ends_with(tail) &&
             !has_slash(path.substr(head.size(), path.size() - head.size() - tail.size()));
  }
  return false;
}

Strategy strategy_of(std::string_view regex) {
  Strategy s;
  const auto tokens = tokens_of(regex);
  if (!tokens) return s;
  const auto& t = *tokens;
  auto is = [&](std::size_t k, StrategyToken kind) { return k < t.size() && t[k].first == kind; };
  const std::size_t n = t.size();
  // An optional literal head, then one of the shapes.
  const std::size_t h = is(0, StrategyToken::literal) ? 1 : 0;
  const std::string head = h == 1 ? t[0].second : std::string();
  if (n == 0) return s;  // (an empty body: the automaton)
  if (n == 1 && h == 1) {
    s.kind = Strategy::Kind::literal;
    s.head = head;
  } else if (n == 1 && is(0, StrategyToken::any)) {
    s.kind = Strategy::Kind::any;
  } else if (n == 2 && h == 1 && is(1, StrategyToken::any)) {
    s.kind = Strategy::Kind::prefix;
    s.head = head;
  } else if (n == 2 && h == 0 && is(0, StrategyToken::any) && is(1, StrategyToken::literal)) {
    s.kind = Strategy::Kind::suffix;
    s.tail = t[1].second;
  } else if (n == 2 && h == 0 && is(0, StrategyToken::dirs) && is(1, StrategyToken::literal) && !has_slash(t[1].second)) {
    s.kind = Strategy::Kind::basename;
    s.head = t[1].second;
  } else if (n == h + 3 && is(h, StrategyToken::dirs) && is(h + 1, StrategyToken::name) && is(h + 2, StrategyToken::literal) &&
             !has_slash(t[h + 2].second)) {
    s.kind = Strategy::Kind::extension;
    s.head = head;
    s.tail = t[h + 2].second;
    s.dirs = true;
  } else if (n == h + 2 && is(h, StrategyToken::name) && is(h + 1, StrategyToken::literal) && !has_slash(t[h + 1].second)) {
    s.kind = Strategy::Kind::extension;
    s.head = head;
    s.tail = t[h + 1].second;
  } else if (n == 3 && h == 1 && is(1, StrategyToken::name) && is(2, StrategyToken::literal)) {
    s.kind = Strategy::Kind::name_in;  // (a tail with a '/')
    s.head = head;
    s.tail = t[2].second;
  }
  return s;
}

std::string_view to_string(Strategy::Kind kind) {
  switch (kind) {
    case Strategy::Kind::none: return "";
    case Strategy::Kind::any: return "any";
    case Strategy::Kind::literal: return "literal";
    case Strategy::Kind::prefix: return "prefix";
    case Strategy::Kind::suffix: return "suffix";
    case Strategy::Kind::basename: return "basename";
    case Strategy::Kind::extension: return "extension";
    case Strategy::Kind::name_in: return "name";
  }
  return "";
}

}  // namespace gatekit::glob::detail
