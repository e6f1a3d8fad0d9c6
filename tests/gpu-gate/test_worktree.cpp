// The gate's worktree on a real repository: the worktrees killed runs left are found and
// removed by the next run, and only those: never a live run's (its lock is held), never one
// gpu-gate did not make, never the main one.
#include <cstdlib>
#include <fstream>
#include <string>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/files.hpp"
#include "gatekit/git.hpp"
#include "run/worktree.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

int sh(const std::filesystem::path& dir, const std::string& command) {
  return std::system(("cd '" + dir.string() + "' && " + command + " >/dev/null 2>&1").c_str());
}

std::string capture(const std::filesystem::path& dir, const std::string& command) {
  const std::string out = (dir.parent_path() / "captured").string();
  REQUIRE(std::system(("cd '" + dir.string() + "' && " + command + " > '" + out + "'").c_str()) == 0);
  std::ifstream in(out);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A worktree at FOLDER/tree, as a run makes it; with the run's lock file when `locked_file`.
std::filesystem::path add_worktree(const std::filesystem::path& repo, const std::filesystem::path& folder,
                                   bool locked_file) {
  std::filesystem::create_directories(folder);
  if (locked_file) std::ofstream(folder / kRunLock) << "";
  REQUIRE(sh(repo, "git worktree add --detach --quiet '" + (folder / "tree").string() + "' HEAD") == 0);
  return folder / "tree";
}

}  // namespace

TEST_CASE("stale worktrees: a killed run's is removed, a live run's and any other are left alone") {
  testing::TempDir dir;
  const auto repo = dir / "repo";
  std::filesystem::create_directories(repo);
  REQUIRE(sh(repo, "git init -q -b main . && echo a > a.txt && git add a.txt && "
                   "git -c user.name=t -c user.email=t@example.com commit -qm base") == 0);
  const auto killed = add_worktree(repo, dir / "gatekit-gate-111", true);
  const auto live = add_worktree(repo, dir / "gatekit-gate-222", true);
  const auto older = add_worktree(repo, dir / "gatekit-gate-333", false);  // no lock file: not provably gpu-gate's
  const auto other = add_worktree(repo, dir / "feature", true);            // someone's own worktree
  RealFilesSeams seams;
  auto held = seams.files.try_lock(dir / "gatekit-gate-222" / kRunLock);  // the live run holds its lock
  REQUIRE(held.ok());
  REQUIRE(held->has_value());
  Git git(seams.processes, repo.string());

  CHECK(remove_stale_worktrees(git, seams.files) == std::vector<std::string>{killed.string()});
  CHECK_FALSE(std::filesystem::exists(dir / "gatekit-gate-111"));
  for (const auto& kept : {live, older, other}) CHECK(std::filesystem::exists(kept / "a.txt"));
  const std::string listed = capture(repo, "git worktree list --porcelain");
  CHECK(listed.find(killed.string()) == std::string::npos);
  for (const auto& kept : {live, older, other}) CHECK(listed.find("worktree " + kept.string() + "\n") != std::string::npos);

  // Once the live run is gone (its lock let go), the next sweep takes its worktree too.
  held->reset();
  CHECK(remove_stale_worktrees(git, seams.files) == std::vector<std::string>{live.string()});
  CHECK(remove_stale_worktrees(git, seams.files).empty());
  CHECK(std::filesystem::exists(repo / "a.txt"));  // the main worktree, always
}

TEST_CASE("stale worktrees: a new gate worktree removes a killed run's first and names it in the log") {
  testing::TempDir dir;
  const auto repo = dir / "repo";
  std::filesystem::create_directories(repo);
  REQUIRE(sh(repo, "git init -q -b main . && echo a > a.txt && git add a.txt && "
                   "git -c user.name=t -c user.email=t@example.com commit -qm base") == 0);
  const auto killed = add_worktree(repo, dir / "gatekit-gate-111", true);
  RealFilesSeams seams;
  Git git(seams.processes, repo.string());
  const std::string head = capture(repo, "git rev-parse HEAD").substr(0, 40);
  std::filesystem::path made;
  {
    GateWorktree worktree(git, seams.files, head, &seams.workflow);
    made = worktree.tree();
    CHECK(std::filesystem::exists(made / "a.txt"));
    CHECK(seams.workflow.lines == std::vector<std::string>{"gpu-gate: removed the worktree a killed run left: " +
                                                           killed.string()});
    // Its own lock is held while it lives: another run's sweep leaves it alone.
    CHECK(remove_stale_worktrees(git, seams.files).empty());
    CHECK(std::filesystem::exists(made / "a.txt"));
  }
  CHECK_FALSE(std::filesystem::exists(made.parent_path()));
  CHECK(capture(repo, "git worktree list --porcelain").find("gatekit-gate-") == std::string::npos);
}
