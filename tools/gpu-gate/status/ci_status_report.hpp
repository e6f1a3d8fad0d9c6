#pragma once
// What `ci-status` tells people: the step outputs, the job summary and the log lines. Pure
// formatting of a finished decision (ci_status_decide.hpp); outside text (machine ids, GPU
// names, signer principals) reaches Markdown only through the core's text helpers.
#include <string>
#include <vector>

#include "status/ci_status_decide.hpp"

namespace gatekit::gpu_gate {

struct CiReport {
  std::string context;          // "gate/gpu"
  std::string sha;              // the head commit the status is for
  std::string pr;               // "" when not known
  std::string base;             // the branch the trusted files came from
  std::string default_branch;   // the repository's default branch ("" = not known)
  std::string refused_base;     // a candidate base that was not trusted ("" = none)
  std::string allowed_signers;  // its path ("" = results not verified)
  std::string gpu_filter;       // "'gpu' of main:.github/gatekit/filters.yml" ("" = none read)
  bool posted = false;
  bool post_asked = false;
  CiDecision decision;
};

// name -> value, in the order they are written.
std::vector<std::pair<std::string, std::string>> ci_outputs(const CiReport& report);
// The job summary: the status as a heading, a table of the facts, the results considered
// (machine, commit, verdict, age, signature) and, for an inherited status, the walk as a
// mermaid chart.
std::string ci_summary(const CiReport& report, std::int64_t now);

}  // namespace gatekit::gpu_gate
