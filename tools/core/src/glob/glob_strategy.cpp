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

using Tokens = std::vector<std::pair<StrategyToken, std::string>>;

// The `components` shape of `t`, or false when `t` has another (see Strategy::groups).
bool components_of(const Tokens& t, Strategy& s) {
  Strategy::Glob glob;       // the component being read
  bool open = false;         // it has a piece yet
  bool gap = false;          // a `**/` since the last component: the next one starts a group
  bool after_slash = false;  // the last thing read was a literal '/'
  auto close = [&] {
    if (s.groups.empty() || gap) s.groups.emplace_back();
    s.groups.back().push_back(std::move(glob));
    glob = {};
    open = gap = false;
  };
  for (std::size_t k = 0; k < t.size(); ++k) {
    const auto& [kind, text] = t[k];
    switch (kind) {
      case StrategyToken::literal:
        for (const char c : text) {
          after_slash = c == '/';
          if (c != '/') {
            if (glob.empty()) glob.emplace_back();
            glob.back() += c;
            open = true;
          } else if (open) {
            close();
          } else {
            return false;  // an empty component: a leading or doubled '/'
          }
        }
        break;
      case StrategyToken::name:
        if (glob.empty()) glob.emplace_back();
        glob.emplace_back();
        open = true;
        after_slash = false;
        break;
      case StrategyToken::dirs:  // `(?:[\s\S]+/)?`: whole components, at a component's start
        if (open) return false;
        if (s.groups.empty()) s.lead_dirs = true;
        else gap = true;
        after_slash = false;
        break;
      case StrategyToken::any:  // `[\s\S]*`: only as a trailing `/**` after a component
        if (k + 1 != t.size() || !after_slash || s.groups.empty() || gap) return false;
        s.tail_any = true;
        break;
    }
  }
  if (open) close();
  else if (!s.tail_any) return false;  // it ends with '/' or `**/`
  return !s.groups.empty();
}

// Whether n bytes are equal. Components are short: a plain loop beats a call to memcmp here.
bool same(const char* a, const char* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// A component glob (pieces around its `*`s) against one component, which has no '/': the
// first piece starts it, the last ends it, the others come in order between, each at its
// leftmost place (which leaves the most room for the next).
bool glob_matches(const Strategy::Glob& g, std::string_view c) {
  const std::size_t m = g.size();
  if (m == 1) return c.size() == g[0].size() && same(c.data(), g[0].data(), c.size());
  const std::string& head = g.front();
  const std::string& tail = g.back();
  if (c.size() < head.size() + tail.size()) return false;
  if (!same(c.data(), head.data(), head.size())) return false;
  const char* end = c.data() + c.size() - tail.size();
  if (!same(end, tail.data(), tail.size())) return false;
  const char* at = c.data() + head.size();
  for (std::size_t i = 1; i + 1 < m; ++i) {
    const std::string& piece = g[i];
    const std::size_t size = piece.size();
    if (size == 0) continue;  // (two `*` in a row)
    for (;; ++at) {
      if (static_cast<std::size_t>(end - at) < size) return false;
      if (*at == piece[0] && same(at + 1, piece.data() + 1, size - 1)) break;
    }
    at += size;
  }
  return true;
}

}  // namespace

std::size_t cut_components(std::string_view path, std::vector<std::uint32_t>& out) {
  std::size_t n = 0;
  out.push_back(0);
  for (std::size_t at = path.find('/'); at != std::string_view::npos; at = path.find('/', at + 1), ++n)
    out.push_back(static_cast<std::uint32_t>(at + 1));
  out.push_back(static_cast<std::uint32_t>(path.size() + 1));
  return n + 1;
}

// Does group `g` match components [p, p + g.size())?
bool group_at(const std::vector<Strategy::Glob>& g, std::string_view path, const std::uint32_t* starts, std::size_t p) {
  for (std::size_t i = 0; i < g.size(); ++i) {
    const auto k = p + i;
    if (!glob_matches(g[i], path.substr(starts[k], starts[k + 1] - 1 - starts[k]))) return false;
  }
  return true;
}

// Each group at its leftmost place after the previous one: a `**/` between two groups takes
// any number of components, so the leftmost place leaves the most room for the next.
std::size_t Strategy::place(std::string_view path, const std::uint32_t* starts, std::size_t n,
                            std::size_t count) const {
  std::size_t pos = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const auto& group = groups[j];
    const std::size_t size = group.size();
    if (size > n - pos) return std::string_view::npos;
    if (j == 0 && !lead_dirs) {  // the first group starts the path
      if (!group_at(group, path, starts, 0)) return std::string_view::npos;
      pos = size;
      continue;
    }
    std::size_t p = pos;
    while (p + size <= n && !group_at(group, path, starts, p)) ++p;
    if (p + size > n) return std::string_view::npos;
    pos = p + size;
  }
  return pos;
}

// The last group ends the path unless a `/**` comes after it (which takes one component or
// more); the others are placed in what it leaves.
bool Strategy::components_match(std::string_view path, const std::uint32_t* starts, std::size_t n) const {
  if (tail_any) {
    const auto pos = place(path, starts, n, groups.size());
    return pos != std::string_view::npos && pos < n;
  }
  const auto& last = groups.back();
  if (last.size() > n) return false;
  if (groups.size() == 1 && !lead_dirs) return last.size() == n && group_at(last, path, starts, 0);
  return place(path, starts, n - last.size(), groups.size() - 1) != std::string_view::npos &&
         group_at(last, path, starts, n - last.size());
}

bool Strategy::folder_fits(std::string_view path, const std::uint32_t* starts, std::size_t folder) const {
  if (groups.size() == 1 && !lead_dirs) return folder == 0;  // the name is the whole path
  return place(path, starts, folder, groups.size() - 1) != std::string_view::npos;
}

bool Strategy::name_fits(std::string_view name) const { return glob_matches(groups.back()[0], name); }

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
    case Kind::components: {
      std::vector<std::uint32_t> starts;
      const std::size_t n = cut_components(path, starts);
      return components_match(path, starts.data(), n);
    }
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
  } else if (Strategy c; components_of(t, c)) {
    c.kind = Strategy::Kind::components;
    if (c.ends_with_name()) {  // every piece length-prefixed: no two different folders' rules share a key
      c.folder_key = c.lead_dirs ? "D" : "-";
      for (std::size_t j = 0; j + 1 < c.groups.size(); ++j) {
        c.folder_key += 'G';
        for (const auto& glob : c.groups[j]) {
          c.folder_key += 'C';
          for (const auto& piece : glob) c.folder_key += std::to_string(piece.size()) + ':' + piece;
        }
      }
      if (c.groups.size() == 1 && !c.lead_dirs) c.folder_key += "N";  // (the name alone: no folder fits)
    }
    return c;
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
    case Strategy::Kind::components: return "components";
  }
  return "";
}

}  // namespace gatekit::glob::detail
