// Prefilters: facts every match of a glob's automaton has (bytes it must contain, a literal
// prefix and suffix), so that a pattern list can rule most patterns out for a path with a
// few word operations before running any automaton (see PatternList in glob.cpp).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "glob_program.hpp"

namespace gatekit::glob::detail {

namespace {

using Mask = std::array<std::uint64_t, 4>;

// Above this size a program gets no prefilter (the analysis stays cheap; such patterns are
// rare and still match correctly, only without the shortcut).
constexpr std::size_t kMaxAnalyzed = 4096;
constexpr std::size_t kMaxLiteral = 64;

bool consumes(const Inst& inst) { return inst.op == Op::byte_set; }

// The edges of the automaton, with every assertion and look-around taken as passing.
template <class F>
void each_successor(const Program& p, std::uint32_t pc, F&& f) {
  const Inst& inst = p.code[pc];
  switch (inst.op) {
    case Op::split: f(inst.a); f(inst.b); break;
    case Op::jump: f(inst.a); break;
    case Op::match: break;
    default: f(pc + 1); break;  // a consumed byte, or an assertion taken as passing
  }
}

// The consuming and accepting instructions reachable from `seeds` without consuming.
class Closure {
 public:
  explicit Closure(const Program& p) : p_(p), seen_(p.code.size(), 0) {}
  const std::vector<std::uint32_t>& of(const std::vector<std::uint32_t>& seeds) {
    ++generation_;
    out_.clear();
    stack_.assign(seeds.begin(), seeds.end());
    while (!stack_.empty()) {
      const auto pc = stack_.back();
      stack_.pop_back();
      if (pc >= p_.code.size() || seen_[pc] == generation_) continue;
      seen_[pc] = generation_;
      const Inst& inst = p_.code[pc];
      if (consumes(inst) || inst.op == Op::match) out_.push_back(pc);
      else each_successor(p_, pc, [&](std::uint32_t to) { stack_.push_back(to); });
    }
    std::sort(out_.begin(), out_.end());
    return out_;
  }
  const std::vector<std::uint32_t>& of(std::uint32_t seed) {
    one_.assign(1, seed);
    return of(one_);
  }

 private:
  const Program& p_;
  std::vector<std::uint32_t> seen_, out_, stack_, one_;
  std::uint32_t generation_ = 0;
};

bool has_match(const Program& p, const std::vector<std::uint32_t>& pcs) {
  return std::any_of(pcs.begin(), pcs.end(), [&](std::uint32_t pc) { return p.code[pc].op == Op::match; });
}

// The byte every instruction of `pcs` consumes, when they all consume the same single one.
int common_byte(const Program& p, const std::vector<std::uint32_t>& pcs) {
  int byte = -1;
  for (auto pc : pcs) {
    const Inst& inst = p.code[pc];
    if (!consumes(inst)) continue;
    const int b = single_byte(p.sets[inst.a]);
    if (b < 0 || (byte >= 0 && b != byte)) return -1;
    byte = b;
  }
  return byte;
}

std::vector<std::uint32_t> consuming(const Program& p, const std::vector<std::uint32_t>& pcs) {
  std::vector<std::uint32_t> out;
  for (auto pc : pcs)
    if (consumes(p.code[pc])) out.push_back(pc);
  return out;
}

// Every match starts with: follow the first bytes while they are one literal.
std::string literal_prefix(const Program& p, Closure& closure) {
  std::string prefix;
  auto front = closure.of(std::uint32_t{0});
  while (prefix.size() < kMaxLiteral && !has_match(p, front)) {
    const auto steps = consuming(p, front);
    const int byte = common_byte(p, steps);
    if (steps.empty() || byte < 0) break;
    prefix += static_cast<char>(byte);
    std::vector<std::uint32_t> after;
    for (auto pc : steps) after.push_back(pc + 1);
    front = closure.of(after);
  }
  return prefix;
}

// Every match ends with: the instructions that can consume the last byte, then the ones
// before them, while they are one literal. Stops where a match could begin (it may be no
// longer than the suffix found so far).
std::string literal_suffix(const Program& p, Closure& closure) {
  const std::size_t n = p.code.size();
  const auto start = closure.of(std::uint32_t{0});
  if (has_match(p, start)) return {};
  const std::vector<std::uint32_t> starts = consuming(p, start);
  // The closure of i + 1, for every consuming i: pool[begin[i] .. begin[i + 1]) (one flat
  // array, not a vector per instruction).
  std::vector<std::uint32_t> begin(n + 1, 0), pool;
  std::vector<std::uint32_t> level;
  for (std::uint32_t pc = 0; pc < n; ++pc) {
    if (consumes(p.code[pc])) {
      const auto& after = closure.of(pc + 1);
      pool.insert(pool.end(), after.begin(), after.end());
      if (has_match(p, after)) level.push_back(pc);
    }
    begin[pc + 1] = static_cast<std::uint32_t>(pool.size());
  }
  std::vector<char> in_level(n, 0);
  std::string reversed;
  while (reversed.size() < kMaxLiteral && !level.empty()) {
    const int byte = common_byte(p, level);
    if (byte < 0) break;
    reversed += static_cast<char>(byte);
    std::fill(in_level.begin(), in_level.end(), 0);
    for (auto pc : level) in_level[pc] = 1;
    if (std::any_of(starts.begin(), starts.end(), [&](std::uint32_t pc) { return in_level[pc] != 0; })) break;
    std::vector<std::uint32_t> before;
    for (std::uint32_t pc = 0; pc < n; ++pc)
      if (consumes(p.code[pc]) && std::any_of(pool.begin() + begin[pc], pool.begin() + begin[pc + 1],
                                              [&](std::uint32_t q) { return in_level[q] != 0; }))
        before.push_back(pc);
    level = std::move(before);
  }
  return {reversed.rbegin(), reversed.rend()};
}

bool may_consume_slash(const Program& p, const Inst& inst) { return consumes(inst) && p.sets[inst.a].test('/'); }
bool only_slash(const Program& p, const Inst& inst) { return consumes(inst) && single_byte(p.sets[inst.a]) == '/'; }

// The bytes on every path from the entry to the match: a forward "must" analysis (each
// instruction's set is what all its predecessors guarantee, plus the literal it consumes),
// iterated to its fixed point from "every byte". The name analysis is the same, except that
// an instruction that may consume a '/' forgets what came before it: the bytes every match
// has after its last '/'. The two share the predecessor lists and each instruction's literal
// byte and '/', worked out once.
struct Required {
  Mask anywhere{}, name{};
};

Required required_bytes(const Program& p) {
  const std::size_t n = p.code.size();
  if (n == 0) return {};
  // Predecessors as one flat array: pred[begin[pc] .. begin[pc + 1]).
  std::vector<std::uint32_t> begin(n + 1, 0), pred;
  for (std::uint32_t pc = 0; pc < n; ++pc)
    each_successor(p, pc, [&](std::uint32_t to) {
      if (to < n) ++begin[to + 1];
    });
  for (std::size_t pc = 0; pc < n; ++pc) begin[pc + 1] += begin[pc];
  pred.resize(begin[n]);
  {
    std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
    for (std::uint32_t pc = 0; pc < n; ++pc)
      each_successor(p, pc, [&](std::uint32_t to) {
        if (to < n) pred[fill[to]++] = pc;
      });
  }
  std::vector<int> literal(n, -1);  // the one byte an instruction consumes, -1 for none
  std::vector<char> slash(n, 0);    // it may consume a '/'
  for (std::uint32_t pc = 0; pc < n; ++pc) {
    if (!consumes(p.code[pc])) continue;
    literal[pc] = single_byte(p.sets[p.code[pc].a]);
    slash[pc] = may_consume_slash(p, p.code[pc]) ? 1 : 0;
  }
  const Mask all{~0ull, ~0ull, ~0ull, ~0ull};
  auto settle = [&](bool name_only) -> Mask {
    std::vector<Mask> in;  // the entry guarantees nothing; every other instruction starts at "every byte"
    in.reserve(n);
    for (std::size_t pc = 0; pc < n; ++pc) in.push_back(pc == 0 ? Mask{} : all);
    for (int round = 0; round < 64; ++round) {
      bool changed = false;
      for (std::uint32_t pc = 1; pc < n; ++pc) {
        Mask m = all;
        for (std::uint32_t i = begin[pc]; i < begin[pc + 1]; ++i) {
          const std::uint32_t from = pred[i];
          if (name_only && slash[from] != 0) {
            m = Mask{};
            continue;
          }
          Mask o = in[from];
          if (const int b = literal[from]; b >= 0) o[static_cast<std::size_t>(b) >> 6] |= std::uint64_t{1} << (b & 63);
          for (std::size_t w = 0; w < 4; ++w) m[w] &= o[w];
        }
        if (m != in[pc]) {
          in[pc] = m;
          changed = true;
        }
      }
      if (!changed) {
        for (std::uint32_t pc = 0; pc < n; ++pc)
          if (p.code[pc].op == Op::match) return in[pc] == all ? Mask{} : in[pc];
        return {};
      }
    }
    return {};  // not settled (not reachable with glob programs): no claim
  };
  return {settle(false), settle(true)};
}

// The fewest '/' any match has: a shortest path where only a literal '/' costs one.
std::uint32_t min_slashes(const Program& p) {
  const std::size_t n = p.code.size();
  if (n == 0) return 0;
  std::vector<std::uint32_t> best(n, UINT32_MAX);
  best[0] = 0;
  // Bellman-Ford style relaxation in rounds; weights are 0 or 1 and the graph is small.
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t pc = 0; pc < n; ++pc) {
      if (best[pc] == UINT32_MAX) continue;
      const std::uint32_t cost = best[pc] + (only_slash(p, p.code[pc]) ? 1 : 0);
      each_successor(p, pc, [&](std::uint32_t to) {
        if (to < n && cost < best[to]) {
          best[to] = cost;
          changed = true;
        }
      });
    }
  }
  for (std::uint32_t pc = 0; pc < n; ++pc)
    if (p.code[pc].op == Op::match) return best[pc] == UINT32_MAX ? 0 : best[pc];
  return 0;
}

// The most '/' any match has (UINT32_MAX: no bound), where every instruction that may
// consume a '/' counts one: the states (instruction, count so far) reachable with counts up
// to a small bound; beyond it, or on a cycle through such an instruction, no bound. The
// counts reachable at an instruction are kept as the bits of one word, so each instruction
// is visited once per change of its word, not once per count.
// The instructions reachable from `from`'s successors (not `from` itself, unless on a cycle).
std::vector<char> reachable_after(const Program& p, std::uint32_t from) {
  const std::size_t n = p.code.size();
  std::vector<char> seen(n, 0);
  std::vector<std::uint32_t> stack;
  each_successor(p, from, [&](std::uint32_t to) { stack.push_back(to); });
  while (!stack.empty()) {
    const auto pc = stack.back();
    stack.pop_back();
    if (pc >= n || seen[pc] != 0) continue;
    seen[pc] = 1;
    each_successor(p, pc, [&](std::uint32_t to) { stack.push_back(to); });
  }
  return seen;
}

std::uint32_t max_slashes(const Program& p) {
  constexpr std::uint32_t kBound = 32;
  const std::size_t n = p.code.size();
  if (n == 0) return UINT32_MAX;
  // A reachable cycle through an instruction that may consume a '/' has no bound: say so at
  // once rather than going round it kBound times.
  std::vector<char> reachable = reachable_after(p, 0);
  reachable[0] = 1;
  for (std::uint32_t pc = 0; pc < n; ++pc)
    if (reachable[pc] != 0 && may_consume_slash(p, p.code[pc]) && reachable_after(p, pc)[pc] != 0) return UINT32_MAX;
  std::vector<std::uint64_t> counts(n, 0);  // bit c: reachable after c instructions that may consume a '/'
  std::vector<char> queued(n, 0);
  std::vector<std::uint32_t> work{0};
  counts[0] = 1;
  queued[0] = 1;
  while (!work.empty()) {
    const auto pc = work.back();
    work.pop_back();
    queued[pc] = 0;
    const std::uint64_t next = counts[pc] << (may_consume_slash(p, p.code[pc]) ? 1 : 0);
    if ((next >> (kBound + 1)) != 0) return UINT32_MAX;
    each_successor(p, pc, [&](std::uint32_t to) {
      if (to >= n || (counts[to] | next) == counts[to]) return;
      counts[to] |= next;
      if (queued[to] == 0) {
        queued[to] = 1;
        work.push_back(to);
      }
    });
  }
  std::uint32_t most = 0;
  bool matched = false;
  for (std::uint32_t pc = 0; pc < n; ++pc) {
    if (p.code[pc].op != Op::match || counts[pc] == 0) continue;
    matched = true;
    most = std::max(most, static_cast<std::uint32_t>(63 - std::countl_zero(counts[pc])));
  }
  return matched ? most : UINT32_MAX;
}

}  // namespace

Prefilter analyze(const Program& program) {
  Prefilter f;
  if (program.code.empty() || program.code.size() > kMaxAnalyzed) return f;
  Closure closure(program);
  f.prefix = literal_prefix(program, closure);
  f.suffix = literal_suffix(program, closure);
  const Required required = required_bytes(program);
  f.required = required.anywhere;
  f.required_name = required.name;
  f.min_slashes = min_slashes(program);
  f.max_slashes = max_slashes(program);
  return f;
}

}  // namespace gatekit::glob::detail
