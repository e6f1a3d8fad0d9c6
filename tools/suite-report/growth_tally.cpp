#include "growth_tally.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace gatekit::suite_report {

namespace {

std::string shared_identity(const TestIdentity& id) { return id.hex().substr(0, 32); }

Error same_identity_in_run(const TestIdentity& id) {
  return could_not_evaluate("two different tests share the 128-bit identity " + shared_identity(id) +
                            ": growth cannot tell them apart");
}

// More entries than a 1 GiB report can hold cases: the index's 31 bits never run out first.
constexpr std::size_t kMaxEntries = 0x7FFFFFFFu;

}  // namespace

std::uint32_t GrowthTally::tag_of(const TestIdentity& id) const {
  // The top bits of `lo`, which the slot's position (the low bits of `hi`) does not use.
  const unsigned bits = 32 - index_bits_;
  return bits == 0 ? 0 : static_cast<std::uint32_t>(id.lo >> (64 - bits)) << index_bits_;
}

std::uint32_t GrowthTally::find(const TestIdentity& id) const {
  if (slots_.empty()) return kNone;
  const std::size_t mask = slots_.size() - 1;
  const std::uint32_t entry_mask = static_cast<std::uint32_t>(mask);
  const std::uint32_t tag = tag_of(id);
  for (std::size_t at = static_cast<std::size_t>(id.hi) & mask;; at = (at + 1) & mask) {
    const std::uint32_t slot = slots_[at];
    if (slot == 0) return kNone;
    if ((slot & ~entry_mask) != tag) continue;  // another test: its entry is not read
    const std::uint32_t entry = (slot & entry_mask) - 1;
    const Entry& held = entries_[entry];
    if (held.hi == id.hi && held.lo == id.lo) return entry;
  }
}

std::uint32_t GrowthTally::find_now(const TestIdentity& id) const {
  // A baseline test is one entry (add_base), and no test of this run is indexed under its
  // identity: an entry before base_count_ that holds the identity is the one find() gives.
  if (next_base_ < base_count_) {
    const Entry& next = entries_[next_base_];
    if (next.hi == id.hi && next.lo == id.lo) return static_cast<std::uint32_t>(next_base_);
  }
  return find(id);
}

void GrowthTally::place(const TestIdentity& id, std::uint32_t entry) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = static_cast<std::size_t>(id.hi) & mask;
  while (slots_[at] != 0) at = (at + 1) & mask;
  slots_[at] = tag_of(id) | (entry + 1);
}

void GrowthTally::grow_index() {
  const std::size_t size = slots_.empty() ? 1024 : slots_.size() * 2;
  const std::uint32_t old_mask = static_cast<std::uint32_t>(slots_.size() - 1);
  std::vector<std::uint32_t> old = std::exchange(slots_, std::vector<std::uint32_t>(size, 0));
  index_bits_ = static_cast<unsigned>(std::countr_zero(size));
  for (const std::uint32_t slot : old) {
    if (slot == 0) continue;
    const std::uint32_t entry = (slot & old_mask) - 1;
    const Entry& held = entries_[entry];
    place({held.hi, held.lo, held.check}, entry);
  }
}

std::uint32_t GrowthTally::append(const TestIdentity& id, std::uint8_t flags, double seconds, bool indexed) {
  if (entries_.size() >= kMaxEntries) fail_could_not_evaluate("more tests than growth can count");
  const auto entry = static_cast<std::uint32_t>(entries_.size());
  entries_.push_back({id.hi, id.lo, id.check, seconds});
  flags_.push_back(flags);
  if (!indexed) return entry;
  if ((entries_.size() + 1) * 2 > slots_.size()) grow_index();  // at most half full
  place(id, entry);
  return entry;
}

Result<bool> GrowthTally::add_base(const TestIdentity& id, double seconds) {
  const std::uint32_t found = find(id);
  if (found != kNone) {
    if (entries_[found].check != id.check) return same_identity_in_run(id);
    base_seconds_ += seconds;
    return false;
  }
  append(id, kInBase, 0, true);
  ++base_count_;
  base_seconds_ += seconds;
  return true;
}

std::uint32_t GrowthTally::first_of_now(const TestIdentity& id, double seconds, bool indexed) {
  const std::uint32_t entry = append(id, kInNow, seconds, indexed);
  first_.push_back(static_cast<std::uint32_t>(cases_.size()));
  ++tests_;
  return entry;
}

Result<GrowthTally::Seen> GrowthTally::add_now(const TestIdentity& id, double seconds) {
  seconds_ += seconds;
  std::uint32_t entry = kNone;
  bool first = true;
  // (No lookup of the collided ones while there are none: nearly always, for every case.)
  if (const auto it = collided_.empty() ? collided_.end() : collided_.find(id); it != collided_.end()) {
    entry = it->second;
    if (entries_[entry].check != id.check) return same_identity_in_run(id);
  } else {
    entry = find_now(id);
  }
  if (entry < base_count_) next_base_ = entry + 1;
  if (entry == kNone) {
    entry = first_of_now(id, seconds, true);
  } else if (entries_[entry].check != id.check) {
    if ((flags_[entry] & kInNow) != 0) return same_identity_in_run(id);
    // The identity of a different baseline test: counted as this run's own, never compared.
    if (collision_.empty())
      collision_ = "a test of this run and a different test of the baseline share the 128-bit identity " +
                   shared_identity(id) + ": growth cannot tell them apart";
    entry = first_of_now(id, seconds, false);
    collided_.emplace(id, entry);
  } else if ((flags_[entry] & kInNow) != 0) {
    entries_[entry].seconds += seconds;
    repeats_ = true;
    first = false;
  } else {
    flags_[entry] = static_cast<std::uint8_t>(flags_[entry] | kInNow);
    entries_[entry].seconds = seconds;
    ++tests_;
  }
  cases_.push_back(entry | (first ? kFirst : 0u));
  return Seen{first, entry >= base_count_};
}

GrowthTally::Case GrowthTally::case_at(std::size_t k) const {
  const std::uint32_t ref = cases_[k];
  const Entry& entry = entries_[ref & ~kFirst];
  return {TestIdentity{entry.hi, entry.lo, entry.check}, entry.seconds, (ref & kFirst) != 0};
}

bool GrowthTally::removed(const TestIdentity& id) const {
  const std::uint32_t entry = find(id);
  return entry != kNone && entry < base_count_ && (flags_[entry] & kInNow) == 0;
}

Result<GrowthResult> GrowthTally::result(const Thresholds& thresholds) const {
  if (!collision_.empty()) return could_not_evaluate(collision_);
  GrowthResult result;
  result.base_tests = base_count_;
  result.tests = tests_;
  result.base_seconds = base_seconds_;
  result.seconds = seconds_;
  for (std::size_t e = base_count_; e < entries_.size(); ++e) {
    const Entry& entry = entries_[e];
    result.added.push_back({TestIdentity{entry.hi, entry.lo, entry.check}, entry.seconds, first_[e - base_count_]});
    result.added_seconds += entry.seconds;
  }
  for (std::size_t e = 0; e < base_count_; ++e)
    if ((flags_[e] & kInNow) == 0) result.removed.push_back({entries_[e].hi, entries_[e].lo, entries_[e].check});
  std::sort(result.added.begin(), result.added.end(), [](const NewTest& a, const NewTest& b) {
    return a.seconds != b.seconds ? a.seconds > b.seconds : a.order < b.order;
  });
  if (static_cast<long>(result.added.size()) >= thresholds.tests) result.reached.push_back(Reached::added_tests);
  if (static_cast<long>(result.removed.size()) >= thresholds.tests) result.reached.push_back(Reached::removed_tests);
  if (result.added_seconds >= thresholds.seconds) result.reached.push_back(Reached::added_seconds);
  result.notice = !result.reached.empty();
  return result;
}

void SlowestNew::push(Kept kept) {
  // The heap's top is the worst kept: the first a better test displaces.
  const auto worse_first = [](const Kept& a, const Kept& b) { return better(a.seconds, a.ordinal, b); };
  if (kept_.size() == limit_) {
    std::pop_heap(kept_.begin(), kept_.end(), worse_first);
    kept_.pop_back();
  }
  kept_.push_back(std::move(kept));
  std::push_heap(kept_.begin(), kept_.end(), worse_first);
}

Names SlowestNew::names() const {
  Names names;
  for (const auto& kept : kept_) names.emplace(kept.id, kept.name);
  return names;
}

}  // namespace gatekit::suite_report
