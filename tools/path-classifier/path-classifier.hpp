#pragma once
// path-classifier: decides from a change's files which test suites must run; fails open.
// Two subcommands over the core's seams (gatekit/context.hpp): the gate (gate.cpp) and the
// hidden --match-batch used by the differential glob tests (match_batch.cpp).
#include <cstdint>
#include <string>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

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

// The gate: rules, the change's files, the decision, step outputs and the job summary. Exit 0
// whenever a decision was reported (a listing problem fails open); invalid rules or options
// throw a bad_input Failure (exit 2).
ExitCode run_gate(const Options& options, Context& context);

// "pattern<TAB>path" records from context.in (lines, or NUL-terminated when the input holds a
// NUL), one answer a line to context.out: 1 (match), 0 (no match) or `E message`.
// With rules (--rules or --rules-text), each record is a path alone and the answer lists every
// filter in the rules' order, `name=1` when a pull request changing that one path makes the
// filter relevant (its patterns, `always` and change types; self-protection left out), else
// `name=0`, separated by spaces: what a tool asks to learn which filters cover its files
// (suite-report gpu-filter) without reading the rules itself.
ExitCode run_match_batch(const Options& options, Context& context);

}  // namespace gatekit::path_classifier

namespace gatekit::path_rules {
struct Rules;
}  // namespace gatekit::path_rules

namespace gatekit::path_classifier {

using path_rules::Rules;
// The rules from --rules FILE (unreadable: bad input) or --rules-text; a bad_input Failure
// naming every problem, or when neither is given.
Rules load_rules(const Options& options, Context& context);

}  // namespace gatekit::path_classifier
