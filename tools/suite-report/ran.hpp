#pragma once
// Did the leg run anything? A GPU runner that lost its GPUs skips every test and pytest
// exits 0; that is "could not evaluate", never a pass. Pure decisions.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/exit_code.hpp"

namespace gatekit::suite_report {

struct ImportProblem {
  std::string module;
  std::string error;  // the last line Python printed, e.g. "ModuleNotFoundError: No module named 'cupy'"
};

struct RanFacts {
  std::size_t cases = 0;  // test cases in the report
  std::size_t ran = 0;    // passed, failed or errored
  std::optional<std::size_t> selected;  // what the leg's expression collects (asked only for an empty report)
  std::vector<ImportProblem> imports;
};

struct RanVerdict {
  ExitCode code = ExitCode::pass;
  std::string headline;
};

RanVerdict decide_ran(const RanFacts& facts, const std::string& context);

struct SkipReason {
  std::string reason;
  std::size_t count = 0;
};
// Skip messages grouped and counted, most frequent first (ties: alphabetical), at most `limit`.
std::vector<SkipReason> group_skip_reasons(const std::vector<std::string>& messages, std::size_t limit);

// The Python that checks one import: the module arrives as sys.argv[1], never as code.
inline constexpr const char* kImportCheck = "import importlib, sys; importlib.import_module(sys.argv[1])";

}  // namespace gatekit::suite_report
