#pragma once
// The committed tree, tested away from the developer's checkout: a refusal of uncommitted
// work, and a temporary detached worktree removed whatever happens.
#include <filesystem>
#include <string>
#include <vector>

#include "gatekit/files.hpp"
#include "gatekit/git.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {

// Tracked files with changes (staged or not) and untracked files that are not ignored, as
// `git status` names them (controls shown as escapes), sorted.
Result<std::vector<std::string>> uncommitted_files(const Git& git);
// A bad_input Failure naming the files (at most 20, then how many more):
// "the working tree has uncommitted changes: a.py, b.md; gpu-gate run tests the committed
// tree: commit (or stash) them first".
void refuse_uncommitted_changes(const Git& git);

// The worktrees of this repository that a gpu-gate run made and left behind (the run was
// killed: SIGKILL, a crash, the machine's power), removed with their folders; returns their
// paths. Only gpu-gate's own are touched: a linked worktree (never the main one) at
// FOLDER/tree whose FOLDER is named gatekit-gate-* and holds gpu-gate's lock file
// (kRunLock); and only when nobody holds that lock, which a live run holds for its whole life
// and the system lets go of when the run ends, however it ends.
std::vector<std::string> remove_stale_worktrees(const Git& git, Files& files);
inline constexpr const char* kRunLock = "gatekit-run.lock";

// `git worktree add --detach` of a commit in a fresh temporary folder (made through
// `files`), after removing the worktrees killed runs left (remove_stale_worktrees, each
// named in `log`); the folder's lock says a live run uses it. The destructor removes the
// worktree and the folder (and prunes git's record of it).
class GateWorktree {
 public:
  GateWorktree(const Git& git, Files& files, const std::string& commit, Workflow* log = nullptr);
  ~GateWorktree();
  GateWorktree(const GateWorktree&) = delete;
  GateWorktree& operator=(const GateWorktree&) = delete;
  const std::filesystem::path& tree() const { return tree_; }             // the checkout
  const std::filesystem::path& scratch() const { return folder_.path(); }  // beside it: reports, logs

 private:
  const Git& git_;
  TempFolder folder_;
  FileLock lock_;
  std::filesystem::path tree_;
};

}  // namespace gatekit::gpu_gate
