#pragma once
// Internal to the glob engine: the shapes of github-dialect patterns that a string test
// decides exactly, as ripgrep's globset sorts globs by strategy, so that the sieve never
// runs an automaton for them. Recognized on the regex the front end emits (its tokens:
// `(?:[\s\S]+/)?` for `**/`, `[\s\S]*` for `**`, `[^/]*` for `*`, and escaped literals);
// anything else (classes, `?`, `+`, several `*`) has no strategy.
#include <string>
#include <string_view>

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
  };
  Kind kind = Kind::none;
  std::string head;  // literal prefix (literal, prefix, basename: the whole literal)
  std::string tail;  // literal suffix
  bool dirs = false; // extension: a `**/` between head and `*tail`

  // Exactly the pattern body's verdict on `path` (kind != none).
  bool matches(std::string_view path) const;
};

// The strategy of a github-dialect regex (Kind::none when it has another shape).
Strategy strategy_of(std::string_view regex);

std::string_view to_string(Strategy::Kind kind);

}  // namespace gatekit::glob::detail
