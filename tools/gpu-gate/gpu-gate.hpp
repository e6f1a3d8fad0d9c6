#pragma once
// gpu-gate: a GPU machine tests a tree, records the result as a git ref of its own (record.hpp),
// publishes it with a plain `git push`, and CI turns the results into the `gate/gpu` commit
// status (docs/gpu-gate.md). One options struct and one run_<sub> per subcommand; cli.cpp
// only maps argv to these structs.
#include <string>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int gpu_gate_main(int argc, const char* const* argv);

namespace gatekit::gpu_gate {

// `setup [--undo]`: a plain `git push` sends the branch and this machine's results together,
// `git fetch` brings everyone's results.
struct SetupOptions {
  std::string repo_dir = ".";
  std::string config;  // "" = .github/gatekit/gpu-gate.yml in the repository (may be absent)
  std::string remote = "origin";
  bool undo = false;
};

// `run [--full] [--publish]`: one pipeline (run/run.cpp); `full` is a parameter of its plan
// (run/run_plan.hpp): which passes, which markers, which checks.
struct RunOptions {
  std::string repo_dir = ".";
  std::string config;    // "" = .github/gatekit/gpu-gate.yml in the repository (may be absent)
  int workers = 0;       // 0 = the configuration's `workers` (default: the machine's CPUs)
  std::string machine;   // "" = GATEKIT_GATE_MACHINE, else the host name (a ref name component)
  std::string remote = "origin";
  std::string base;      // the base branch for "the change since the merge base"; "" = the
                         // remote's default branch (refs/remotes/<remote>/HEAD), else main
  bool full = false;     // every test, nightly included, GPU then CPU, scope check, test map
  bool publish = false;  // push the results; with a token, dispatch the gate workflow (not with `full`)
  std::string repository;          // owner/name for the dispatch; "" = GITHUB_REPOSITORY
  std::string workflow = "gate.yml";  // the workflow file the dispatch starts
  std::string pr;                  // the dispatch's `pr` input ("" = each open pull request whose head was tested)
  bool allow_no_gpu = false;       // record a result although no GPU is visible (tests, demos):
                                   // it stays local (refs/<ns>-nogpu/) unless cpu_gate is on
};

// `status [REV] [--json]`: the status REV would get, and whether this machine's result has
// reached the remote.
struct StatusOptions {
  std::string repo_dir = ".";
  std::string config;
  std::string rev = "HEAD";
  std::string base;     // as RunOptions::base: the pull request's base, for "no code change"
  std::string machine;  // as RunOptions::machine
  std::string remote = "origin";
  bool json = false;
};

// `prune [--dry-run]`: keep the newest result of each tree and machine, delete the older ones
// and the expired ones, here and on the remote, never an expired one an open pull request's
// head relies on (checked through the GitHub API when a token is given).
struct PruneOptions {
  std::string repo_dir = ".";
  std::string config;
  std::string remote = "origin";
  std::string repository;  // owner/name for the open pull requests; "" = GITHUB_REPOSITORY
  bool dry_run = false;
};

ExitCode run_setup(const SetupOptions& options, Context& context);
ExitCode run_run(const RunOptions& options, Context& context);
ExitCode run_status(const StatusOptions& options, Context& context);
ExitCode run_prune(const PruneOptions& options, Context& context);

}  // namespace gatekit::gpu_gate
