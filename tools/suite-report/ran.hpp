#pragma once
// Did the leg run anything? A GPU runner that lost its GPUs skips every test and pytest
// exits 0; that is "could not evaluate", never a pass. The rule lives in the core.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/exit_code.hpp"
#include "gatekit/ran_rule.hpp"

namespace gatekit::suite_report {

// The rule is the core's, shared with gpu-gate's GPU passes (gatekit/ran_rule.hpp).
using gatekit::decide_ran;
using gatekit::group_skip_reasons;
using gatekit::ImportProblem;
using gatekit::RanFacts;
using gatekit::RanVerdict;
using gatekit::SkipReason;

// The Python that checks one import: the module arrives as sys.argv[1], never as code.
inline constexpr const char* kImportCheck = "import importlib, sys; importlib.import_module(sys.argv[1])";

}  // namespace gatekit::suite_report
