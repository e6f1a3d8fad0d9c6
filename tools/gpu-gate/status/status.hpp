#pragma once
// Gathering what decide_status needs from a clone, shared by `status` and the CI side:
// one git process per kind of query, whatever the number of result refs or commits (the
// commit, the ref listing, the record sizes and messages, the first-parent walk with
// changed paths, the change since the merge base). The walk takes a second process only
// past 64 docs-only commits.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "gatekit/git.hpp"
#include "gatekit/result.hpp"
#include "scope/gpu_filter.hpp"
#include "status/status_decide.hpp"

namespace gatekit::gpu_gate {

struct StatusQuery {
  std::string rev = "HEAD";  // the commit asked about (for CI: the pull request's head)
  std::string base;          // the base branch or commit ("" = no "no code change" check)
  std::int64_t now = 0;      // seconds since the epoch
  int max_walk = 1000;       // commits of the first-parent walk at most
  // true: stop once the exact tree has a result that counts (the walk and the merge base are
  // then skipped). A caller that drops records afterwards (the CI side, by signature) sets
  // false, so the inherited candidates and the "no code change" fact are gathered too.
  bool stop_at_exact = true;
  // The trusted base's configuration digest a result must carry (StatusInput::config_digest).
  std::optional<std::string> config_digest;
  // The path gate's GPU filter, read with the configuration (gpu_filter.hpp): a step or a
  // change that needs no GPU result by it lends a result like a docs-only one. nullptr: none.
  const GpuFilter* gpu_filter = nullptr;
};

struct GatheredStatus {
  StatusInput input;
  std::string commit;                 // rev resolved
  std::vector<std::string> rejected;  // result refs left out (unparsable, mismatched), one line each
  int git_processes = 0;              // for the benchmark and the log
};

Result<GatheredStatus> gather_status_input(Git& git, const Config& config, const StatusQuery& query);

}  // namespace gatekit::gpu_gate
