#pragma once
// The comparison of this run with its baseline, streamed (`suite-report growth`): the
// baseline's tests go in first, then this run's cases one by one, each answered as it comes
// (the test's first case? a new test?). Neither report is held: per test only a compact entry
// (identity, collision check, this run's seconds: 32 bytes, in blocks that grow without
// copying) and a 4-byte slot of the index, and 4 bytes per case of this run (its test: the
// next baseline's identities and whole seconds in report order, and a later pass that names
// the slowest new tests, without hashing again). Never an id: a report of a million tests
// compared with its baseline of a million takes some 50 MB.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "gatekit/result.hpp"
#include "growth.hpp"

namespace gatekit::suite_report {

// A vector in fixed blocks: growing never copies, nor holds the old and the new storage at once.
template <class T>
class Blocks {
 public:
  T& operator[](std::size_t i) { return blocks_[i >> kShift][i & kMask]; }
  const T& operator[](std::size_t i) const { return blocks_[i >> kShift][i & kMask]; }
  void push_back(const T& value) {
    if ((size_ & kMask) == 0) blocks_.push_back(std::make_unique<T[]>(kBlock));
    (*this)[size_++] = value;
  }
  std::size_t size() const { return size_; }

 private:
  static constexpr std::size_t kShift = 14;
  static constexpr std::size_t kBlock = std::size_t{1} << kShift;
  static constexpr std::size_t kMask = kBlock - 1;
  std::vector<std::unique_ptr<T[]>> blocks_;
  std::size_t size_ = 0;
};

class GrowthTally {
 public:
  // A baseline test, before any of this run's: true when new, false when added before (a
  // JUnit baseline that reports it twice: its seconds add up). An Error (could_not_evaluate)
  // when a different test has the same 128-bit identity.
  Result<bool> add_base(const TestIdentity& id, double seconds);

  // A case of this run, in report order. An Error (could_not_evaluate) when a different test
  // of this run has the same 128-bit identity; one with the identity of a different baseline
  // test is counted, and result() says growth cannot be compared.
  struct Seen {
    bool first = false;  // the test's first case in this run
    bool added = false;  // a test the baseline has not
  };
  Result<Seen> add_now(const TestIdentity& id, double seconds);

  // The k-th case (0-based) of this run: its test's identity, the test's seconds (all its
  // cases'), and whether the case is the test's first.
  struct Case {
    TestIdentity id;
    double seconds = 0;
    bool first = false;
  };
  Case case_at(std::size_t k) const;

  std::size_t base_tests() const { return base_count_; }
  std::size_t tests() const { return tests_; }  // of this run
  double seconds() const { return seconds_; }
  // Some test of this run was reported more than once (its seconds changed after its first case).
  bool repeats() const { return repeats_; }
  // A baseline test that none of this run's cases (so far) is.
  bool removed(const TestIdentity& id) const;

  // The comparison, as compare() makes it from two snapshots; an Error (could_not_evaluate)
  // when a test of this run has the identity of a different baseline test.
  Result<GrowthResult> result(const Thresholds& thresholds) const;

 private:
  struct Entry {
    std::uint64_t hi = 0, lo = 0, check = 0;
    double seconds = 0;  // this run's
  };
  static constexpr std::uint8_t kInBase = 1, kInNow = 2;
  static constexpr std::uint32_t kFirst = 0x80000000u;
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  std::uint32_t find(const TestIdentity& id) const;  // the entry, or kNone
  // find() for a case of this run, trying first the baseline test after the one the last case
  // found: a report lists its tests in the order of the last one (the suite's collection
  // order), so most lookups then read the entries in order and never the index.
  std::uint32_t find_now(const TestIdentity& id) const;
  std::uint32_t append(const TestIdentity& id, std::uint8_t flags, double seconds, bool indexed);
  std::uint32_t first_of_now(const TestIdentity& id, double seconds, bool indexed);
  std::uint32_t tag_of(const TestIdentity& id) const;  // the slot's bits above the entry's
  void place(const TestIdentity& id, std::uint32_t entry);
  void grow_index();

  Blocks<Entry> entries_;        // the baseline's tests first (base_count_), then this run's new ones
  Blocks<std::uint8_t> flags_;   // per entry: kInBase, kInNow
  Blocks<std::uint32_t> first_;  // per new entry (from base_count_): the ordinal of its first case
  Blocks<std::uint32_t> cases_;  // per case of this run: its entry, | kFirst for the test's first case
  // Open addressing by identity (linear probing from the low bits of `hi`), at most half full.
  // A slot is 0 when free, else entry + 1 in its low index_bits_ bits (the index has 2^index_bits_
  // slots, more than there are entries) and above them a tag, the top bits of the test's `lo`:
  // a probe passes over another test's slot without reading its entry (a cache miss each, in a
  // table of a million tests), unless their tags agree (1 in 2^11 at a million tests).
  std::vector<std::uint32_t> slots_;
  unsigned index_bits_ = 0;
  // This run's tests with the identity of a different baseline test (then never compared).
  std::unordered_map<TestIdentity, std::uint32_t, TestIdentityHash, TestIdentityKeyEqual> collided_;
  std::size_t base_count_ = 0, tests_ = 0;
  std::size_t next_base_ = 0;  // find_now()'s first guess
  double base_seconds_ = 0, seconds_ = 0;
  bool repeats_ = false;
  std::string collision_;  // the first such collision, for result()
};

// The first `limit` new tests in a summary's order (slowest first, then report order), with
// their display names, kept while this run is read: exact when no test repeats (a repeat's
// seconds are only whole at the end).
class SlowestNew {
 public:
  explicit SlowestNew(std::size_t limit) : limit_(limit) {}
  // Offers a new test at its first case; `display` is made only when it is kept.
  template <class Display>
  void offer(const TestIdentity& id, double seconds, std::size_t ordinal, const Display& display) {
    if (limit_ == 0) return;
    if (kept_.size() == limit_ && !better(seconds, ordinal, kept_.front())) return;
    push({seconds, ordinal, id, display()});
  }
  Names names() const;

 private:
  struct Kept {
    double seconds = 0;
    std::size_t ordinal = 0;
    TestIdentity id;
    std::string name;
  };
  static bool better(double seconds, std::size_t ordinal, const Kept& other) {
    return seconds != other.seconds ? seconds > other.seconds : ordinal < other.ordinal;
  }
  void push(Kept kept);
  std::size_t limit_;
  std::vector<Kept> kept_;  // a heap: the one a better test displaces on top
};

}  // namespace gatekit::suite_report
