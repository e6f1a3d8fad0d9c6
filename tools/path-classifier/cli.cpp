// Maps argv to path_classifier::Options and calls the chosen subcommand.
#include "gatekit/cli.hpp"
#include "gatekit/git.hpp"
#include "path-classifier.hpp"

namespace {

void add_options(gatekit::CliCommand& app, gatekit::path_classifier::Options& o) {
  using namespace gatekit;
  app.footer(
      "Changed files come from --files, else --base/--head (git diff), else the workflow event: the GitHub "
      "API for pull requests (token from GITHUB_TOKEN or GH_TOKEN), git for merge_group (and push with "
      "`non-pr-events: evaluate`). Any listing problem makes every filter relevant (fail open, exit 0); "
      "invalid rules exit 2. See docs/actions/path-gate.md.");
  auto rules = app.option("--rules", o.rules_file, "Rules file (YAML)");
  rules.existing_file();
  const auto text = app.option("--rules-text", o.rules_text, "Rules as inline YAML");
  rules.excludes(text);
  app.option("--dialect", o.dialect, "Glob dialect: github (default) or picomatch")
      .is_member({"github", "picomatch"});
  app.option("--files", o.files, "Changed paths, one a line or NUL-separated; '-' reads stdin");
  // Values that git could read as options are usage errors here, before any git call.
  const auto revision = [](const std::string& rev) {
    auto ok = check_revision(rev);
    return ok ? std::string() : ok.error().message;
  };
  const auto remote = [](const std::string& name) {
    auto ok = check_argument("the remote", name);
    return ok ? std::string() : ok.error().message;
  };
  app.option("--base", o.base, "Compare with git: base revision (three-dot, from the merge base)")
      .check(revision, "REV");
  app.option("--head", o.head, "Compare with git: head revision (default HEAD)").check(revision, "REV");
  app.option("--repo-dir", o.repo_dir, "The git clone to diff in");
  app.option("--remote", o.remote, "Remote to fetch missing history from").check(remote, "REMOTE");
  app.flag("--no-fetch", o.no_fetch, "Never fetch; fail open when history is missing");
  app.option("--event", o.event, "Event name (default: GITHUB_EVENT_NAME)");
  app.option("--event-path", o.event_path, "Event payload file (default: GITHUB_EVENT_PATH)");
  app.option("--repo", o.repo, "owner/name (default: GITHUB_REPOSITORY)");
  app.option("--pr", o.pr, "Pull request number (default: from the event)");
  app.option("--api-budget", o.api_budget_s,
             "Seconds the whole API listing may take (the pull request and every page of files, retries "
             "and slow answers included) before the gate fails open")
      .range(1, 3600);
  app.option("--explain", o.explain, "Print how every pattern treats PATH, then exit");
  app.option("--list-files", o.list_files,
             "Write <filter>_count and <filter>_files outputs, the list as none, json, csv, shell or escape "
             "(dorny/paths-filter's formats)")
      .is_member({"none", "json", "csv", "shell", "escape"}, true);
  app.option("--predicate-quantifier", o.predicate_quantifier,
             "How a filter's patterns combine on a path: some (default) or every")
      .is_member({"some", "every"});
  app.option("--initial-fetch-depth", o.initial_fetch_depth,
             "Depth of the first fetch when history is missing; doubled until the merge base is found")
      .range(1, 1000000);
  app.flag("--match-batch", o.match_batch, "Match 'pattern<TAB>path' lines from stdin; with --rules, the filters each path line is relevant to").group("");
}

}  // namespace

int path_classifier_main(int argc, const char* const* argv) {
  using namespace gatekit;
  path_classifier::Options o;
  return run_tool(
      {"path-classifier", "Decides from a change's files which test suites must run; fails open."}, argc, argv,
      [&](gatekit::CliCommand& app) { add_options(app, o); },
      [&](Context& context) -> ExitCode {
        return o.match_batch ? path_classifier::run_match_batch(o, context) : path_classifier::run_gate(o, context);
      });
}
