#pragma once
// Did a test pass run anything? One rule for every tool that reads a pass as evidence:
// `suite-report ran` (a CI leg's report) and gpu-gate (its GPU passes, docs/gpu-gate.md, "What
// a pass proves"). A runner that lost its GPUs, or an environment that cannot see them, skips
// every GPU test and pytest exits 0: that is "could not evaluate", never a pass. Pure.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/exit_code.hpp"

namespace gatekit {

struct ImportProblem {
  std::string module;
  std::string error;  // the last line Python printed, e.g. "ModuleNotFoundError: No module named 'cupy'"
};

struct RanFacts {
  std::size_t cases = 0;  // the tests the evidence is about, in the report
  std::size_t ran = 0;    // of them, passed, failed or errored (not skipped)
  std::optional<std::size_t> selected;  // what the selection collects (asked only for an empty report)
  std::vector<ImportProblem> imports;   // declared imports that fail
  std::string noun = "tests";           // what the tests are, in the headline ("GPU tests")
  std::string selector = "the leg";     // what chose them ("the gate pass")
  // An empty selection (no test at all) is "nothing to run", a pass. false: the pass must
  // show tests that ran (a GPU pass without GPU tests proves nothing of the GPU).
  bool empty_is_evidence = true;
};

struct RanVerdict {
  ExitCode code = ExitCode::pass;
  std::string headline;
};

// could_not_evaluate when declared imports fail, when every test of the report was skipped,
// when the report has none but the selection has some, and (empty_is_evidence false) when
// the report has none at all; else pass, "N of M tests ran". `context` names the selection's
// context in the headline.
RanVerdict decide_ran(const RanFacts& facts, const std::string& context);

struct SkipReason {
  std::string reason;
  std::size_t count = 0;
};
// Skip messages grouped and counted, most frequent first (ties: alphabetical), at most `limit`.
std::vector<SkipReason> group_skip_reasons(const std::vector<std::string>& messages, std::size_t limit);

}  // namespace gatekit
