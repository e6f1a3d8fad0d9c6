// Pattern and PatternList: compile once, match without backtracking; the list runs all of
// its patterns at once through a lazily built DFA (github dialect).
#include "gatekit/glob.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>

#include "glob_dfa.hpp"
#include "glob_sieve.hpp"
#include "glob_strategy.hpp"

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
  // picomatch compiles a negated glob to ^(?!body).*$, whose `.` stops at a line
  // terminator: such a path never matches a '!' pattern there.
  if (negated_ && detail::has_js_line_terminator(path)) return false;
  return body_matches(path, stats) != negated_;
}

BodyFacts Pattern::body_facts() const {
  const auto f = detail::analyze(*program_);
  BodyFacts facts;
  facts.prefix = f.prefix;
  facts.suffix = f.suffix;
  for (std::size_t c = 0; c < 256; ++c) {
    if ((f.required[c >> 6] >> (c & 63)) & 1U) facts.required += static_cast<char>(c);
    if ((f.required_name[c >> 6] >> (c & 63)) & 1U) facts.required_in_name += static_cast<char>(c);
  }
  facts.min_slashes = f.min_slashes;
  if (f.max_slashes != UINT32_MAX) facts.max_slashes = f.max_slashes;
  return facts;
}

bool Pattern::body_may_match(std::string_view path) const {
  return detail::may_match(detail::analyze(*program_), path, detail::path_facts(path));
}

std::string_view Pattern::strategy() const {
  return dialect_ == Dialect::github ? detail::to_string(detail::strategy_of(program_->regex).kind) : "";
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

PatternList::PatternList() = default;
PatternList::~PatternList() = default;
PatternList::PatternList(PatternList&&) noexcept = default;
PatternList& PatternList::operator=(PatternList&&) noexcept = default;

PatternList::PatternList(std::vector<Pattern> patterns, Dialect dialect)
    : patterns_(std::move(patterns)), dialect_(dialect) {
  const bool friendly = dialect_ == Dialect::github &&
                        std::all_of(patterns_.begin(), patterns_.end(),
                                    [](const Pattern& p) { return p.dfa_friendly(); });
  if (friendly && !patterns_.empty()) {
    std::vector<const detail::Program*> programs;
    for (const auto& pattern : patterns_) programs.push_back(pattern.program().get());
    dfa_ = std::make_unique<detail::Dfa>(programs, kListStates);
    dfa_->amortized = true;
  }
}

std::size_t PatternList::dfa_states() const { return dfa_ ? dfa_->state_count() : 0; }
bool PatternList::pattern_by_pattern() const { return !dfa_ || list_dfa_abandoned_; }

ListVerdict PatternList::abandon_list_dfa(std::string_view path, MatchStats* stats) const {
  list_dfa_abandoned_ = true;
  return evaluate_each(path, stats);
}

ListVerdict PatternList::evaluate_each(std::string_view path, MatchStats* stats) const {
  if (!sieve_) sieve_ = std::make_unique<detail::Sieve>(patterns_, dialect_);
  return sieve_->evaluate(patterns_, path, stats);
}

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
  if (pattern_by_pattern()) return evaluate_each(path, stats);
  detail::Dfa& dfa = *dfa_;
  std::int32_t row = dfa.start;
  const auto* bytes = reinterpret_cast<const unsigned char*>(path.data());
  const std::size_t n = path.size();
  const std::int32_t* next = dfa.next.data();
  for (std::size_t i = 0; i < n; ++i) {
    std::int32_t t = next[static_cast<std::size_t>(row) + dfa.byte_class[bytes[i]]];
    if (t <= 0) {  // not built yet (kUnknown) or dead (row 0)
      if (t == detail::Dfa::kUnknown) {
        t = dfa.step(row, bytes[i]);
        if (t == detail::Dfa::kUnknown) return abandon_list_dfa(path, stats);
        next = dfa.next.data();  // the table may have grown
      }
      if (t == 0) {  // dead: no pattern can match any more
        if (stats != nullptr) stats->steps += i + 1;
        dfa.walked += i + 1;
        return {};
      }
    }
    row = t;
  }
  if (stats != nullptr) stats->steps += n;
  dfa.walked += n;
  return verdict_of_row(row);
}

ListVerdict PatternList::verdict_of_row(std::int32_t row) const {
  ListVerdict v;
  v.decisive = dfa_->decisive[dfa_->state_of(row)];
  v.included = v.decisive >= 0 && !patterns_[static_cast<std::size_t>(v.decisive)].negated();
  return v;
}

std::size_t PatternList::evaluate_lanes(const std::string_view* paths, std::size_t count, ListVerdict* out) const {
  constexpr std::size_t kLanes = 4;
  std::size_t k = 0;
  {
    detail::Dfa& dfa = *dfa_;
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
            if (t != detail::Dfa::kUnknown) return;
            t = dfa.step(r, c);
            if (t == detail::Dfa::kUnknown) {
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
      dfa.walked += i * kLanes;
      // Each lane finishes on its own from where the lock-step stopped.
      for (std::size_t j = 0; j < kLanes; ++j) {
        const auto n = paths[k + j].size();
        std::int32_t r = row[j];
        for (std::size_t q = i; q < n && r != 0 && !slow[j]; ++q) {
          std::int32_t t = dfa.next[static_cast<std::size_t>(r) + dfa.byte_class[bytes[j][q]]];
          if (t == detail::Dfa::kUnknown) {
            t = dfa.step(r, bytes[j][q]);
            if (t == detail::Dfa::kUnknown) slow[j] = true;
          }
          r = t;
        }
        dfa.walked += n > i ? n - i : 0;
        out[k + j] = slow[j] ? abandon_list_dfa(paths[k + j]) : r == 0 ? ListVerdict{} : verdict_of_row(r);
      }
      if (list_dfa_abandoned_) {
        k += kLanes;
        break;
      }
    }
  }
  return k;
}

void PatternList::evaluate_many(const std::string_view* paths, std::size_t count, ListVerdict* out,
                                MatchStats* stats) const {
  // Step counts need each walk's own end: with stats, or without a DFA, one path at a time.
  std::size_t k = !pattern_by_pattern() && stats == nullptr ? evaluate_lanes(paths, count, out) : 0;
  for (; k < count; ++k) out[k] = evaluate(paths[k], stats);
}

void PatternList::evaluate_many(const PathBatch& batch, ListVerdict* out) const {
  const auto& paths = batch.paths();
  const std::size_t count = paths.size();
  std::size_t k = pattern_by_pattern() ? 0 : evaluate_lanes(paths.data(), count, out);
  for (; k < count && !pattern_by_pattern(); ++k) out[k] = evaluate(paths[k]);
  if (k == count) return;
  if (!sieve_) sieve_ = std::make_unique<detail::Sieve>(patterns_, dialect_);
  sieve_->evaluate(patterns_, batch, k, out);
}

// ---- PathBatch ------------------------------------------------------------------------

PathBatch::PathBatch(std::vector<std::string_view> paths) : paths_(std::move(paths)) {}
PathBatch::~PathBatch() = default;
PathBatch::PathBatch(PathBatch&&) noexcept = default;
PathBatch& PathBatch::operator=(PathBatch&&) noexcept = default;

const detail::Batch& PathBatch::facts() const {
  if (!facts_) facts_ = std::make_unique<detail::Batch>(detail::make_batch(paths_));
  return *facts_;
}

}  // namespace gatekit::glob
