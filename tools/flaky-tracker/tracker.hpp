#pragma once
// Applies runs to the flaky-test issues through an IssueStore. One issue per test, found by
// its marker; every write is preceded by a fresh read and followed by a check that it stuck,
// so that two overlapping runs neither open two issues for one test nor lose a count:
// - before opening an issue the list is read again; after opening it, the list is read once
//   more and, when another run opened one for the same test at the same time, the higher
//   number is closed as a duplicate and this run's flake goes to the lower one;
// - after writing a state, the issue is read back; when the run's key is not in it (another
//   run wrote in between), the run is applied again on top (up to 3 tries).
// The workflow's concurrency group (docs/actions/flaky-tracker.md) keeps such races rare.
//
// Only issues opened by the tool's own identity are adopted (`creators`: the logins GitHub
// records as an issue's opener, which nobody else can claim). An issue with the label and a
// copied marker opened by anyone else is left alone: never read, written, commented on or
// closed; the test gets an issue of the tool's own.
//
// A comment whose POST fails does not stop the run: it is kept (unposted()) for the journal,
// and the next run posts it once it has read the issues (post_journalled). The journal is
// state read back from a cache: a journalled comment is posted only to an issue this run
// finds itself, in the listing, as the issue of the same test (adopted, its marker naming
// that test); any other is not posted (set aside, for the log) and is listed in refused().
//
// An issue is acted on only for the test its marker names: when an issue read again before
// a write (or after it) names another test than the one it was listed for (its body was
// edited in between), it is left alone for that test (changed()) and the test is handled as
// one without an issue.
//
// The side effects of one run are bounded: at most `max_new_issues` issues are opened (each
// costs a creation and two listings). A flake of a test that has no issue yet, past that
// number, is deferred: take_deferred() hands it to the caller, who keeps it in the journal
// for a later run, so 2000 new flaky tests open a few issues a run, never 2000 at once.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "batch.hpp"
#include "issue_store.hpp"

namespace gatekit::flaky_tracker {

// An issue with the label and a marker that the tool's identity did not open.
struct NotAdopted {
  std::int64_t number = 0;
  std::string id;
  std::string author;
  std::string url;
};

struct GivenUp {
  PendingComment comment;
  std::string reason;
};

// An issue listed as a test's whose marker, read again, names another test.
struct Changed {
  std::int64_t number = 0;
  std::string id;      // the test it was listed for
  std::string marker;  // the test its marker names now ("" : none)
  std::string url;
};

struct Change {
  std::string id;
  std::int64_t number = 0;
  std::string url;
  std::string what;  // "opened", "commented", "reopened", "green 3 of 20", "closed: ..."
};

class Tracker {
 public:
  // creators: the logins whose issues are adopted (not empty).
  Tracker(IssueStore& store, std::string label, Rules rules, std::vector<std::string> creators,
          std::size_t max_new_issues = kNoLimit);
  static constexpr std::size_t kNoLimit = static_cast<std::size_t>(-1);
  // Reads every issue with the label; closes open duplicates (same marker, higher number).
  Status load();
  // After load(): posts the comments an earlier run could not, oldest first, each only to an
  // issue the listing shows as the issue of the comment's test (adopted, its marker naming
  // that test, a duplicate included); any other is not posted and is listed in refused(),
  // with the reason. The first that fails in a way that may pass later (the API down) stops
  // it: it and the rest stay in unposted(). One that GitHub refuses for good (404, 410, 422:
  // the issue is gone, or refuses the comment) is given up and listed in given_up().
  Status post_journalled(const std::vector<PendingComment>& comments);
  // Journalled comments this run did not get to (load() failed): kept for the journal, first.
  void keep_unposted(const std::vector<PendingComment>& comments);
  // An error of kind bad_input: the issue this run opened was opened by a login that is not
  // among the creators (the tool would never find it again); the run stops.
  Status apply(const Batch& batch);
  // The flakes apply() deferred since the last call (the new-issue bound was reached), in order.
  std::vector<Flake> take_deferred();
  std::size_t opened() const { return opened_; }                // issues this tracker opened
  std::size_t deferred() const { return deferred_count_; }      // flakes deferred in all
  bool was_deferred(const std::string& id) const;               // a flake of the test was
  const std::vector<Change>& changes() const { return changes_; }
  // The tracked issues as the run left them, by test id.
  const std::map<std::string, StoredIssue>& issues() const { return index_; }
  const std::vector<PendingComment>& unposted() const { return unposted_; }
  const std::string& comment_error() const { return comment_error_; }  // the first failed POST's
  const std::vector<GivenUp>& given_up() const { return given_up_; }
  const std::vector<NotAdopted>& not_adopted() const { return not_adopted_; }
  const std::vector<GivenUp>& refused() const { return refused_; }
  const std::vector<Changed>& changed() const { return changed_; }

 private:
  Status reindex(const std::vector<StoredIssue>& issues, bool close_duplicates);
  Status apply_one(const std::string& id, Observation observation, const FlakeText* text, const RunStamp& run);
  // Returns true when done (opened), false when the test turned out to have an issue already.
  Result<bool> open_issue(const std::string& id, const FlakeText* text, const RunStamp& run);
  Result<bool> write_state(const std::string& id, Observation observation, const FlakeText* text, const RunStamp& run);
  bool adopted(const StoredIssue& issue) const;
  // Why a journalled comment may not be posted to the issue it names ("" : it may).
  std::string refusal(const PendingComment& comment) const;
  // The issue, read again for `id`, names another test: left alone (changed()); returns false.
  bool leave_changed(const std::string& id, const StoredIssue& issue);
  // Posts a comment; when the POST fails, keeps it for the journal and goes on.
  void post(std::int64_t number, const std::string& id, std::string body);

  IssueStore& store_;
  std::string label_;
  Rules rules_;
  std::map<std::string, StoredIssue> index_;
  std::vector<std::string> creators_;
  std::vector<Change> changes_;
  std::vector<PendingComment> unposted_;
  std::string comment_error_;
  std::vector<GivenUp> given_up_;
  std::vector<NotAdopted> not_adopted_;
  // Every issue of the last listings that carries a marker: the test it names, its opener.
  struct Listed {
    std::string id;
    std::string author;
    bool adopted = false;
  };
  std::map<std::int64_t, Listed> listed_;
  bool loaded_ = false;
  std::vector<GivenUp> refused_;
  std::vector<Changed> changed_;
  std::size_t max_new_ = kNoLimit;
  std::size_t opened_ = 0;
  std::vector<Flake> deferred_;
  std::vector<std::string> deferred_ids_;
  std::size_t deferred_count_ = 0;
};

}  // namespace gatekit::flaky_tracker
