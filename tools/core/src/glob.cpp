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

bool Pattern::matches(std::string_view path, MatchStats* stats) const {
  if (dialect_ == Dialect::github) return body_matches(path, stats) != negated_;
  // picomatch.test: an empty input never matches; an input equal to the glob always does.
  if (path.empty()) return false;
  if (path == text_) return true;
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
  std::vector<std::vector<std::uint32_t>> states;  // consuming and accepting pcs, sorted
  std::vector<int> decisive;                       // per state: the last pattern accepting, -1 none
  std::vector<std::int32_t> next;                  // states x classes
  std::unordered_map<std::string, std::int32_t> index;
  std::vector<std::uint32_t> stamp;
  std::uint32_t generation = 0;
  std::int32_t start = 0;

  explicit Dfa(const std::vector<Pattern>& patterns) {
    std::vector<const std::bitset<256>*> sets;
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      const auto& prog = *patterns[k].program();
      const auto base = static_cast<std::uint32_t>(code.size());
      starts.push_back(base);
      for (const auto& inst : prog.code) {
        Inst m{inst.op, inst.a, inst.b, nullptr, -1};
        if (inst.op == detail::Op::split || inst.op == detail::Op::jump) { m.a += base; m.b += base; }
        if (inst.op == detail::Op::byte_set) {
          m.set = &prog.sets[inst.a];
          sets.push_back(m.set);
        }
        if (inst.op == detail::Op::match) m.owner = static_cast<int>(k);
        code.push_back(m);
      }
    }
    compute_classes(sets);
    stamp.assign(code.size(), 0);
    intern({});  // state 0: dead
    start = intern(closure(starts));
  }

  // Refines the partition of the 256 bytes by every set (a byte's signature is which sets
  // hold it); signatures are hashed incrementally to keep this O(sets x 256).
  void compute_classes(const std::vector<const std::bitset<256>*>& sets) {
    std::array<std::uint64_t, 256> signature{};
    std::uint64_t salt = 0x9e3779b97f4a7c15ull;
    std::vector<const std::bitset<256>*> seen;
    for (const auto* s : sets) {
      if (std::find_if(seen.begin(), seen.end(), [&](const auto* x) { return *x == *s; }) != seen.end()) continue;
      seen.push_back(s);
      salt = salt * 6364136223846793005ull + 1442695040888963407ull;
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

  std::vector<std::uint32_t> closure(const std::vector<std::uint32_t>& seeds) {
    ++generation;
    std::vector<std::uint32_t> out, stack(seeds.rbegin(), seeds.rend());
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

  std::int32_t intern(std::vector<std::uint32_t> pcs) {
    std::string key(reinterpret_cast<const char*>(pcs.data()), pcs.size() * sizeof(std::uint32_t));
    if (auto it = index.find(key); it != index.end()) return it->second;
    if (states.size() >= kMaxStates) return kUnknown;
    int best = -1;
    for (auto pc : pcs)
      if (code[pc].op == detail::Op::match) best = std::max(best, code[pc].owner);
    const auto id = static_cast<std::int32_t>(states.size());
    states.push_back(std::move(pcs));
    decisive.push_back(best);
    next.resize(next.size() + classes, kUnknown);
    index.emplace(std::move(key), id);
    return id;
  }

  // The state after byte `c`, or kUnknown when the cache is full.
  std::int32_t step(std::int32_t s, unsigned char c) {
    const std::size_t cls = byte_class[c];
    const auto slot = next[static_cast<std::size_t>(s) * classes + cls];
    if (slot != kUnknown) return slot;
    std::vector<std::uint32_t> seeds;
    for (auto pc : states[static_cast<std::size_t>(s)]) {
      const auto& inst = code[pc];
      if (inst.op == detail::Op::byte_set && inst.set->test(c)) seeds.push_back(pc + 1);
    }
    auto t = intern(closure(seeds));
    if (t != kUnknown) next[static_cast<std::size_t>(s) * classes + cls] = t;
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

std::size_t PatternList::dfa_states() const { return dfa_ ? dfa_->states.size() : 0; }

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
  std::int32_t s = dfa.start;
  const std::size_t classes = dfa.classes;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto c = static_cast<unsigned char>(path[i]);
    std::int32_t t = dfa.next[static_cast<std::size_t>(s) * classes + dfa.byte_class[c]];
    if (t == Dfa::kUnknown) {
      t = dfa.step(s, c);
      if (t == Dfa::kUnknown) return evaluate_slow(path, stats);
    }
    s = t;
    if (s == 0) {  // dead: no pattern can match any more
      if (stats != nullptr) stats->steps += i + 1;
      return {};
    }
  }
  if (stats != nullptr) stats->steps += path.size();
  ListVerdict v;
  v.decisive = dfa.decisive[static_cast<std::size_t>(s)];
  v.included = v.decisive >= 0 && !patterns_[static_cast<std::size_t>(v.decisive)].negated();
  return v;
}

}  // namespace gatekit::glob
