#pragma once
// Decides from a change's files which test suites must run; fails open.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/github.hpp"
#include "gatekit/process.hpp"
#include "gatekit/workflow.hpp"

int path_classifier_main(int argc, const char* const* argv);

namespace gatekit::path_classifier {

struct Options {
  std::string rules_file;  // --rules FILE
  std::string rules_text;  // --rules-text YAML (the action's inline input)
  std::string dialect;     // --dialect, overrides the rules' own
  std::string files;       // --files FILE or '-' (stdin): newline- or NUL-separated paths
  std::string base;        // --base REV: git diff instead of the event's source
  std::string head;        // --head REV (default HEAD, or the event's head)
  std::string repo_dir = ".";
  std::string remote = "origin";
  bool no_fetch = false;
  std::string event;       // --event NAME (default GITHUB_EVENT_NAME)
  std::string event_path;  // --event-path FILE (default GITHUB_EVENT_PATH)
  std::string repo;        // --repo OWNER/NAME (default GITHUB_REPOSITORY)
  std::int64_t pr = 0;     // --pr N: the pull request to list through the API
  int api_budget_s = 120;  // --api-budget: total seconds for API retries before failing open
  std::string explain;     // --explain PATH
  // --list-files none|json|csv|shell|escape: `<filter>_count` (and `_files`) outputs as
  // dorny/paths-filter writes them; empty: none of them (the tool's own outputs only).
  std::string list_files;
  std::string predicate_quantifier;  // --predicate-quantifier some|every, overrides the rules'
  int initial_fetch_depth = 50;      // --initial-fetch-depth: first fetch depth, doubled until the merge base
  bool match_batch = false;  // hidden: "pattern<TAB>path" lines -> 1/0/E (differential tests)
};

// Everything with a side effect, so the whole flow runs in tests with fakes.
struct Context {
  const Environment& env;
  Workflow& workflow;
  ProcessRunner& runner;
  Clock& clock;
  std::function<std::unique_ptr<github::HttpTransport>()> make_transport;
  std::istream& in;
  std::ostream& out;
};

ExitCode run_gate(const Options& options, Context& context);
ExitCode run_match_batch(const Options& options, std::istream& in, std::ostream& out);

}  // namespace gatekit::path_classifier
