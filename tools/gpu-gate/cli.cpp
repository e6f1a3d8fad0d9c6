// gpu-gate's subcommand table: each subcommand's options mapped onto its own Options struct.
#include "scope/affected.hpp"
#include "status/ci_status.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/result.hpp"
#include "gatekit/termination.hpp"
#include "gpu-gate.hpp"
#include "scope/scope.hpp"

namespace gatekit::gpu_gate {
namespace {

// -C and --config, on every subcommand.
void add_repo_options(gatekit::CliCommand& sub, std::string& repo_dir, std::string& config) {
  sub.option("-C,--repo", repo_dir, "The clone to work in");
  sub.option("--config", config, "The gate's configuration (default: .github/gatekit/gpu-gate.yml in the clone)");
}

void configure_setup(gatekit::CliCommand& sub, SetupOptions& o) {
  add_repo_options(sub, o.repo_dir, o.config);
  sub.option("--remote", o.remote, "The remote results go to");
  sub.flag("--undo", o.undo, "Restore the clone's push and fetch settings");
}

void configure_run(gatekit::CliCommand& sub, RunOptions& o) {
  add_repo_options(sub, o.repo_dir, o.config);
  sub.option("-n,--workers", o.workers, "Test workers (default: the configuration's, else the machine's CPUs)").range(1, 1024);
  sub.option("--machine", o.machine, "This machine's id in result refs (default: GATEKIT_GATE_MACHINE, else the host name)");
  sub.option("--remote", o.remote, "The remote of --publish and of the base branch");
  sub.option("--base", o.base, "The base branch for the change since the merge base (default: the remote's default branch)");
  sub.flag("--full", o.full, "Every test, nightly included, on the GPU then the CPU; check the scope; write the test map");
  sub.flag("--publish", o.publish, "Push the results; with a token (GITHUB_TOKEN, GH_TOKEN), ask CI to refresh the status");
  sub.option("--repository", o.repository, "owner/name for the workflow dispatch (default: GITHUB_REPOSITORY)");
  sub.option("--workflow", o.workflow, "The workflow file the dispatch starts");
  sub.option("--pr", o.pr, "The pull request number the dispatch refreshes (default: each open one whose head was tested)");
  sub.flag("--allow-no-gpu", o.allow_no_gpu, "Record a result although no GPU is visible; it stays local and never counts unless the configuration sets cpu_gate");
}

void configure_status(gatekit::CliCommand& sub, StatusOptions& o) {
  add_repo_options(sub, o.repo_dir, o.config);
  sub.option("rev", o.rev, "The revision (default: HEAD)");
  sub.option("--base", o.base, "The pull request's base branch, for \"no code change\" (default: the remote's default branch)");
  sub.option("--machine", o.machine, "This machine's id (default: GATEKIT_GATE_MACHINE, else the host name)");
  sub.option("--remote", o.remote, "The remote results are published to");
  sub.flag("--json", o.json, "Print JSON (state, description, tree, source, published, ...)");
}

void configure_prune(gatekit::CliCommand& sub, PruneOptions& o) {
  add_repo_options(sub, o.repo_dir, o.config);
  sub.option("--remote", o.remote, "The remote to prune");
  sub.option("--repository", o.repository, "owner/name for the open pull requests (default: GITHUB_REPOSITORY)");
  sub.flag("--dry-run", o.dry_run, "Say what would be deleted; delete nothing");
}

void configure_ci_status(gatekit::CliCommand& sub, CiStatusOptions& o) {
  add_repo_options(sub, o.repo_dir, o.config);
  sub.option("--sha", o.sha, "The pull request's head commit (never the merge commit)");
  sub.option("--pr", o.pr, "The pull request number (its head is fetched when --sha is not given)");
  sub.option("--base", o.base,
             "The pull request's base branch: trusted only when it is the default branch or listed in the default "
             "branch's trusted_bases (default: the default branch)");
  sub.option("--context", o.context, "The commit status context");
  sub.option("--repository", o.repository, "owner/name (default: GITHUB_REPOSITORY)");
  sub.option("--remote", o.remote, "The remote the results are fetched from");
  sub.option("--allowed-signers", o.allowed_signers, "The allowed-signers file on the base branch (default: the configuration's)");
  sub.flag("--post", o.post, "Post the status (needs GITHUB_TOKEN)");
  sub.option("--target-url", o.target_url, "The status link");
  sub.option("--mode", o.mode, "Which runs may post: strict (workflow_run, workflow_dispatch) or pull-request");
  sub.option("--poster", o.poster,
             "The login that creates gatekit's statuses (the App's SLUG[bot]; pull-request mode: github-actions[bot]): "
             "only its earlier failures are remembered");
  sub.option("--merge-group", o.merge_group, "A merge queue's branch (gh-readonly-queue/...): --sha is its group commit");
}

void configure_scope(gatekit::CliCommand& sub, ScopeOptions& o) {
  add_repo_options(sub, o.repo_dir, o.config);
  sub.option("--why", o.why, "Say which rule took FILE into the scope (or that none did)");
  sub.flag("--json", o.json, "Print JSON");
}

void configure_affected(gatekit::CliCommand& sub, AffectedOptions& o) {
  add_repo_options(sub, o.repo_dir, o.config);
  sub.option("--base", o.base, "The base of the change (default: origin/HEAD, else main)");
  sub.flag("--json", o.json, "Print JSON");
}

}  // namespace
}  // namespace gatekit::gpu_gate

int gpu_gate_main(int argc, const char* const* argv) {
  using namespace gatekit::gpu_gate;
  using gatekit::subcommand;
  // A cancelled run ends in order: the worktree removed, no test process left.
  gatekit::install_termination_handlers();
  const std::vector<gatekit::Subcommand> table = {
      subcommand<SetupOptions>("setup",
                               "Make a plain `git push` send the branch and this machine's results, "
                               "and `git fetch` bring everyone's results",
                               configure_setup, run_setup),
      subcommand<RunOptions>("run", "Test the committed HEAD tree in a temporary worktree and record the result",
                             configure_run, run_run),
      subcommand<StatusOptions>("status",
                                "The status a revision would get, and whether this machine's result reached the remote",
                                configure_status, run_status),
      subcommand<PruneOptions>("prune", "Delete expired results here and on the remote, sparing open pull requests' heads",
                               configure_prune, run_prune),
      subcommand<ScopeOptions>("scope", "List the device-dependent test files the gate runs", configure_scope, run_scope),
      subcommand<AffectedOptions>("affected", "The tests a change touches, from the test map of the last full run",
                                  configure_affected, run_affected),
      subcommand<CiStatusOptions>("ci-status",
                                  "CI side: set the gate/gpu status of a pull request's head from the published results",
                                  configure_ci_status, run_ci_status, true, ci_status_no_verdict),
  };
  return gatekit::run_tool({"gpu-gate", "Tests a tree on a GPU machine and records the result as a git ref."}, argc,
                           argv, table);
}
