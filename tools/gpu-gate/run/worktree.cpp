#include "run/worktree.hpp"

#include <algorithm>

#include "common.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::size_t kNamed = 20;

}  // namespace

Result<std::vector<std::string>> uncommitted_files(const Git& git) {
  auto out = git.run(GitCommand{"status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"});
  if (!out) return out.error();
  std::vector<std::string> files;
  for (const auto& entry : split_nul(*out)) {
    if (entry.size() < 4 || entry[2] != ' ') return could_not_evaluate("unexpected git status entry: " + quote_for_message(entry));
    files.push_back(visible_controls(entry.substr(3)));
  }
  std::sort(files.begin(), files.end());
  return files;
}

void refuse_uncommitted_changes(const Git& git) {
  const auto files = value_or_throw(uncommitted_files(git));
  if (files.empty()) return;
  std::vector<std::string> named(files.begin(), files.begin() + static_cast<std::ptrdiff_t>(std::min(files.size(), kNamed)));
  std::string list = join(named, ", ");
  if (files.size() > kNamed) list += " and " + std::to_string(files.size() - kNamed) + " more";
  fail_bad_input("the working tree has uncommitted changes: " + list +
                 "; gpu-gate run tests the committed tree: commit (or stash) them first");
}

namespace {

constexpr std::string_view kFolderPrefix = "gatekit-gate-";

TempFolder worktree_folder(Files& files) {
  auto folder = files.make_temp_folder(kFolderPrefix);
  if (!folder) fail_could_not_evaluate("cannot create a temporary folder for the worktree: " + folder.error().message);
  return std::move(*folder);
}

// The lock of a folder just made: nobody else can hold it.
FileLock run_lock(Files& files, const TempFolder& folder) {
  auto lock = files.try_lock(folder / kRunLock);
  if (!lock) fail(lock.error());
  if (!lock->has_value()) fail_could_not_evaluate("cannot lock " + (folder / kRunLock).string() + ": held already");
  return std::move(**lock);
}

// The linked worktrees `git worktree list` names (the main one, always first, left out).
Result<std::vector<std::filesystem::path>> linked_worktrees(const Git& git) {
  auto out = git.run(GitCommand{"worktree", "list", "--porcelain", "-z"});
  if (!out) return out.error();
  std::vector<std::filesystem::path> paths;
  bool main = true;
  for (const auto& entry : split_nul(*out)) {
    if (!entry.starts_with("worktree ")) continue;
    if (!main) paths.emplace_back(entry.substr(9));
    main = false;
  }
  return paths;
}

bool made_by_gpu_gate(const std::filesystem::path& tree, Files& files) {
  const auto folder = tree.parent_path();
  if (tree.filename() != "tree" || !folder.filename().string().starts_with(kFolderPrefix)) return false;
  auto lock = files.stat(folder / kRunLock);
  return lock && lock->is_file();
}

}  // namespace

std::vector<std::string> remove_stale_worktrees(const Git& git, Files& files) {
  std::vector<std::string> removed;
  auto trees = linked_worktrees(git);
  if (!trees) return removed;  // nothing to say: the run's own `worktree add` reports git's trouble
  for (const auto& tree : *trees) {
    if (!made_by_gpu_gate(tree, files)) continue;
    auto lock = files.try_lock(tree.parent_path() / kRunLock);
    if (!lock || !lock->has_value()) continue;  // a live run's (or unreadable): never touched
    (void)git.run(GitCommand{"worktree", "remove", "--force"}.argument("the worktree", tree.string()));
    if (auto gone = files.remove_tree(tree.parent_path()); gone) removed.push_back(tree.string());
  }
  if (!removed.empty()) (void)git.run(GitCommand{"worktree", "prune"});
  return removed;
}

GateWorktree::GateWorktree(const Git& git, Files& files, const std::string& commit, Workflow* log)
    : git_(git), folder_(worktree_folder(files)), lock_(run_lock(files, folder_)), tree_(folder_ / "tree") {
  for (const auto& stale : remove_stale_worktrees(git_, files))
    if (log != nullptr) log->log("gpu-gate: removed the worktree a killed run left: " + stale);
  if (auto ok = check_revision(commit); !ok) fail(ok.error());  // the folder goes with the throw
  auto added = git_.run(GitCommand{"worktree", "add", "--detach", "--quiet"}.argument("the worktree", tree_.string()).revision(commit));
  if (!added) fail(added.error());
}

// Cleanup commands: a cancelled run (SIGINT, SIGTERM) removes its worktree too.
GateWorktree::~GateWorktree() {
  (void)git_.run(GitCommand{"worktree", "remove", "--force"}.argument("the worktree", tree_.string()).cleanup());
  (void)folder_.remove();
  (void)git_.run(GitCommand{"worktree", "prune"}.cleanup());
}

}  // namespace gatekit::gpu_gate
