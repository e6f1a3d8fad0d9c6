#pragma once
// Path globs for change filters: two dialects over one non-backtracking matcher.
//
// Dialect `github` (the default) is the syntax of `on.pull_request.paths`; dialect
// `picomatch` is picomatch 2.3.1 with {dot: true}, the matcher behind dorny/paths-filter
// (docs/actions/path-gate.md, "Dialects", states both). In the github dialect every byte
// is an ordinary character, a line break included; picomatch's own regex dot does not match
// one, and the picomatch dialect follows picomatch there too.
// Every pattern compiles once into an automaton that is simulated without backtracking:
// matching costs O(states x path length) whatever the pattern, and a PatternList runs all
// of its patterns at once through a lazily built DFA.
//
// Paths are repo-relative, '/'-separated, without a leading "./" or "/", compared
// byte-wise and case-sensitively (normalize_path() brings input into that form).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gatekit::glob {

enum class Dialect { github, picomatch };
std::string_view to_string(Dialect dialect);
std::optional<Dialect> parse_dialect(std::string_view name);

// An invalid pattern. column is 1-based within the pattern text (the leading '!' counts);
// 0 means the pattern as a whole (e.g. an empty pattern).
struct PatternError {
  int column = 0;
  std::string message;
  std::string hint;  // may be empty
};

// A valid pattern that probably does not mean what its author thinks (ported from a shell
// `case` gate or from another dialect). Reported as a warning, never an error.
struct PatternWarning {
  int column = 0;
  std::string message;
};

// Work done by the matcher: one step per automaton state visited per input position.
struct MatchStats {
  std::uint64_t steps = 0;
};

namespace detail {
struct Program;
}

class Pattern {
 public:
  static std::variant<Pattern, PatternError> compile(std::string_view text, Dialect dialect);

  const std::string& text() const { return text_; }  // as written
  Dialect dialect() const { return dialect_; }
  bool negated() const { return negated_; }  // written with a leading '!'

  // Whether the pattern body (without its leading '!') matches the whole path.
  bool body_matches(std::string_view path, MatchStats* stats = nullptr) const;

  // The verdict of the pattern on its own, as its dialect defines it:
  // github: body_matches, inverted for a '!' pattern;
  // picomatch: picomatch.isMatch(path, pattern, {dot: true}) (a '!' pattern matches what
  // its body does not; a path spelled exactly like the pattern always matches).
  bool matches(std::string_view path, MatchStats* stats = nullptr) const;

  // The regular expression the body compiles to (for --explain and tests).
  const std::string& regex() const;
  // Automaton size (look-ahead automata included); matching a path of length n costs at
  // most 2 * size() * (n + 1) steps. In the github dialect size() <= 3 * text().size() + 2.
  std::size_t size() const;
  // True when the automaton needs no look-around, so a PatternList may merge it into its DFA.
  bool dfa_friendly() const;

  const std::shared_ptr<const detail::Program>& program() const { return program_; }

 private:
  std::string text_;
  Dialect dialect_ = Dialect::github;
  bool negated_ = false;
  std::shared_ptr<const detail::Program> program_;
};

// Suspicious but valid patterns (see PatternWarning).
std::vector<PatternWarning> lint(std::string_view text, Dialect dialect);

// What an ordered list of patterns says about one path.
struct ListVerdict {
  bool included = false;  // the path is in the list's set
  int decisive = -1;      // index of the pattern that decided it; -1: no pattern matched
};

// An ordered pattern list, evaluated as its dialect defines:
// github: the path starts excluded; each matching pattern in order includes it (positive)
//   or excludes it ('!'): the last match wins (decisive = that pattern);
// picomatch: each pattern is judged on its own (no ordered subtraction): included when any
//   pattern matches (decisive = the first that does).
// Not thread-safe: evaluate() grows a DFA cache.
class PatternList {
 public:
  PatternList();
  PatternList(std::vector<Pattern> patterns, Dialect dialect);
  ~PatternList();
  PatternList(PatternList&&) noexcept;
  PatternList& operator=(PatternList&&) noexcept;
  PatternList(const PatternList&) = delete;
  PatternList& operator=(const PatternList&) = delete;

  ListVerdict evaluate(std::string_view path, MatchStats* stats = nullptr) const;
  // evaluate() for paths[0..count), into out[0..count). The DFA walks of several paths are
  // interleaved, so their table lookups overlap instead of waiting on one another.
  void evaluate_many(const std::string_view* paths, std::size_t count, ListVerdict* out,
                     MatchStats* stats = nullptr) const;
  // The same verdict computed pattern by pattern (the reference the DFA is tested against).
  ListVerdict evaluate_slow(std::string_view path, MatchStats* stats = nullptr) const;

  const std::vector<Pattern>& patterns() const { return patterns_; }
  Dialect dialect() const { return dialect_; }
  bool empty() const { return patterns_.empty(); }
  std::size_t dfa_states() const;  // built so far

 private:
  struct Dfa;
  ListVerdict verdict_of_row(std::int32_t row) const;
  std::vector<Pattern> patterns_;
  Dialect dialect_ = Dialect::github;
  std::unique_ptr<Dfa> dfa_;
};

// Strips a leading "./" (repeatedly) and leading '/'; the rest is kept byte for byte.
std::string normalize_path(std::string_view path);

}  // namespace gatekit::glob
