#pragma once
// The aggregator's verdict: a pure function from the `needs` context, the policy given on
// the command line and (optionally) the run's legs to one verdict with a reason per job.
// The rules are documented in docs/actions/matrix-aggregator.md ("Rules").
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gatekit/result.hpp"
#include "legs.hpp"
#include "needs.hpp"

namespace gatekit::matrix_aggregator {

// How a job gated by several outputs of the gate reads them.
enum class Combine {
  any,  // tests=cpu|docs: needed when any of them is 'true'; skipped legitimately only when all are 'false'
  all,  // tests=cpu&gpu: needed only when all of them are 'true'; skipped legitimately when one is 'false'
};

// One `--gated` item: a job and the gate outputs that say whether it was needed.
struct GatedJob {
  GatedJob() = default;
  GatedJob(std::string job_, std::string output) : job(std::move(job_)), outputs{std::move(output)} {}
  GatedJob(std::string job_, std::vector<std::string> outputs_, Combine combine_)
      : job(std::move(job_)), outputs(std::move(outputs_)), combine(combine_) {}
  std::string job;
  std::vector<std::string> outputs;  // one or more
  Combine combine = Combine::any;    // one output: either reads the same
  // As written: "cpu", "cpu|docs", "cpu&gpu".
  std::string spelled() const;
  bool operator==(const GatedJob&) const = default;
};

struct Policy {
  std::optional<std::string> gate;                          // the path-gate job, e.g. "changes"
  std::vector<GatedJob> gated;                              // e.g. tests=cpu, tests=cpu|docs
  std::set<std::string> allowed_failures;                   // failure/cancelled do not vote
  std::set<std::string> allowed_skips;                      // skipped does not vote
  std::vector<std::string> allowed_leg_failures;            // leg check names (jobs API)
};

enum class Role { gate, gated, other };

struct JobVerdict {
  std::string job;
  Role role = Role::other;
  std::string gate_output;                // gated jobs: the outputs as written, e.g. "cpu" or "cpu|docs"
  std::vector<std::string> gate_outputs;  // gated jobs: the outputs, e.g. {"cpu", "docs"}
  Combine gate_combine = Combine::any;
  std::string gate_value;   // gated jobs, when the gate succeeded: "true" (needed) or "false"
  std::string gate_said;    // gated jobs, when the gate succeeded: each output's value, "cpu=false docs=true"
  JobResult result = JobResult::skipped;
  bool passed = false;
  std::string reason;  // starts with one of the documented words: "passed", "skipped (...)", "did not pass (...)"
  std::string detail;  // optional explanation (why, and what to check)
};

struct Decision {
  bool passed = false;
  std::vector<JobVerdict> jobs;       // every job of `needs`, in input order
  std::vector<std::string> warnings;  // passes that deserve a look
  bool legs_used = false;             // a verdict depended on the jobs API
};

// The policy on its own: usage errors (exit 2), which no `needs` could make right: a gated
// job without a gate, the gate named as a gated job or in an allowance, a job gated twice, one
// output named twice for a job.
Status check_policy(const Policy& policy);

// Errors: check_policy's (exit 2); then, exit 3 (the options and `needs` disagree, or the
// gate's answer is unusable): a job named in the policy is not in `needs`; the gate
// succeeded but lacks a named output or its value is not 'true'/'false'; a failed job could
// only be excused through allowed-leg-failures but the legs could not be listed.
Result<Decision> decide(const Needs& needs, const Policy& policy, const LegView& legs);

// A list option in alls-green's forms: text that starts with '[' is a JSON array of strings,
// anything else names separated by commas or newlines (blanks and empty entries dropped).
// Usage errors (bad_input), as for parse_gated: an array that is not valid JSON, an item
// that is not a string, a name that is not a job id (quotes left over, spaces, ...).
// docs/actions/matrix-aggregator.md, "List inputs".
Result<std::vector<std::string>> parse_name_list(std::string_view text, std::string_view option);
// `JOB=OUTPUT` items, separated by commas, spaces or newlines; OUTPUT may name several outputs
// joined by '|' (any) or by '&' (all), never both. Usage errors (bad_input) otherwise.
Result<std::vector<GatedJob>> parse_gated(std::string_view text);

}  // namespace gatekit::matrix_aggregator
