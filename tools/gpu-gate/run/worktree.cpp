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

TempFolder worktree_folder(Files& files) {
  auto folder = files.make_temp_folder("gatekit-gate-");
  if (!folder) fail_could_not_evaluate("cannot create a temporary folder for the worktree: " + folder.error().message);
  return std::move(*folder);
}

}  // namespace

GateWorktree::GateWorktree(const Git& git, Files& files, const std::string& commit)
    : git_(git), folder_(worktree_folder(files)), tree_(folder_ / "tree") {
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
