#pragma once
// Path globs for change filters: two dialects over one non-backtracking matcher.
//
// Dialect `github` (the default) is the syntax of `on.pull_request.paths`; dialect
// `picomatch` is picomatch 2.3.1 with {dot: true}, the matcher behind dorny/paths-filter
// (docs/actions/path-gate.md, "Dialects", states both). In the github dialect every byte
// is an ordinary character, a line break included; picomatch's own regex dot does not match
// one, and the picomatch dialect follows picomatch there too.
// Every pattern compiles once into an automaton that is simulated without backtracking:
// matching costs O(states x path length) whatever the pattern. A PatternList runs all of its
// patterns at once through a lazily built DFA while paths reuse its states, and pattern by
// pattern (prefilters, then each pattern's own small DFA) once they stop doing so: at most
// one walk per pattern per path either way (docs/actions/path-gate.md, "Dialects").
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

// What every path a pattern's body matches has, worked out from its automaton: the shortcut
// a PatternList takes to rule a pattern out for a path before running it.
struct BodyFacts {
  std::string prefix;            // every match starts with it
  std::string suffix;            // and ends with it
  std::string required;          // bytes every match contains (sorted)
  std::string required_in_name;  // bytes every match contains after its last '/' (sorted)
  std::uint32_t min_slashes = 0;             // '/' bytes in every match: at least
  std::optional<std::uint32_t> max_slashes;  // and at most (none: no bound)
};

namespace detail {
struct Program;
struct Dfa;
class Sieve;
struct Batch;
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

  // The body's facts (for tests and --explain), and whether they let `path` through: false
  // means the body cannot match it.
  BodyFacts body_facts() const;
  bool body_may_match(std::string_view path) const;

  // The string test that decides the body exactly in place of its automaton when a list
  // matches pattern by pattern (github dialect): "literal", "prefix", "suffix", "basename"
  // (`**/name`), "extension" (`**/*.ext`, `dir/**/*.ext`, `dir/*.ext`), "name" or "any"; ""
  // for other shapes (for tests).
  std::string_view strategy() const;

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

// The paths that several lists judge (one pull request's changed paths, for every filter):
// what matching pattern by pattern needs of each path (its bytes, its '/' count, its folder,
// the folder's place among the batch's folders) is worked out once, the first time a list
// needs it, and shared by every list that evaluates the batch (PatternList::evaluate_many).
// It views the paths: they must outlive it. Not thread-safe.
class PathBatch {
 public:
  explicit PathBatch(std::vector<std::string_view> paths);
  ~PathBatch();
  PathBatch(PathBatch&&) noexcept;
  PathBatch& operator=(PathBatch&&) noexcept;
  PathBatch(const PathBatch&) = delete;
  PathBatch& operator=(const PathBatch&) = delete;

  const std::vector<std::string_view>& paths() const { return paths_; }
  std::size_t size() const { return paths_.size(); }
  // For the glob engine: the facts, worked out on the first call.
  const detail::Batch& facts() const;

 private:
  std::vector<std::string_view> paths_;
  mutable std::unique_ptr<detail::Batch> facts_;
};

// An ordered pattern list, evaluated as its dialect defines:
// github: the path starts excluded; each matching pattern in order includes it (positive)
//   or excludes it ('!'): the last match wins (decisive = that pattern);
// picomatch: each pattern is judged on its own (no ordered subtraction): included when any
//   pattern matches (decisive = the first that does).
// Not thread-safe: evaluate() grows DFA caches and remembers folders; lists holding copies of
// one Pattern share that pattern's caches, so they are not thread-safe together either.
class PatternList {
 public:
  PatternList();
  PatternList(std::vector<Pattern> patterns, Dialect dialect);
  ~PatternList();
  PatternList(PatternList&&) noexcept;
  PatternList& operator=(PatternList&&) noexcept;
  PatternList(const PatternList&) = delete;
  PatternList& operator=(const PatternList&) = delete;

  // The list's verdict. Through the list's automaton while it pays; once it has built
  // kListStates states, or more than one state per 4 bytes walked past its first 64, or its
  // states hold more than 4 positions per byte walked past the list's code size (at least
  // 512), the list goes pattern by pattern for good (pattern_by_pattern()). Lists in the
  // picomatch dialect, or with look-arounds, always go pattern by pattern.
  ListVerdict evaluate(std::string_view path, MatchStats* stats = nullptr) const;
  // evaluate() for paths[0..count), into out[0..count). The DFA walks of several paths are
  // interleaved, so their table lookups overlap instead of waiting on one another.
  void evaluate_many(const std::string_view* paths, std::size_t count, ListVerdict* out,
                     MatchStats* stats = nullptr) const;
  // evaluate() for every path of `batch`, into out[0..batch.size()): the same verdicts, with
  // each path's facts and folder worked out once for all the lists that share the batch.
  void evaluate_many(const PathBatch& batch, ListVerdict* out) const;
  // The same verdict computed pattern by pattern (the reference the DFA is tested against).
  ListVerdict evaluate_slow(std::string_view path, MatchStats* stats = nullptr) const;

  const std::vector<Pattern>& patterns() const { return patterns_; }
  Dialect dialect() const { return dialect_; }
  bool empty() const { return patterns_.empty(); }
  std::size_t dfa_states() const;  // built so far, by the list's one automaton
  // True once the list matches pattern by pattern (see evaluate()).
  bool pattern_by_pattern() const;

  // States the list's one automaton may build before the list goes pattern by pattern.
  static constexpr std::size_t kListStates = 4096;

 private:
  ListVerdict verdict_of_row(std::int32_t row) const;
  ListVerdict evaluate_each(std::string_view path, MatchStats* stats) const;
  ListVerdict abandon_list_dfa(std::string_view path, MatchStats* stats = nullptr) const;
  // The interleaved walks of the list's automaton over whole groups of 4 paths: how many
  // paths it judged (it stops early once the list goes pattern by pattern).
  std::size_t evaluate_lanes(const std::string_view* paths, std::size_t count, ListVerdict* out) const;
  std::vector<Pattern> patterns_;
  Dialect dialect_ = Dialect::github;
  std::unique_ptr<detail::Dfa> dfa_;              // the whole list in one automaton
  mutable std::unique_ptr<detail::Sieve> sieve_;  // pattern by pattern, built when first needed
  mutable bool list_dfa_abandoned_ = false;
};

// Strips a leading "./" (repeatedly) and leading '/'; the rest is kept byte for byte.
std::string normalize_path(std::string_view path);

}  // namespace gatekit::glob
