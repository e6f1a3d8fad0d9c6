#pragma once
// Internal to the glob engine: a small regular-expression subset compiled to a Pike-VM
// program. Both dialect front ends translate a glob into this subset; the VM simulates the
// automaton position by position (no backtracking), so a match costs O(size x length).
//
// Supported regex subset (what the front ends emit): literals and `\x` escapes, `.` (as
// JavaScript's: not \n, \r, U+2028 or U+2029, whose UTF-8 bytes a look-ahead rules out),
// classes `[...]`/`[^...]` with ranges and \d \w \s, groups `(...)` `(?:...)`, `|`,
// quantifiers `* + ? {n} {n,} {n,m}` (a trailing lazy `?` is accepted and ignored: only
// match/no match matters), `^` `$`, and look-aheads `(?=...)` `(?!...)`. A look-ahead is a
// property of (input, position) alone, so it is precomputed for every position by one
// backward pass of its reversed automaton: still linear, still no backtracking.
#include <array>
#include <bit>
#include <bitset>
#include <cstring>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gatekit/glob.hpp"

namespace gatekit::glob::detail {

enum class Op : std::uint8_t {
  byte_set,        // a: index into sets; consumes one byte in the set
  split,           // continue at a and at b
  jump,            // continue at a
  match,           // accept
  assert_begin,    // position 0
  assert_end,      // position n
  look,            // a: index into looks; passes when the look-ahead holds (or not, when negative)
  word_boundary,   // a = 1: \b, a = 0: \B (ASCII word characters, as JavaScript)
};

struct Inst {
  Op op = Op::match;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
};

struct Program;

struct Look {
  bool negative = false;
  std::shared_ptr<const Program> reversed;  // the look-ahead body, reversed
  // The body is `\xE2\x80[\xA8\xA9]` (U+2028 or U+2029, which `.` rules out): its table is
  // found by a scan of the input, without running `reversed`.
  bool line_separator = false;
};

struct SieveShared;  // glob_sieve.hpp

struct Program {
  std::vector<Inst> code;  // entry at 0
  std::vector<std::bitset<256>> sets;
  std::vector<Look> looks;
  std::string regex;
  bool has_assertions = false;  // any assert_* or look: not DFA-friendly
  // What matching pattern by pattern works out for this program (its prefilter, its own DFA),
  // made by the first sieve that needs it and shared by every list holding a copy of the
  // pattern (path-classifier compiles a text once for all its filters).
  mutable std::shared_ptr<SieveShared> sieve_shared;
};

// The byte a set holds when it holds exactly one (a literal), else -1. Word-wise: this runs
// for every set of every pattern.
inline int single_byte(const std::bitset<256>& set) {
  std::array<std::uint64_t, 4> words{};
  static_assert(sizeof(words) == sizeof(std::bitset<256>));
  std::memcpy(words.data(), &set, sizeof(words));  // a bitset is trivially copyable
  int found = -1;
  for (std::size_t w = 0; w < words.size(); ++w) {
    const auto x = words[w];
    if (x == 0) continue;
    if (found >= 0 || (x & (x - 1)) != 0) return -1;
    found = static_cast<int>(w * 64) + std::countr_zero(x);
  }
  return found;
}

// A line terminator of JavaScript's `.`: \n, \r, U+2028 or U+2029 (in UTF-8).
inline bool has_js_line_terminator(std::string_view path) {
  return path.find_first_of("\n\r") != std::string_view::npos ||
         path.find("\xE2\x80\xA8") != std::string_view::npos || path.find("\xE2\x80\xA9") != std::string_view::npos;
}

// Compiles the regex subset; the error text names the offset (a front-end bug or an
// unsupported construct).
std::variant<std::shared_ptr<const Program>, std::string> compile_regex(std::string_view regex);

// Whole-input match.
bool run_program(const Program& program, std::string_view input, MatchStats* stats);

// What every match of a program has, worked out from the automaton itself (so it holds in
// both dialects): a cheap test that rules a path out before any automaton runs. Look-arounds
// and assertions are taken as always passing, which only adds runs: a fact true of every run
// of that larger automaton is true of every real match.
using ByteMask = std::array<std::uint64_t, 4>;
struct Prefilter {
  ByteMask required{};       // bytes every match contains
  ByteMask required_name{};  // bytes every match contains after its last '/'
  std::string prefix;        // every match starts with it
  std::string suffix;        // every match ends with it
  std::uint32_t min_slashes = 0;            // '/' bytes in every match: at least
  std::uint32_t max_slashes = UINT32_MAX;   // and at most
};
Prefilter analyze(const Program& program);

// What the prefilters look at in a path, worked out once per path.
struct PathFacts {
  ByteMask bytes{};
  ByteMask name_bytes{};  // after the last '/'
  std::uint32_t slashes = 0;
  // Made of whole non-empty components: not empty, no leading, trailing or doubled '/'
  // (Strategy::whole_components).
  bool whole_components = false;
};
inline PathFacts path_facts(std::string_view path) {
  PathFacts facts;
  bool empty_component = false;
  unsigned char before = '/';  // (a leading '/' ends an empty component)
  for (unsigned char c : path) {
    const std::uint64_t bit = std::uint64_t{1} << (c & 63);
    facts.bytes[c >> 6] |= bit;
    if (c == '/') {
      ++facts.slashes;
      facts.name_bytes = {};
      empty_component |= before == '/';
    } else {
      facts.name_bytes[c >> 6] |= bit;
    }
    before = c;
  }
  facts.whole_components = !empty_component && before != '/';
  return facts;
}

inline bool holds_all(const ByteMask& have, const ByteMask& need) {
  return ((need[0] & ~have[0]) | (need[1] & ~have[1]) | (need[2] & ~have[2]) | (need[3] & ~have[3])) == 0;
}

// Whether a path with these facts could match (false: it cannot).
inline bool may_match(const Prefilter& f, std::string_view path, const PathFacts& facts) {
  return facts.slashes >= f.min_slashes && facts.slashes <= f.max_slashes && holds_all(facts.bytes, f.required) &&
         holds_all(facts.name_bytes, f.required_name) && path.starts_with(f.prefix) && path.ends_with(f.suffix);
}

// A dialect front end validates a glob and translates its body into the regex subset.
struct Translation {
  std::string regex;
  bool negated = false;
};
std::variant<Translation, PatternError> translate_github(std::string_view text);
std::variant<Translation, PatternError> translate_picomatch(std::string_view text);
std::vector<PatternWarning> lint_github(std::string_view text);
std::vector<PatternWarning> lint_picomatch(std::string_view text);

// `c` as a literal in the regex subset.
std::string regex_literal(char c);
// The same, appended to `out` (no temporary string).
void append_regex_literal(std::string& out, char c);

}  // namespace gatekit::glob::detail
