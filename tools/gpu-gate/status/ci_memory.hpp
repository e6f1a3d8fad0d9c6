#pragma once
// CI's memory of failures, the side effects (ci_status_decide.hpp has the rules): reading the
// statuses GitHub keeps, once per commit, and marking the passes a failure outranks.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/github.hpp"
#include "status/ci_status_decide.hpp"

namespace gatekit::gpu_gate {

// Who posts, where: the statuses gatekit's own poster (their `creator`) posted with `context`.
struct Poster {
  std::string repository;  // owner/name
  std::string login;       // the creator of gatekit's statuses
  std::string context;     // "gate/gpu"
  std::string target_url;  // the link of a mark
};

// The statuses of commits, read once each (GET .../commits/{sha}/statuses).
class PostedStatuses {
 public:
  PostedStatuses(Poster poster, Context& context) : poster_(std::move(poster)), context_(context) {}
  // The newest failure the poster posted on `commit` (marks only for `trees`).
  std::optional<std::int64_t> failure_on(const std::string& commit, const std::set<std::string>& trees);
  const Poster& poster() const { return poster_; }

 private:
  Poster poster_;
  Context& context_;
  std::map<std::string, std::vector<github::CommitStatus>> read_;
};

// Keeps the newest failure remembered on `commits`, or marked on the record commit of the pass
// that counts, unless a newer result counts (keep_newer_failure).
void remember(PostedStatuses& posted, CiDecision& decision, const StatusInput& input,
              const std::vector<std::string>& commits, const std::set<std::string>& trees);

// Posts a mark on the record commit of each pass the decision's failure outranks
// (outranked_passes), so that deleting the failure's ref never lets them count again for its
// tree, whatever commit carries that tree.
void mark_outranked(const Poster& poster, Context& context, const CiDecision& decision, const StatusInput& input);

}  // namespace gatekit::gpu_gate
