#pragma once
// The `needs` context as GitHub serialises it with toJSON(needs):
//   {"changes": {"result": "success", "outputs": {"cpu": "true"}}, "tests": {...}}
// Read strictly: anything else is "could not evaluate", never a guess.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit::matrix_aggregator {

enum class JobResult { success, failure, cancelled, skipped };

std::string_view to_string(JobResult r);
std::optional<JobResult> parse_job_result(std::string_view text);

struct NeededJob {
  std::string name;                            // the job id, the key in `needs`
  JobResult result = JobResult::skipped;
  std::map<std::string, std::string> outputs;  // job outputs are always strings
};

struct Needs {
  std::vector<NeededJob> jobs;  // in input order (the order of the job's `needs:` list)
  const NeededJob* find(std::string_view name) const;
};

// A job name as messages show it: one line (controls as escapes), at most 200 characters and
// "..." (names come from the workflow, but the input may be garbage).
std::string shown_name(std::string_view name);

// `source` names where the text came from ("GATEKIT_NEEDS", a file path) for messages.
// Errors: invalid JSON, not an object, empty, a job that is not an object, a missing or
// unknown `result`, `outputs` that is not an object of strings. The text must be at most
// kMaxNeedsBytes (job outputs are capped at 1 MB per job by GitHub; this is far above).
inline constexpr std::size_t kMaxNeedsBytes = 64u * 1024u * 1024u;
Result<Needs> parse_needs(std::string_view text, std::string_view source);

}  // namespace gatekit::matrix_aggregator
