#pragma once
// What every subcommand shares: the selection and leg lookups, and bounded lists for
// summaries. A subcommand that cannot go on throws a Failure (gatekit/result.hpp:
// value_or_throw, fail_bad_input); the frame prints it once and exits with its kind's code.
#include <string>
#include <vector>

#include "gatekit/run_info.hpp"
#include "gatekit/result.hpp"
#include "gatekit/workflow.hpp"
#include "selection.hpp"
#include "suite-report.hpp"

namespace gatekit {
class Files;
}

namespace gatekit::suite_report {

// The selection file named by --selection, read through `files`.
Selection load_selection(const SelectionOptions& options, const Files& files);
// --context, else the context of the run's event.
std::string resolve_context(const ContextOptions& options, const RunInfo& run);
// --variants split at commas and spaces, each value checked (one line, at most 100
// characters); a usage error otherwise.
std::vector<std::string> matrix_values(const VariantsOptions& options);
// The leg named by --leg; a usage error naming the legs there are when it is missing.
const Leg& require_leg(const Selection& selection, const std::string& name);

// A Markdown bullet list of node ids as code spans, at most `limit`, then "... and N more".
std::string markdown_id_list(const std::vector<std::string>& ids, std::size_t limit = 50);
// The same for the first few of `total` ids (those a summary names; the log does not list
// the rest): at most `limit`, then "... and N more".
std::string markdown_id_list(const std::vector<std::string>& ids, std::size_t limit, std::size_t total);
// The file part of a pytest node id ("tests/a.py" of "tests/a.py::test_b"), "" when none.
std::string file_of(const std::string& node_id);

// Seconds of test time as people read them ("4m 2s"), rounded to the millisecond.
std::string duration(double seconds);
// Annotations for the first `limit` messages (GitHub shows ten per step), and a log line
// saying how many more there are.
struct Note {
  std::string file;  // repository-relative, "" when unknown
  int line = 0;
  std::string message;
};
void annotate_first(Workflow& workflow, Severity severity, const std::string& title, const std::vector<Note>& notes,
                    std::size_t limit = 10);

}  // namespace gatekit::suite_report
