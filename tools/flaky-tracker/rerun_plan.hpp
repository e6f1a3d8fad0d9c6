#pragma once
// Which failures of a run are rerun (pure).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/pytest_ids.hpp"

namespace gatekit::flaky_tracker {

struct RerunTarget {
  std::string id;   // the test's identity in reports (junit::TestCase::id)
  std::string arg;  // what the command is given: the node id, or the name for {names}
};

struct NotRerun {
  std::string id;
  std::string reason;
};

struct RerunPlan {
  std::vector<RerunTarget> targets;
  std::vector<NotRerun> not_rerun;  // failures that stand as they are
  std::string broken;               // non-empty: too many failures, nothing is rerun (why)
  std::size_t failures = 0;         // failed or erred cases in the report
};

// Rules, in order:
// - more than `max_failures` failed or erred tests: real breakage, nothing is rerun;
// - an <error> is never rerun: pytest puts collection, setup and teardown errors there, and
//   a test that could not even start is broken, not flaky;
// - a test whose id several cases of the report share, numbered (junit::Occurrences: a data
//   provider's invocations, one jest name in two files), is not rerun: the rerun's cases of
//   that name could come in another order, and one's pass would stand for another's failure;
// - a test the command cannot name safely is not rerun (unsafe_node_id / unsafe_name).
RerunPlan decide_rerun(const std::vector<junit::TestCase>& cases, int max_failures, TargetForm form);

// Why a node id cannot be given to pytest (the core's rule, shared with suite-report shard).
using pytest::unsafe_node_id;
std::optional<std::string> unsafe_name(std::string_view name);

}  // namespace gatekit::flaky_tracker
