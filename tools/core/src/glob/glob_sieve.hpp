#pragma once
// Internal to the glob engine: a pattern list matched pattern by pattern, for when one
// automaton for the whole list stops paying (patterns that match, each in its own way, make
// its states a new product of positions for every path; see PatternList::evaluate).
//
// A path costs at most one walk per pattern, and usually far less:
// - the prefilters (glob_program.hpp) rule patterns out a machine word at a time: a table per
//   byte of the patterns that need it, per '/' count of the patterns that allow it, per first
//   and last byte of the patterns whose literal prefix and suffix allow it;
// - a remaining pattern whose shape a string test decides (a literal, `dir/**`, `**/name`,
//   `**/*.ext`: glob_strategy.hpp) is decided by it, never by an automaton;
// - each other remaining pattern has a small automaton of its own (one glob's positions, never a
//   product), built the first time a path gets past its prefilters, or its NFA when it needs
//   look-arounds or outgrows its state budget; a pattern's prefilter and automaton belong to its
//   compiled program, so lists holding copies of one pattern work them out once;
// - changed paths share folders: each pattern's state after a folder is remembered, so a path
//   walks only its name; a state from which no '/'-free name can reach a match is remembered
//   as dead (`**/x*/**/*.py` after a folder with no x* part), so such names are not walked;
// - the walk stops at the first pattern that decides;
// - a PathBatch (the changed paths every filter's list judges) works out each path's facts
//   and numbers its folders once: each list's sieve then finds a folder's remembered states
//   by that number, without hashing the folder again.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gatekit/glob.hpp"
#include "glob_dfa.hpp"
#include "glob_strategy.hpp"

namespace gatekit::glob::detail {

// A program's prefilter and its own DFA (Program::sieve_shared): one per compiled pattern,
// whichever lists hold copies of it.
struct SieveShared {
  Strategy strategy;  // github: a string test that decides it (kind none: the automaton)
  Prefilter filter;
  std::unique_ptr<Dfa> dfa;  // built when a path first needs it (most patterns are ruled out first)
  // The DFA's row after each folder of the batch last evaluated (Batch::serial), for every list
  // that holds the pattern: filters that repeat a pattern walk each folder once for all of
  // them. kNotYet until walked; empty for a batch of more than Sieve::kMaxFolders folders.
  std::uint64_t batch_serial = 0;
  std::vector<std::int32_t> folder_rows;
  // The same for a `components` pattern that ends with the name: whether its other groups fit
  // in the folder (Strategy::folder_fits), kNotYet until worked out, else 0 or 1; the batch's
  // (Batch::fits), shared by every pattern with the same Strategy::folder_key. Null until needed.
  std::vector<std::int32_t>* folder_fits = nullptr;
};

// What the sieve needs of every path of a PathBatch, worked out once for every list.
struct Batch {
  static constexpr std::uint32_t kNoFolder = UINT32_MAX;
  std::uint64_t serial = 0;                // no two batches share it: a sieve's folder states are per batch
  std::vector<PathFacts> facts;            // per path
  std::vector<std::uint32_t> folder;       // per path: its folder's number, kNoFolder for a path without '/'
  std::vector<std::uint32_t> folder_length;  // per path: the bytes of its folder ("a/b/" of "a/b/c.py")
  std::size_t folders = 0;                 // distinct folders
  // Per path: where its components start (Strategy::components_match), from
  // component_starts[component_first[i]], component_count[i] + 1 entries.
  std::vector<std::uint32_t> component_starts, component_first, component_count;
  // Per Strategy::folder_key: whether those groups fit in each folder (SieveShared::folder_fits).
  mutable std::unordered_map<std::string, std::vector<std::int32_t>> fits;
};
Batch make_batch(const std::vector<std::string_view>& paths);

class Sieve {
 public:
  static constexpr std::int32_t kNotYet = -2;  // a folder's memo not worked out yet

  Sieve(const std::vector<Pattern>& patterns, Dialect dialect);
  // `patterns`: the ones the sieve was built from (the list owns them).
  ListVerdict evaluate(const std::vector<Pattern>& patterns, std::string_view path, MatchStats* stats);
  // The verdicts of batch paths [from, size) into out[from..size).
  void evaluate(const std::vector<Pattern>& patterns, const PathBatch& batch, std::size_t from, ListVerdict* out);

 private:
  static constexpr std::size_t kMaxStates = 256;     // per pattern; beyond it, the NFA
  static constexpr std::size_t kMaxFolders = 4096;   // remembered folders, then forgotten at once
  static constexpr std::size_t kSlashBuckets = 34;   // '/' counts 0..32, and more

  struct One {
    SieveShared* shared = nullptr;  // the pattern's program's (it outlives the sieve)
    const Strategy* strategy = nullptr;  // the program's
    bool friendly = false;          // no look-arounds: a DFA of its own can decide
  };
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Bits = std::vector<std::uint64_t>;

  void build_tables(const std::vector<Pattern>& patterns);
  // The patterns of word w (patterns 64w to 64w + 63) whose prefilters let `path` through,
  // as bits (pattern 64w + k: bit k).
  std::uint64_t candidates(std::size_t w, std::string_view path, const PathFacts& facts) const;
  void enter_folder(std::string_view path);
  bool string_test_decides(std::size_t k, const PathFacts& facts) const;
  bool passes(const Prefilter& filter, std::string_view path, const PathFacts& facts) const;
  // The list's verdict, `body(k)` telling whether pattern k's body matches the path.
  template <class Body>
  ListVerdict decide(const std::vector<Pattern>& patterns, std::string_view path, const PathFacts& facts, Body&& body);
  bool body_matches(const Pattern& pattern, std::size_t k, std::string_view path, const PathFacts& facts,
                    MatchStats* stats);
  // body_matches() for batch path `i`, with its pattern's row after the path's folder.
  bool batch_body_matches(const Pattern& pattern, std::size_t k, std::string_view path, const Batch& batch,
                          std::size_t i);
  // The walk of pattern k's own DFA over a path from `at` (the row after its folder), or
  // its NFA when the DFA is full.
  bool finish_walk(const Pattern& pattern, std::size_t k, std::int32_t at, std::string_view path,
                   std::size_t folder_length, MatchStats* stats);
  Dfa& own_dfa(const Pattern& pattern, std::size_t k);
  // Pattern k's program's folder rows for `batch` (reset when they last served another batch).
  SieveShared& shared_for(std::size_t k, const Batch& batch);
  const std::uint64_t* row(const Bits& table, std::size_t index) const { return table.data() + index * words_; }

  Dialect dialect_;
  std::vector<One> ones_;
  std::size_t words_ = 0;
  // Tables of pattern bits, `words_` words per entry.
  ByteMask needed_{}, needed_name_{};        // bytes some pattern requires (anywhere / in the name)
  Bits needs_byte_, needs_name_byte_;        // per byte: the patterns that need it (anywhere / in the name)
  Bits slashes_ok_;                          // per '/' count bucket: the patterns allowing it
  Bits first_ok_, last_ok_;                  // per byte (256: empty path): its literal prefix / suffix starts / ends with it
  Bits any_first_, any_last_;                // no literal prefix / suffix: any first / last byte, or none
  Bits always_;                              // picomatch: '!' patterns (a body miss is their match)
  std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> exact_;  // picomatch: text -> first index
  // Per folder ("a/b/" of "a/b/c.py"): each pattern's row after it (kNotYet until needed).
  std::unordered_map<std::string, std::vector<std::int32_t>, Hash, std::equal_to<>> folders_;
  std::vector<std::int32_t>* folder_ = nullptr;
  std::size_t folder_length_ = 0;
};

}  // namespace gatekit::glob::detail
