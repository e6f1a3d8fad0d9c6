#include <iostream>

#include "gatekit/cli.hpp"
#include "path-classifier.hpp"

int path_classifier_main(int argc, const char* const* argv) {
  using namespace gatekit;
  path_classifier::Options o;
  return run_tool(
      {"path-classifier", "Decides from a change's files which test suites must run; fails open."}, argc, argv,
      [&](CLI::App& app) {
        app.footer(
            "Changed files come from --files, else --base/--head (git diff), else the workflow event: the GitHub "
            "API for pull requests (token from GITHUB_TOKEN or GH_TOKEN), git for merge_group (and push with "
            "`non-pr-events: evaluate`). Any listing problem makes every filter relevant (fail open, exit 0); "
            "invalid rules exit 2. See docs/actions/path-gate.md.");
        auto* rules = app.add_option("--rules", o.rules_file, "Rules file (YAML)")->check(CLI::ExistingFile);
        auto* text = app.add_option("--rules-text", o.rules_text, "Rules as inline YAML");
        rules->excludes(text);
        app.add_option("--dialect", o.dialect, "Glob dialect: github (default) or picomatch")
            ->check(CLI::IsMember({"github", "picomatch"}));
        app.add_option("--files", o.files, "Changed paths, one a line or NUL-separated; '-' reads stdin");
        app.add_option("--base", o.base, "Compare with git: base revision (three-dot, from the merge base)");
        app.add_option("--head", o.head, "Compare with git: head revision (default HEAD)");
        app.add_option("--repo-dir", o.repo_dir, "The git clone to diff in");
        app.add_option("--remote", o.remote, "Remote to fetch missing history from");
        app.add_flag("--no-fetch", o.no_fetch, "Never fetch; fail open when history is missing");
        app.add_option("--event", o.event, "Event name (default: GITHUB_EVENT_NAME)");
        app.add_option("--event-path", o.event_path, "Event payload file (default: GITHUB_EVENT_PATH)");
        app.add_option("--repo", o.repo, "owner/name (default: GITHUB_REPOSITORY)");
        app.add_option("--pr", o.pr, "Pull request number (default: from the event)");
        app.add_option("--api-budget", o.api_budget_s, "Seconds the API calls may take, retries included, "
                                                        "before the gate fails open")
            ->check(CLI::Range(1, 3600));
        app.add_option("--explain", o.explain, "Print how every pattern treats PATH, then exit");
        app.add_flag("--match-batch", o.match_batch, "Match 'pattern<TAB>path' lines from stdin")->group("");
      },
      [&](CLI::App&) -> ExitCode {
        if (o.match_batch) return path_classifier::run_match_batch(o, std::cin, std::cout);
        SystemEnvironment env;
        auto workflow = make_workflow(env, std::cout);
        SystemProcessRunner runner;
        SystemClock clock;
        path_classifier::Context context{env, *workflow, runner, clock, [] { return github::make_curl_transport(); },
                                         std::cin, std::cout};
        auto code = path_classifier::run_gate(o, context);
        if (!workflow->write_errors().empty())
          throw ToolError{ExitCode::could_not_evaluate,
                          "the decision could not be reported: " + workflow->write_errors().front() +
                              " (downstream jobs would read empty outputs)"};
        return code;
      });
}
