#pragma once
// Internal to the glob engine: a lazily built DFA over one or several compiled programs (a
// state is the set of their positions), with a bounded number of states. PatternList runs a
// whole list through one (glob.cpp); the sieve gives each pattern its own (glob_sieve.cpp).
#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "glob_program.hpp"

namespace gatekit::glob::detail {

struct Dfa {
  static constexpr std::int32_t kUnknown = -1;
  std::size_t max_states = 0;
  // The list's automaton pays while paths reuse its states. When every path builds new ones
  // (patterns that match, each in its own way, make the set of positions a new product for
  // each path), building them costs more than matching pattern by pattern: past kWarmStates,
  // a state per kBytesPerState bytes walked gives up (step() answers kUnknown).
  static constexpr std::size_t kWarmStates = 64;
  static constexpr std::size_t kBytesPerState = 4;
  // Building a state costs in proportion to the positions it holds, and lists whose states
  // explode hold many (a position of nearly every pattern in each). So the same rule is also
  // applied to positions, with a budget fixed before the first step: past kWarmCode x the
  // list's code size in positions (and at least kWarmPositions), more than kPositionsPerByte
  // per byte walked gives up.
  static constexpr std::size_t kWarmCode = 1;
  static constexpr std::size_t kWarmPositions = 512;
  static constexpr std::size_t kPositionsPerByte = 4;
  bool amortized = false;  // apply that rule (the list's automaton; not a single pattern's)
  std::size_t walked = 0;  // bytes walked by finished paths

  struct Inst {
    Op op;
    std::uint32_t a, b;
    const std::bitset<256>* set;
    int owner;  // match: the pattern index
  };

  std::vector<Inst> code;
  std::vector<std::uint32_t> starts;
  // Bytes that every set treats alike share a class: the table has one column per class.
  std::array<std::uint8_t, 256> byte_class{};
  std::size_t classes = 0;
  // States are identified by their row in `next` (state number x classes), so the matching
  // loop needs no multiplication; row 0 is the dead state.
  // State k's consuming and accepting pcs, sorted: pool[first[k] .. first[k + 1]).
  std::vector<std::uint32_t> pool;
  std::vector<std::size_t> first{0};
  std::vector<int> decisive;                       // per state: the last pattern accepting, -1 none
  std::vector<std::int32_t> next;                  // states x classes: the next state's row
  // Interning: hash of a state's pcs -> the first state with it; chains through `collision`.
  std::unordered_map<std::uint64_t, std::int32_t> index;
  std::vector<std::int32_t> collision;
  std::vector<std::uint32_t> stamp;
  std::uint32_t generation = 0;
  std::int32_t start = 0;
  // Scratch buffers reused by every closure, so growing the DFA does not allocate per step.
  std::vector<std::uint32_t> scratch_out, scratch_stack, scratch_seeds;

  // One automaton for all of `programs` (a state is a set of their positions); at most
  // `max_states_` states are built, then step() answers kUnknown.
  Dfa(const std::vector<const Program*>& programs, std::size_t max_states_) : max_states(max_states_) {
    std::vector<const std::bitset<256>*> sets;
    std::size_t total = 0;
    for (const auto* program : programs) total += program->code.size();
    code.reserve(total);
    starts.reserve(programs.size());
    for (std::size_t k = 0; k < programs.size(); ++k) {
      const auto& prog = *programs[k];
      const auto base = static_cast<std::uint32_t>(code.size());
      starts.push_back(base);
      for (const auto& inst : prog.code) {
        Inst m{inst.op, inst.a, inst.b, nullptr, -1};
        if (inst.op == Op::split || inst.op == Op::jump) { m.a += base; m.b += base; }
        if (inst.op == Op::byte_set) m.set = &prog.sets[inst.a];
        if (inst.op == Op::match) m.owner = static_cast<int>(k);
        code.push_back(m);
      }
      for (const auto& set : prog.sets) sets.push_back(&set);
    }
    compute_classes(sets);
    stamp.assign(code.size(), 0);
    if (code.size() <= kBitsetCode) compute_closures();
    scratch_out.clear();
    intern(scratch_out);  // row 0: dead, and absorbing: its row is filled in advance
    std::fill(next.begin(), next.end(), 0);
    start = intern(closure(starts));
  }

  std::size_t state_count() const { return decisive.size(); }
  std::size_t row_of(std::size_t state) const { return state * classes; }
  const std::uint32_t* pcs_begin(std::size_t state) const { return pool.data() + first[state]; }
  const std::uint32_t* pcs_end(std::size_t state) const { return pool.data() + first[state + 1]; }
  std::size_t state_of(std::int32_t row) const { return static_cast<std::size_t>(row) / classes; }

  // Refines the partition of the 256 bytes by every distinct set: a class is a set of bytes
  // that every set holds all or none of. Word-wise on 256-bit masks (a few sets, a few dozen
  // classes), then numbered in the order of their lowest byte.
  void compute_classes(const std::vector<const std::bitset<256>*>& sets) {
    static_assert(sizeof(ByteMask) == sizeof(std::bitset<256>));
    std::vector<ByteMask> parts{ByteMask{~0ull, ~0ull, ~0ull, ~0ull}};
    std::array<bool, 256> literal{};  // a singleton set splits once, however often it comes
    std::vector<ByteMask> others;
    auto refine = [&](const ByteMask& set) {
      const std::size_t n = parts.size();
      for (std::size_t i = 0; i < n; ++i) {
        ByteMask in{}, out{};
        std::uint64_t any_in = 0, any_out = 0;
        for (std::size_t w = 0; w < 4; ++w) {
          in[w] = parts[i][w] & set[w];
          out[w] = parts[i][w] & ~set[w];
          any_in |= in[w];
          any_out |= out[w];
        }
        if (any_in != 0 && any_out != 0) {
          parts[i] = in;
          parts.push_back(out);
        }
      }
    };
    for (const auto* set : sets) {
      ByteMask m;
      std::memcpy(m.data(), set, sizeof(m));  // a bitset is trivially copyable
      if (const int byte = single_byte(*set); byte >= 0) {
        const auto b = static_cast<std::size_t>(byte);
        if (literal[b]) continue;
        literal[b] = true;
        // Only the class holding the byte splits: the byte leaves it, alone.
        const std::uint64_t bit = std::uint64_t{1} << (b & 63);
        for (auto& part : parts) {
          if ((part[b >> 6] & bit) == 0) continue;
          if (std::popcount(part[0]) + std::popcount(part[1]) + std::popcount(part[2]) + std::popcount(part[3]) > 1) {
            part[b >> 6] &= ~bit;
            ByteMask alone{};
            alone[b >> 6] = bit;
            parts.push_back(alone);
          }
          break;
        }
        continue;
      }
      if (std::find(others.begin(), others.end(), m) != others.end()) continue;
      others.push_back(m);
      refine(m);
    }
    if (parts.size() > 255) {  // (not reachable with realistic patterns) fall back to bytes
      for (std::size_t c = 0; c < 256; ++c) byte_class[c] = static_cast<std::uint8_t>(c);
      classes = 256;
      return;
    }
    auto lowest = [](const ByteMask& m) {
      for (std::size_t w = 0; w < 4; ++w)
        if (m[w] != 0) return w * 64 + static_cast<std::size_t>(std::countr_zero(m[w]));
      return std::size_t{256};
    };
    std::sort(parts.begin(), parts.end(), [&](const ByteMask& a, const ByteMask& b) { return lowest(a) < lowest(b); });
    for (std::size_t id = 0; id < parts.size(); ++id)
      for (std::size_t w = 0; w < 4; ++w)
        for (std::uint64_t bits = parts[id][w]; bits != 0; bits &= bits - 1)
          byte_class[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))] = static_cast<std::uint8_t>(id);
    classes = parts.size();
  }

  // A small automaton (at most kBitsetCode instructions) keeps each instruction's epsilon
  // closure as a bit set, worked out once: a step's closure is then the union of its seeds'
  // sets, read off in order (no search, no sort).
  static constexpr std::size_t kBitsetCode = 256;
  std::size_t words = 0;                    // per bit set
  std::vector<std::uint64_t> closures;      // instruction pc's set: closures[pc * words ..]
  std::vector<std::uint64_t> scratch_bits;

  void compute_closures() {
    words = (code.size() + 63) / 64;
    closures.assign(code.size() * words, 0);
    scratch_bits.assign(words, 0);
    std::vector<std::uint32_t> one;
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
      one.assign(1, pc);
      for (const auto at : dfs_closure(one)) closures[pc * words + at / 64] |= std::uint64_t{1} << (at % 64);
    }
  }

  // The epsilon closure of `seeds`, sorted, in scratch_out (valid until the next call).
  const std::vector<std::uint32_t>& closure(const std::vector<std::uint32_t>& seeds) {
    if (words == 0) return dfs_closure(seeds);
    std::fill(scratch_bits.begin(), scratch_bits.end(), 0);
    for (const auto seed : seeds) {
      const std::uint64_t* set = closures.data() + static_cast<std::size_t>(seed) * words;
      for (std::size_t w = 0; w < words; ++w) scratch_bits[w] |= set[w];
    }
    auto& out = scratch_out;
    out.clear();
    for (std::size_t w = 0; w < words; ++w)
      for (std::uint64_t bits = scratch_bits[w]; bits != 0; bits &= bits - 1)
        out.push_back(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
    return out;
  }

  // The same by following the jumps and splits.
  const std::vector<std::uint32_t>& dfs_closure(const std::vector<std::uint32_t>& seeds) {
    ++generation;
    auto& out = scratch_out;
    auto& stack = scratch_stack;
    out.clear();
    stack.assign(seeds.rbegin(), seeds.rend());
    while (!stack.empty()) {
      auto pc = stack.back();
      stack.pop_back();
      if (stamp[pc] == generation) continue;
      stamp[pc] = generation;
      const auto& inst = code[pc];
      if (inst.op == Op::jump) stack.push_back(inst.a);
      else if (inst.op == Op::split) { stack.push_back(inst.b); stack.push_back(inst.a); }
      else out.push_back(pc);  // byte_set or match (no assertions in a DFA-friendly list)
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  static std::uint64_t hash(const std::vector<std::uint32_t>& pcs) {
    std::uint64_t h = 0xcbf29ce484222325ull ^ pcs.size();
    for (auto pc : pcs) h = (h ^ pc) * 0x100000001b3ull;
    return h ^ (h >> 29);
  }

  // The row of the state made of `pcs`, added when new; kUnknown when the cache is full.
  std::int32_t intern(const std::vector<std::uint32_t>& pcs) {
    const auto h = hash(pcs);
    auto [it, inserted] = index.try_emplace(h, kUnknown);
    for (std::int32_t id = it->second; id != kUnknown; id = collision[static_cast<std::size_t>(id)]) {
      const auto k = static_cast<std::size_t>(id);
      if (std::equal(pcs.begin(), pcs.end(), pcs_begin(k), pcs_end(k))) return static_cast<std::int32_t>(row_of(k));
    }
    if (state_count() >= max_states) {
      if (inserted) index.erase(it);
      return kUnknown;
    }
    int best = -1;
    for (auto pc : pcs)
      if (code[pc].op == Op::match) best = std::max(best, code[pc].owner);
    const auto id = static_cast<std::int32_t>(state_count());
    pool.insert(pool.end(), pcs.begin(), pcs.end());
    first.push_back(pool.size());
    decisive.push_back(best);
    collision.push_back(it->second);
    it->second = id;
    next.resize(next.size() + classes, kUnknown);
    return static_cast<std::int32_t>(row_of(static_cast<std::size_t>(id)));
  }

  // Whether some input without a '/' leads from `row` to a match, worked out on the positions
  // of its state (nothing is built) and kept per state: the sieve asks it of the state after
  // a path's folder, since the rest of the path, its name, has no '/'.
  bool can_finish_in_name(std::int32_t row) {
    if (row <= 0) return false;
    const auto state = state_of(row);
    if (finishes_in_name.size() <= state) finishes_in_name.resize(state_count(), 0);
    if (finishes_in_name[state] == 0) finishes_in_name[state] = reaches_match_without(state, '/') ? 1 : -1;
    return finishes_in_name[state] > 0;
  }
  std::vector<std::int8_t> finishes_in_name;  // per state: 0 not asked yet, 1 yes, -1 no

  bool reaches_match_without(std::size_t state, unsigned char c) {
    ++generation;
    auto& stack = scratch_stack;
    stack.assign(pcs_begin(state), pcs_end(state));
    while (!stack.empty()) {
      const auto pc = stack.back();
      stack.pop_back();
      if (stamp[pc] == generation) continue;
      stamp[pc] = generation;
      const auto& inst = code[pc];
      switch (inst.op) {
        case Op::match: return true;
        case Op::jump: stack.push_back(inst.a); break;
        case Op::split: stack.push_back(inst.a); stack.push_back(inst.b); break;
        case Op::byte_set:
          if (inst.set->count() > (inst.set->test(c) ? 1U : 0U)) stack.push_back(pc + 1);
          break;
        default: return true;  // (not in a DFA-friendly program) taken as passing
      }
    }
    return false;
  }

  // The list's automaton no longer pays (see kWarmStates and kWarmCode).
  bool over_budget() const {
    return (state_count() >= kWarmStates && state_count() * kBytesPerState > walked) ||
           (pool.size() >= std::max(kWarmPositions, kWarmCode * code.size()) && pool.size() > walked * kPositionsPerByte);
  }

  // The row after byte `c` from `row`, or kUnknown when the cache is full.
  std::int32_t step(std::int32_t row, unsigned char c) {
    const std::size_t slot = static_cast<std::size_t>(row) + byte_class[c];
    if (next[slot] != kUnknown) return next[slot];
    if (amortized && over_budget()) return kUnknown;
    auto& seeds = scratch_seeds;
    seeds.clear();
    const auto state = state_of(row);
    for (const auto* pc = pcs_begin(state); pc != pcs_end(state); ++pc) {
      const auto& inst = code[*pc];
      if (inst.op == Op::byte_set && inst.set->test(c)) seeds.push_back(*pc + 1);
    }
    auto t = intern(closure(seeds));
    if (t != kUnknown) next[slot] = t;
    return t;
  }
};

}  // namespace gatekit::glob::detail
