// Pattern and PatternList: compile once, match without backtracking; the list runs all of
// its patterns at once through a lazily built DFA (github dialect).
#include "gatekit/glob.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>

#include "glob_program.hpp"

namespace gatekit::glob {

std::string_view to_string(Dialect dialect) {
  return dialect == Dialect::github ? "github" : "picomatch";
}

std::optional<Dialect> parse_dialect(std::string_view name) {
  if (name == "github") return Dialect::github;
  if (name == "picomatch") return Dialect::picomatch;
  return std::nullopt;
}

std::string normalize_path(std::string_view path) {
  for (;;) {
    if (path.rfind("./", 0) == 0) path.remove_prefix(2);
    else if (!path.empty() && path[0] == '/') path.remove_prefix(1);
    else break;
  }
  return std::string(path);
}

std::variant<Pattern, PatternError> Pattern::compile(std::string_view text, Dialect dialect) {
  auto translated = dialect == Dialect::github ? detail::translate_github(text) : detail::translate_picomatch(text);
  if (auto* error = std::get_if<PatternError>(&translated)) return *error;
  auto& t = std::get<detail::Translation>(translated);
  auto program = detail::compile_regex(t.regex);
  if (auto* message = std::get_if<std::string>(&program))
    return PatternError{0, "cannot compile this pattern (" + *message + ")", ""};
  Pattern p;
  p.text_ = std::string(text);
  p.dialect_ = dialect;
  p.negated_ = t.negated;
  p.program_ = std::get<std::shared_ptr<const detail::Program>>(std::move(program));
  return p;
}

bool Pattern::body_matches(std::string_view path, MatchStats* stats) const {
  return detail::run_program(*program_, path, stats);
}

namespace {

// A line terminator of JavaScript's `.`: \n, \r, U+2028 or U+2029 (in UTF-8).
bool has_js_line_terminator(std::string_view path) {
  return path.find_first_of("\n\r") != std::string_view::npos ||
         path.find("\xE2\x80\xA8") != std::string_view::npos || path.find("\xE2\x80\xA9") != std::string_view::npos;
}

}  // namespace

bool Pattern::matches(std::string_view path, MatchStats* stats) const {
  if (dialect_ == Dialect::github) return body_matches(path, stats) != negated_;
  // picomatch.test: an empty input never matches; an input equal to the glob always does.
  if (path.empty()) return false;
  if (path == text_) return true;
  // picomatch compiles a negated glob to ^(?!body).*$, whose `.` stops at a line
  // terminator: such a path never matches a '!' pattern there.
  if (negated_ && has_js_line_terminator(path)) return false;
  return body_matches(path, stats) != negated_;
}

const std::string& Pattern::regex() const { return program_->regex; }
std::size_t Pattern::size() const {
  std::size_t total = 0;
  std::vector<const detail::Program*> todo{program_.get()};
  while (!todo.empty()) {
    const auto* p = todo.back();
    todo.pop_back();
    total += p->code.size();
    for (const auto& look : p->looks) todo.push_back(look.reversed.get());
  }
  return total;
}
bool Pattern::dfa_friendly() const { return !program_->has_assertions; }

std::vector<PatternWarning> lint(std::string_view text, Dialect dialect) {
  return dialect == Dialect::github ? detail::lint_github(text) : detail::lint_picomatch(text);
}

// ---- PatternList ----------------------------------------------------------------------

struct PatternList::Dfa {
  static constexpr std::size_t kMaxStates = 4096;
  static constexpr std::int32_t kUnknown = -1;

  struct Inst {
    detail::Op op;
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

  explicit Dfa(const std::vector<Pattern>& patterns) {
    std::vector<const std::bitset<256>*> sets;
    std::size_t total = 0;
    for (const auto& pattern : patterns) total += pattern.program()->code.size();
    code.reserve(total);
    starts.reserve(patterns.size());
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      const auto& prog = *patterns[k].program();
      const auto base = static_cast<std::uint32_t>(code.size());
      starts.push_back(base);
      for (const auto& inst : prog.code) {
        Inst m{inst.op, inst.a, inst.b, nullptr, -1};
        if (inst.op == detail::Op::split || inst.op == detail::Op::jump) { m.a += base; m.b += base; }
        if (inst.op == detail::Op::byte_set) m.set = &prog.sets[inst.a];
        if (inst.op == detail::Op::match) m.owner = static_cast<int>(k);
        code.push_back(m);
      }
      for (const auto& set : prog.sets) sets.push_back(&set);
    }
    compute_classes(sets);
    stamp.assign(code.size(), 0);
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

  // Refines the partition of the 256 bytes by every distinct set (a byte's signature is
  // which sets hold it); signatures are hashed incrementally to keep this O(sets x 256).
  void compute_classes(const std::vector<const std::bitset<256>*>& sets) {
    // Patterns repeat the same few sets, so each distinct set is applied once: literal
    // bytes (most sets) through a table, the few others ([^/], ., classes) by comparison.
    std::array<bool, 256> literal{};
    std::vector<const std::bitset<256>*> others;
    for (const auto* set : sets) {
      if (const int byte = detail::single_byte(*set); byte >= 0) {
        literal[static_cast<std::size_t>(byte)] = true;
      } else if (std::none_of(others.begin(), others.end(), [&](const auto* x) { return *x == *set; })) {
        others.push_back(set);
      }
    }
    std::array<std::uint64_t, 256> signature{};
    std::uint64_t salt = 0x9e3779b97f4a7c15ull;
    auto next_salt = [&] { return salt = salt * 6364136223846793005ull + 1442695040888963407ull; };
    for (std::size_t c = 0; c < 256; ++c)
      if (literal[c]) signature[c] = (signature[c] ^ next_salt()) * 0x100000001b3ull;
    for (const auto* s : others) {
      next_salt();
      for (std::size_t c = 0; c < 256; ++c)
        if (s->test(c)) signature[c] = (signature[c] ^ salt) * 0x100000001b3ull;
    }
    std::map<std::uint64_t, std::uint8_t> ids;
    for (std::size_t c = 0; c < 256; ++c) {
      auto it = ids.emplace(signature[c], static_cast<std::uint8_t>(std::min<std::size_t>(ids.size(), 255))).first;
      byte_class[c] = it->second;
    }
    classes = ids.size();
    if (classes > 255) {  // (not reachable with realistic patterns) fall back to bytes
      for (std::size_t c = 0; c < 256; ++c) byte_class[c] = static_cast<std::uint8_t>(c);
      classes = 256;
    }
  }

  // The epsilon closure of `seeds`, sorted, in scratch_out (valid until the next call).
  const std::vector<std::uint32_t>& closure(const std::vector<std::uint32_t>& seeds) {
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
      if (inst.op == detail::Op::jump) stack.push_back(inst.a);
      else if (inst.op == detail::Op::split) { stack.push_back(inst.b); stack.push_back(inst.a); }
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
    if (state_count() >= kMaxStates) {
      if (inserted) index.erase(it);
      return kUnknown;
    }
    int best = -1;
    for (auto pc : pcs)
      if (code[pc].op == detail::Op::match) best = std::max(best, code[pc].owner);
    const auto id = static_cast<std::int32_t>(state_count());
    pool.insert(pool.end(), pcs.begin(), pcs.end());
    first.push_back(pool.size());
    decisive.push_back(best);
    collision.push_back(it->second);
    it->second = id;
    next.resize(next.size() + classes, kUnknown);
    return static_cast<std::int32_t>(row_of(static_cast<std::size_t>(id)));
  }

  // The row after byte `c` from `row`, or kUnknown when the cache is full.
  std::int32_t step(std::int32_t row, unsigned char c) {
    const std::size_t slot = static_cast<std::size_t>(row) + byte_class[c];
    if (next[slot] != kUnknown) return next[slot];
    auto& seeds = scratch_seeds;
    seeds.clear();
    const auto state = state_of(row);
    for (const auto* pc = pcs_begin(state); pc != pcs_end(state); ++pc) {
      const auto& inst = code[*pc];
      if (inst.op == detail::Op::byte_set && inst.set->test(c)) seeds.push_back(*pc + 1);
    }
    auto t = intern(closure(seeds));
    if (t != kUnknown) next[slot] = t;
    return t;
  }
};

PatternList::PatternList() = default;
PatternList::~PatternList() = default;
PatternList::PatternList(PatternList&&) noexcept = default;
PatternList& PatternList::operator=(PatternList&&) noexcept = default;

PatternList::PatternList(std::vector<Pattern> patterns, Dialect dialect)
    : patterns_(std::move(patterns)), dialect_(dialect) {
  const bool friendly = dialect_ == Dialect::github &&
                        std::all_of(patterns_.begin(), patterns_.end(),
                                    [](const Pattern& p) { return p.dfa_friendly(); });
  if (friendly && !patterns_.empty()) dfa_ = std::make_unique<Dfa>(patterns_);
}

std::size_t PatternList::dfa_states() const { return dfa_ ? dfa_->state_count() : 0; }

ListVerdict PatternList::evaluate_slow(std::string_view path, MatchStats* stats) const {
  ListVerdict v;
  if (dialect_ == Dialect::github) {
    for (std::size_t k = patterns_.size(); k-- > 0;) {
      if (patterns_[k].body_matches(path, stats)) {
        v.decisive = static_cast<int>(k);
        v.included = !patterns_[k].negated();
        return v;
      }
    }
    return v;
  }
  for (std::size_t k = 0; k < patterns_.size(); ++k) {
    if (patterns_[k].matches(path, stats)) {
      v.decisive = static_cast<int>(k);
      v.included = true;
      return v;
    }
  }
  return v;
}

ListVerdict PatternList::evaluate(std::string_view path, MatchStats* stats) const {
  if (!dfa_) return evaluate_slow(path, stats);
  Dfa& dfa = *dfa_;
  std::int32_t row = dfa.start;
  const auto* bytes = reinterpret_cast<const unsigned char*>(path.data());
  const std::size_t n = path.size();
  const std::int32_t* next = dfa.next.data();
  for (std::size_t i = 0; i < n; ++i) {
    std::int32_t t = next[static_cast<std::size_t>(row) + dfa.byte_class[bytes[i]]];
    if (t <= 0) {  // not built yet (kUnknown) or dead (row 0)
      if (t == Dfa::kUnknown) {
        t = dfa.step(row, bytes[i]);
        if (t == Dfa::kUnknown) return evaluate_slow(path, stats);
        next = dfa.next.data();  // the table may have grown
      }
      if (t == 0) {  // dead: no pattern can match any more
        if (stats != nullptr) stats->steps += i + 1;
        return {};
      }
    }
    row = t;
  }
  if (stats != nullptr) stats->steps += n;
  return verdict_of_row(row);
}

ListVerdict PatternList::verdict_of_row(std::int32_t row) const {
  ListVerdict v;
  v.decisive = dfa_->decisive[dfa_->state_of(row)];
  v.included = v.decisive >= 0 && !patterns_[static_cast<std::size_t>(v.decisive)].negated();
  return v;
}

void PatternList::evaluate_many(const std::string_view* paths, std::size_t count, ListVerdict* out,
                                MatchStats* stats) const {
  constexpr std::size_t kLanes = 4;
  std::size_t k = 0;
  // Step counts need each walk's own end: with stats, or without a DFA, one path at a time.
  if (dfa_ && stats == nullptr) {
    Dfa& dfa = *dfa_;
    for (; k + kLanes <= count; k += kLanes) {
      std::array<const unsigned char*, kLanes> bytes{};
      std::array<std::int32_t, kLanes> row{};
      std::array<bool, kLanes> slow{};
      std::size_t common = paths[k].size();
      for (std::size_t j = 0; j < kLanes; ++j) {
        bytes[j] = reinterpret_cast<const unsigned char*>(paths[k + j].data());
        row[j] = dfa.start;
        common = std::min(common, paths[k + j].size());
      }
      // Lock-step over the bytes every lane has. The dead row is absorbing, so a dead lane
      // simply stays at row 0; when every lane is dead the walk stops. (Plain scalars, not
      // arrays: the rows must stay in registers.)
      const std::int32_t* next = dfa.next.data();
      const std::uint8_t* cls = dfa.byte_class.data();
      const unsigned char *b0 = bytes[0], *b1 = bytes[1], *b2 = bytes[2], *b3 = bytes[3];
      std::int32_t r0 = dfa.start, r1 = dfa.start, r2 = dfa.start, r3 = dfa.start;
      std::size_t i = 0;
      for (; i < common; ++i) {
        std::int32_t t0 = next[static_cast<std::size_t>(r0) + cls[b0[i]]];
        std::int32_t t1 = next[static_cast<std::size_t>(r1) + cls[b1[i]]];
        std::int32_t t2 = next[static_cast<std::size_t>(r2) + cls[b2[i]]];
        std::int32_t t3 = next[static_cast<std::size_t>(r3) + cls[b3[i]]];
        if ((t0 | t1 | t2 | t3) <= 0) {
          if ((t0 | t1 | t2 | t3) == 0) {  // all dead
            r0 = r1 = r2 = r3 = 0;
            break;
          }
          // Some transition is not built yet: build it (cache full: that path takes the slow way).
          auto build = [&](std::int32_t& t, std::int32_t r, unsigned char c, std::size_t j) {
            if (t != Dfa::kUnknown) return;
            t = dfa.step(r, c);
            if (t == Dfa::kUnknown) {
              slow[j] = true;
              t = 0;
            }
          };
          build(t0, r0, b0[i], 0);
          build(t1, r1, b1[i], 1);
          build(t2, r2, b2[i], 2);
          build(t3, r3, b3[i], 3);
          next = dfa.next.data();  // the table may have grown
        }
        r0 = t0;
        r1 = t1;
        r2 = t2;
        r3 = t3;
      }
      row = {r0, r1, r2, r3};
      // Each lane finishes on its own from where the lock-step stopped.
      for (std::size_t j = 0; j < kLanes; ++j) {
        const auto n = paths[k + j].size();
        std::int32_t r = row[j];
        for (std::size_t q = i; q < n && r != 0 && !slow[j]; ++q) {
          std::int32_t t = dfa.next[static_cast<std::size_t>(r) + dfa.byte_class[bytes[j][q]]];
          if (t == Dfa::kUnknown) {
            t = dfa.step(r, bytes[j][q]);
            if (t == Dfa::kUnknown) slow[j] = true;
          }
          r = t;
        }
        out[k + j] = slow[j] ? evaluate_slow(paths[k + j]) : r == 0 ? ListVerdict{} : verdict_of_row(r);
      }
    }
  }
  for (; k < count; ++k) out[k] = evaluate(paths[k], stats);
}

}  // namespace gatekit::glob
