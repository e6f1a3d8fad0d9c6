#pragma once
// The selection file: each CI leg's pytest marker expression, the contexts that run the
// costly `nightly` tests, the docs tests of a docs-only change, the skip reasons that mean
// "this test needs a device", and the growth thresholds. Workflows and every subcommand read
// this one file, so no marker expression is written twice. Schema: docs/actions/suite-report.md.
// Read by suite-report and by gpu-gate (its `gate` and `gate-full` contexts).
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit {
class Files;
}

namespace gatekit::selection {

// The contexts a selection is asked for: pull requests and merge queues (pr), pushes to
// the main branch (main), the daily schedule (daily), and gpu-gate's regular and full runs.
inline constexpr std::array<std::string_view, 5> kContexts{"pr", "main", "daily", "gate", "gate-full"};

enum class Device { cpu, gpu };

struct Leg {
  std::string name;
  std::string markers;  // pytest -m expression, before the nightly rule is applied
  Device device = Device::cpu;
  std::vector<std::string> imports;  // modules the leg's optional extras provide (`ran` imports them)
};

struct DeviceSkip {
  std::string reason;  // a fragment of a skip message, matched case-insensitively
  std::string marker;  // the marker such a test should carry
};

struct DocsTests {
  std::string leg;      // the leg that runs them on a docs-only change
  std::string variant;  // the one matrix value of that leg that runs them; "" = every value
  std::string markers;  // the expression that selects them
  int variant_line = 0;    // where `variant` is written (1-based; 0: not written)
  int variant_column = 0;
};

struct Selection {
  std::string origin;
  std::string nightly_marker = "nightly";
  std::vector<std::string> nightly_contexts{"daily", "gate-full"};
  std::vector<Leg> legs;
  std::optional<DocsTests> docs;
  std::vector<DeviceSkip> device_skips;
  std::vector<std::string> paths;  // what pytest collects; empty: pytest's testpaths
  long notice_tests = 100;
  double notice_seconds = 60;

  const Leg* find_leg(std::string_view name) const;
  bool runs_nightly(std::string_view context) const;
};

// The skip reasons used when the file has no `device-skips`.
std::vector<DeviceSkip> default_device_skips();

// Usage errors listing every problem, "file:line:col: field: message" per line. A file that
// cannot be read through `files` is a usage error too: "PATH: cannot read file".
Result<Selection> load_selection_text(const std::string& text, const std::string& origin);
Result<Selection> load_selection_file(const Files& files, const std::string& path);

// ---- pure decisions ------------------------------------------------------------------

// The leg's expression in a context: `(markers) and not nightly` where nightly tests do not
// run, the markers alone where they do.
std::string leg_expression(const Selection& selection, const Leg& leg, std::string_view context);
// What every leg together must cover in a context: `not nightly`, or "" (every test).
std::string universe_expression(const Selection& selection, std::string_view context);
std::string docs_expression(const Selection& selection, std::string_view context);

// "" when a documentation-only change runs the docs tests on some job of the docs leg's
// matrix, whose values are `variants`; else why not, located at `docs.variant`:
// "suite.yml:21:12: docs.variant: '3.13' is none of the matrix values (3.10, 3.11, 3.12): a
// documentation-only change would run the docs tests on no job". No docs tests, no variant
// (every job runs them) or no values given: "".
std::string docs_variant_problem(const Selection& selection, const std::vector<std::string>& variants);

bool known_context(std::string_view context);
// A leg's name: letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64
// characters (it names files and artifacts, such as suite-report's `<leg>-shard-K-attemptA`).
bool is_leg_name(std::string_view name);
// The context of a GitHub Actions run: pull_request(_target) and merge_group -> pr, push and
// workflow_dispatch -> main, schedule -> daily. An Error (usage) outside Actions or for an
// event gatekit does not map.
Result<std::string> context_from_event(std::string_view event_name);

// Why an expression or a name cannot be used, or "" when it can. Expressions reach pytest as
// the value of -m, so one that could read as an option (a leading '-') or carries control
// characters is refused; so is one whose parentheses do not balance (`not gpu) or (gpu`
// would escape the `(...) and not nightly` wrapper).
std::string expression_problem(std::string_view expression);

}  // namespace gatekit::selection
