// The pattern-by-pattern matcher (see glob_sieve.hpp).
#include "glob_sieve.hpp"

#include <algorithm>
#include <atomic>
#include <bit>

namespace gatekit::glob::detail {

namespace {

// Walks `bytes` from `row`: the row reached, 0 when dead, Dfa::kUnknown when the automaton is full.
// The inner loop only reads the table: it leaves for a transition not built yet (or the dead
// row), and takes the table's pointers again after step(), which may grow it.
std::int32_t walk(Dfa& dfa, std::int32_t row, std::string_view bytes) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* end = b + bytes.size();
  while (b != end && row > 0) {
    const std::int32_t* next = dfa.next.data();
    const std::uint8_t* cls = dfa.byte_class.data();
    const std::int32_t* at = next + row;  // the current row of the table
    std::int32_t t = 0;
    for (; b != end; ++b) {
      t = at[cls[*b]];
      if (t <= 0) break;
      at = next + t;
    }
    row = static_cast<std::int32_t>(at - next);
    if (b == end) break;
    if (t == Dfa::kUnknown) t = dfa.step(row, *b);
    row = t;
    ++b;
  }
  return row;
}

// The row of a pattern's DFA after a folder ("a/b/"), or 0 when no name can finish a match
// from there (the name after the folder has no '/').
std::int32_t folder_row(Dfa& dfa, std::string_view folder) {
  std::int32_t after = walk(dfa, dfa.start, folder);
  if (after > 0 && !dfa.can_finish_in_name(after)) after = 0;
  return after;
}

// What every match of a `components` pattern has, read off its components (the same facts
// analyze() works out from an automaton, at a fraction of the cost): the bytes of its literal
// pieces; a '/' when it has two components or more; the last component's bytes in the name
// when it ends the path; its first piece as a prefix unless `**/` starts it, its last piece
// as a suffix unless `/**` ends it; at least one '/' between components (and one more before
// a trailing `/**`), and at most that many when no `**` can add one.
Prefilter components_prefilter(const Strategy& s) {
  Prefilter f;
  auto add = [](ByteMask& mask, const std::string& bytes) {
    for (const unsigned char c : bytes) mask[c >> 6] |= std::uint64_t{1} << (c & 63);
  };
  std::size_t count = 0;
  for (const auto& group : s.groups)
    for (const auto& glob : group) {
      ++count;
      for (const auto& piece : glob) add(f.required, piece);
    }
  f.min_slashes = static_cast<std::uint32_t>(count - 1 + (s.tail_any ? 1 : 0));
  if (f.min_slashes > 0) add(f.required, "/");
  if (!s.lead_dirs && !s.tail_any && s.groups.size() == 1) f.max_slashes = f.min_slashes;
  if (!s.tail_any) {
    for (const auto& piece : s.groups.back().back()) add(f.required_name, piece);
    f.suffix = s.groups.back().back().back();
  }
  if (!s.lead_dirs) f.prefix = s.groups.front().front().front();
  return f;
}

}  // namespace

Batch make_batch(const std::vector<std::string_view>& paths) {
  static std::atomic<std::uint64_t> serials{0};
  Batch batch;
  batch.serial = ++serials;
  batch.facts.reserve(paths.size());
  batch.folder.reserve(paths.size());
  batch.folder_length.reserve(paths.size());
  std::unordered_map<std::string_view, std::uint32_t> numbers;
  batch.component_first.reserve(paths.size());
  batch.component_count.reserve(paths.size());
  for (const auto path : paths) {
    batch.facts.push_back(path_facts(path));
    batch.component_first.push_back(static_cast<std::uint32_t>(batch.component_starts.size()));
    batch.component_count.push_back(static_cast<std::uint32_t>(cut_components(path, batch.component_starts)));
    const auto slash = path.rfind('/');
    if (slash == std::string_view::npos) {
      batch.folder.push_back(Batch::kNoFolder);
      batch.folder_length.push_back(0);
      continue;
    }
    const auto next = static_cast<std::uint32_t>(numbers.size());
    batch.folder.push_back(numbers.try_emplace(path.substr(0, slash + 1), next).first->second);
    batch.folder_length.push_back(static_cast<std::uint32_t>(slash + 1));
  }
  batch.folders = numbers.size();
  return batch;
}

Sieve::Sieve(const std::vector<Pattern>& patterns, Dialect dialect) : dialect_(dialect) {
  ones_.reserve(patterns.size());
  for (const auto& pattern : patterns) {
    One one;
    const Program& program = *pattern.program();
    if (!program.sieve_shared) {
      auto shared = std::make_shared<SieveShared>();
      if (pattern.dialect() == Dialect::github) shared->strategy = strategy_of(pattern.regex());
      // A `components` pattern's facts come from its components; any other's from its automaton.
      shared->filter = shared->strategy.kind == Strategy::Kind::components ? components_prefilter(shared->strategy)
                                                                           : analyze(program);
      program.sieve_shared = std::move(shared);
    }
    one.shared = program.sieve_shared.get();
    one.strategy = &one.shared->strategy;
    one.friendly = pattern.dfa_friendly();
    ones_.push_back(one);
  }
  build_tables(patterns);
}

void Sieve::build_tables(const std::vector<Pattern>& patterns) {
  const std::size_t n = patterns.size();
  words_ = (n + 63) / 64;
  needs_byte_.assign(256 * words_, 0);
  needs_name_byte_.assign(256 * words_, 0);
  slashes_ok_.assign(kSlashBuckets * words_, 0);
  first_ok_.assign(257 * words_, 0);
  last_ok_.assign(257 * words_, 0);
  any_first_.assign(words_, 0);
  any_last_.assign(words_, 0);
  always_.assign(words_, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const Prefilter& f = ones_[k].shared->filter;
    const std::size_t word = k / 64;
    const std::uint64_t bit = std::uint64_t{1} << (k % 64);
    // Only the bytes a pattern requires (few) touch the tables.
    for (std::size_t q = 0; q < 4; ++q) {
      // (A byte needed in the name is needed anywhere: candidates() counts on it.)
      for (std::uint64_t bits = f.required[q] | f.required_name[q]; bits != 0; bits &= bits - 1)
        needs_byte_[(q * 64 + static_cast<std::size_t>(std::countr_zero(bits))) * words_ + word] |= bit;
      for (std::uint64_t bits = f.required_name[q]; bits != 0; bits &= bits - 1)
        needs_name_byte_[(q * 64 + static_cast<std::size_t>(std::countr_zero(bits))) * words_ + word] |= bit;
    }
    for (std::size_t s = 0; s < kSlashBuckets; ++s) {
      // The last bucket stands for every count above 32: allowed when the pattern has no upper bound.
      const bool ok = s + 1 < kSlashBuckets ? s >= f.min_slashes && s <= f.max_slashes
                                            : f.max_slashes == UINT32_MAX;
      if (ok) slashes_ok_[s * words_ + word] |= bit;
    }
    // A literal prefix (suffix) allows one first (last) byte; without one, any byte, and
    // the empty path (index 256): such patterns are in any_first_ (any_last_) instead.
    if (f.prefix.empty()) any_first_[word] |= bit;
    else first_ok_[static_cast<unsigned char>(f.prefix.front()) * words_ + word] |= bit;
    if (f.suffix.empty()) any_last_[word] |= bit;
    else last_ok_[static_cast<unsigned char>(f.suffix.back()) * words_ + word] |= bit;
    if (dialect_ == Dialect::picomatch) {
      if (patterns[k].negated()) always_[word] |= bit;
      exact_.try_emplace(patterns[k].text(), k);
    }
    for (std::size_t q = 0; q < 4; ++q) {
      needed_[q] |= f.required[q] | f.required_name[q];
      needed_name_[q] |= f.required_name[q];
    }
  }
}

std::uint64_t Sieve::candidates(std::size_t w, std::string_view path, const PathFacts& facts) const {
  const std::size_t bucket = std::min<std::size_t>(facts.slashes, kSlashBuckets - 1);
  const std::size_t first = path.empty() ? 256 : static_cast<unsigned char>(path.front());
  const std::size_t last = path.empty() ? 256 : static_cast<unsigned char>(path.back());
  // One word of patterns, kept in a register while the bytes the path lacks rule them out.
  std::uint64_t bits = row(slashes_ok_, bucket)[w] & (row(first_ok_, first)[w] | any_first_[w]) &
                       (row(last_ok_, last)[w] | any_last_[w]);
  for (std::size_t q = 0; q < 4 && bits != 0; ++q) {
    for (std::uint64_t absent = needed_[q] & ~facts.bytes[q]; absent != 0; absent &= absent - 1)
      bits &= ~row(needs_byte_, q * 64 + static_cast<std::size_t>(std::countr_zero(absent)))[w];
    // A byte a pattern needs in the name it needs anywhere: only the path's bytes that its
    // name lacks are left to rule out.
    for (std::uint64_t absent = needed_name_[q] & facts.bytes[q] & ~facts.name_bytes[q]; absent != 0;
         absent &= absent - 1)
      bits &= ~row(needs_name_byte_, q * 64 + static_cast<std::size_t>(std::countr_zero(absent)))[w];
  }
  return bits;
}

void Sieve::enter_folder(std::string_view path) {
  const auto slash = path.rfind('/');
  folder_length_ = slash == std::string_view::npos ? 0 : slash + 1;
  folder_ = nullptr;
  if (folder_length_ == 0) return;
  const auto name = path.substr(0, folder_length_);
  if (auto it = folders_.find(name); it != folders_.end()) {
    folder_ = &it->second;
    return;
  }
  if (folders_.size() >= kMaxFolders) folders_.clear();
  folder_ = &folders_.try_emplace(std::string(name), ones_.size(), kNotYet).first->second;
}

Dfa& Sieve::own_dfa(const Pattern& pattern, std::size_t k) {
  auto& own = ones_[k].shared->dfa;
  if (!own) own = std::make_unique<Dfa>(std::vector<const Program*>{pattern.program().get()}, kMaxStates);
  return *own;
}

bool Sieve::finish_walk(const Pattern& pattern, std::size_t k, std::int32_t at, std::string_view path,
                        std::size_t folder_length, MatchStats* stats) {
  Dfa& dfa = *ones_[k].shared->dfa;
  if (at > 0) {
    at = walk(dfa, at, path.substr(folder_length));
    if (stats != nullptr) stats->steps += path.size() - folder_length;  // at most: a walk may stop at a dead state
  }
  if (at == Dfa::kUnknown) return pattern.body_matches(path, stats);
  return at != 0 && dfa.decisive[dfa.state_of(at)] >= 0;
}

// Whether pattern k's string test decides a path with these facts (a `components` pattern
// decides only a path of whole components; the automaton, any other).
bool Sieve::string_test_decides(std::size_t k, const PathFacts& facts) const {
  const Strategy::Kind kind = ones_[k].strategy->kind;
  return kind != Strategy::Kind::none && (kind != Strategy::Kind::components || facts.whole_components);
}

// The prefilter of a candidate pattern. In the github dialect every pattern the sieve runs is
// a candidate (candidates()): its bytes, '/' count bucket and first and last bytes passed
// already, so only its whole prefix and suffix are left, and the '/' count past the last
// bucket. A picomatch '!' pattern is run without being one.
bool Sieve::passes(const Prefilter& f, std::string_view path, const PathFacts& facts) const {
  if (dialect_ != Dialect::github) return may_match(f, path, facts);
  return path.starts_with(f.prefix) && path.ends_with(f.suffix) &&
         (facts.slashes < kSlashBuckets - 1 || facts.slashes >= f.min_slashes);
}

bool Sieve::body_matches(const Pattern& pattern, std::size_t k, std::string_view path, const PathFacts& facts,
                         MatchStats* stats) {
  One& one = ones_[k];
  if (string_test_decides(k, facts)) return one.strategy->matches(path);
  if (!passes(one.shared->filter, path, facts)) return false;
  if (!one.friendly) return pattern.body_matches(path, stats);
  Dfa& dfa = own_dfa(pattern, k);
  std::int32_t at = dfa.start;
  if (folder_ != nullptr) {
    std::int32_t& after = (*folder_)[k];
    if (after == kNotYet) {
      after = folder_row(dfa, path.substr(0, folder_length_));
      if (stats != nullptr) stats->steps += folder_length_;
    }
    at = after;
  }
  return finish_walk(pattern, k, at, path, folder_ != nullptr ? folder_length_ : 0, stats);
}

SieveShared& Sieve::shared_for(std::size_t k, const Batch& batch) {
  SieveShared& shared = *ones_[k].shared;
  if (shared.batch_serial != batch.serial) {  // another batch: its numbers mean other folders
    shared.batch_serial = batch.serial;
    std::vector<std::int32_t>().swap(shared.folder_rows);
    shared.folder_fits = nullptr;
  }
  if (batch.folders <= kMaxFolders) {  // each kept memo is allocated when first needed
    if (shared.strategy.ends_with_name()) {
      if (shared.folder_fits == nullptr) {
        auto& fits = batch.fits[shared.strategy.folder_key];
        if (fits.empty()) fits.assign(batch.folders, kNotYet);
        shared.folder_fits = &fits;
      }
    } else if (shared.strategy.kind != Strategy::Kind::components && shared.folder_rows.empty()) {
      shared.folder_rows.assign(batch.folders, kNotYet);
    }
  }
  return shared;
}

// A `components` pattern on batch path i (made of whole components): one that ends with the
// name checks its folder once per folder of the batch (`shared.folder_fits`), then the name.
bool components_match(const Strategy& strategy, std::string_view path, const Batch& batch, std::size_t i,
                      SieveShared& shared) {
  const std::uint32_t* starts = batch.component_starts.data() + batch.component_first[i];
  const std::size_t n = batch.component_count[i];
  if (!strategy.ends_with_name()) return strategy.components_match(path, starts, n);
  const bool memo = batch.folder[i] != Batch::kNoFolder && shared.folder_fits != nullptr;
  std::int32_t fits = memo ? (*shared.folder_fits)[batch.folder[i]] : Sieve::kNotYet;
  if (fits == Sieve::kNotYet) {
    fits = strategy.folder_fits(path, starts, n - 1) ? 1 : 0;
    if (memo) (*shared.folder_fits)[batch.folder[i]] = fits;
  }
  return fits == 1 && strategy.name_fits(path.substr(starts[n - 1]));
}

bool Sieve::batch_body_matches(const Pattern& pattern, std::size_t k, std::string_view path, const Batch& batch,
                               std::size_t i) {
  One& one = ones_[k];
  const PathFacts& facts = batch.facts[i];
  // A string test is exact and as cheap as the rest of the prefilter: it goes first.
  if (string_test_decides(k, facts)) {
    return one.strategy->kind == Strategy::Kind::components
               ? components_match(*one.strategy, path, batch, i, shared_for(k, batch))
               : one.strategy->matches(path);
  }
  if (!passes(one.shared->filter, path, facts)) return false;
  if (!one.friendly) return pattern.body_matches(path, nullptr);
  Dfa& dfa = own_dfa(pattern, k);
  std::vector<std::int32_t>& folder_rows = shared_for(k, batch).folder_rows;
  if (batch.folder[i] == Batch::kNoFolder || folder_rows.empty())
    return finish_walk(pattern, k, dfa.start, path, 0, nullptr);
  std::int32_t& after = folder_rows[batch.folder[i]];
  const std::size_t folder_length = batch.folder_length[i];
  if (after == kNotYet) after = folder_row(dfa, path.substr(0, folder_length));
  return finish_walk(pattern, k, after, path, folder_length, nullptr);
}

ListVerdict Sieve::evaluate(const std::vector<Pattern>& patterns, std::string_view path, MatchStats* stats) {
  if (dialect_ == Dialect::picomatch && path.empty()) return {};  // picomatch never matches ""
  const PathFacts facts = path_facts(path);
  enter_folder(path);
  return decide(patterns, path, facts,
                [&](std::size_t k) { return body_matches(patterns[k], k, path, facts, stats); });
}

void Sieve::evaluate(const std::vector<Pattern>& patterns, const PathBatch& batch, std::size_t from,
                     ListVerdict* out) {
  const Batch& facts = batch.facts();
  const auto& paths = batch.paths();
  for (std::size_t i = from; i < paths.size(); ++i) {
    if (dialect_ == Dialect::picomatch && paths[i].empty()) {
      out[i] = {};
      continue;
    }
    out[i] = decide(patterns, paths[i], facts.facts[i],
                    [&](std::size_t k) { return batch_body_matches(patterns[k], k, paths[i], facts, i); });
  }
}

template <class Body>
ListVerdict Sieve::decide(const std::vector<Pattern>& patterns, std::string_view path, const PathFacts& facts,
                          Body&& body) {
  ListVerdict v;
  if (dialect_ == Dialect::github) {  // the last matching pattern decides: words from the last, each worked out when reached
    for (std::size_t w = words_; w-- > 0;) {
      for (std::uint64_t bits = candidates(w, path, facts); bits != 0; bits &= ~(std::uint64_t{1} << (63 - std::countl_zero(bits)))) {
        const std::size_t k = w * 64 + static_cast<std::size_t>(63 - std::countl_zero(bits));
        if (body(k)) {
          v.decisive = static_cast<int>(k);
          v.included = !patterns[k].negated();
          return v;
        }
      }
    }
    return v;
  }
  // picomatch: each pattern on its own (Pattern::matches); the first that matches decides. A
  // path spelled like a pattern matches it whatever its body says; a '!' pattern matches when
  // its body does not, except on a path with a line break.
  std::size_t exact = patterns.size();
  if (auto it = exact_.find(path); it != exact_.end()) exact = it->second;
  const bool line_break = has_js_line_terminator(path);
  for (std::size_t w = 0; w < words_; ++w) {
    for (std::uint64_t bits = candidates(w, path, facts) | always_[w]; bits != 0; bits &= bits - 1) {
      const std::size_t k = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      if (k >= exact) break;
      const Pattern& p = patterns[k];
      if (p.negated() ? !line_break && !body(k) : body(k)) {
        v.decisive = static_cast<int>(k);
        v.included = true;
        return v;
      }
    }
  }
  if (exact < patterns.size()) {
    v.decisive = static_cast<int>(exact);
    v.included = true;
  }
  return v;
}

}  // namespace gatekit::glob::detail
