#pragma once
// Internal to the glob engine: the shapes of github-dialect patterns that a string test
// decides exactly, as ripgrep's globset sorts globs by strategy, so that the sieve never
// runs an automaton for them. Recognized on the regex the front end emits (its tokens:
// `(?:[\s\S]+/)?` for `**/`, `[\s\S]*` for `**`, `[^/]*` for `*`, and escaped literals);
// anything else (classes, `?`, `+`, several `*`) has no strategy.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gatekit::glob::detail {

struct Strategy {
  enum class Kind {
    none,       // run the automaton
    any,        // `**`: every path
    literal,    // `a/b.c`: the path is `head`
    prefix,     // `docs/**`: starts with `head`
    suffix,     // `**.md`: ends with `tail`
    basename,   // `**/name` (`head`: name, no '/'): the path is the name, or ends with "/name" after at least one byte
    extension,  // `[head]**/*.ext`, `[head]*.ext` (`tail`: ".ext", no '/'): see matches()
    name_in,    // `head*tail`: starts with head, ends with tail, nothing but non-'/' bytes between
    components, // whole '/'-separated components: `*` globs, `**/` (any number of components) and a
                // trailing `/**` (one or more), e.g. `**/x*/**/*.py`, `**/*a*b*`, `*/x*/*`
  };
  Kind kind = Kind::none;
  std::string head;  // literal prefix (literal, prefix, basename: the whole literal)
  std::string tail;  // literal suffix
  bool dirs = false; // extension: a `**/` between head and `*tail`

  // components: the pattern as groups of component globs with `**/` between them. A component
  // glob is its literal pieces around its `*`s ("x*" is {"x", ""}, "*a*b*" is {"", "a", "b", ""},
  // "x.py" is {"x.py"}).
  using Glob = std::vector<std::string>;
  std::vector<std::vector<Glob>> groups;  // never empty, and no group is empty
  bool lead_dirs = false;  // a `**/` before the first group
  bool tail_any = false;   // a `/**` after the last group (else a `**/` before every later group)

  // Exactly the pattern body's verdict on `path` (kind != none). A `components` pattern
  // decides only a path made of whole non-empty components (PathFacts::whole_components: not
  // empty, no leading, trailing or doubled '/'); its automaton decides any other.
  bool matches(std::string_view path) const;
  // The same for a `components` pattern on a path already cut at its '/': component k is
  // path[starts[k], starts[k + 1] - 1), so `starts` has n + 1 entries, the last path.size() + 1.
  bool components_match(std::string_view path, const std::uint32_t* starts, std::size_t n) const;
  // A `components` pattern whose last group is one component that ends the path (`**/x*/*.py`,
  // `**/*a*b*`): it matches when its other groups fit in the path's folder (folder_fits(),
  // the same for every path of a folder) and that component matches the name (name_fits()).
  bool ends_with_name() const { return kind == Kind::components && !tail_any && groups.back().size() == 1; }
  // What folder_fits() depends on, as bytes (`**/x*/**/*.py` and `**/x*/**/*.h` share it), so
  // that patterns alike before the name share its answers (ends_with_name() patterns).
  std::string folder_key;
  // `path` cut as for components_match(), its first `folder` components being its folder.
  bool folder_fits(std::string_view path, const std::uint32_t* starts, std::size_t folder) const;
  bool name_fits(std::string_view name) const;

 private:
  // Places groups [0, count) in order, each at its leftmost place, within components [0, n):
  // the components they take, or npos when they do not fit.
  std::size_t place(std::string_view path, const std::uint32_t* starts, std::size_t n, std::size_t count) const;
};

// Where `path`'s components start (see Strategy::components_match), appended to `out`; the
// count of components.
std::size_t cut_components(std::string_view path, std::vector<std::uint32_t>& out);

// The strategy of a github-dialect regex (Kind::none when it has another shape).
Strategy strategy_of(std::string_view regex);

std::string_view to_string(Strategy::Kind kind);

}  // namespace gatekit::glob::detail
