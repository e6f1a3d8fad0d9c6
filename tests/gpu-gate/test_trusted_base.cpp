// Which branch the CI side trusts (trusted_base.hpp): the pure choice, on a table, then the
// remote's default branch asked of a real bare remote.
#include "status/trusted_base.hpp"

#include "catch.hpp"
#include "gatekit/process.hpp"
#include "test_ci_scene.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::git_in;

TEST_CASE("choose_trusted: the default branch, or a base its configuration lists; anything else is refused",
          "[trust]") {
  struct Row {
    std::string asked;
    std::vector<std::string> listed;
    std::string branch, refused;
  };
  const std::string commit(40, 'a');
  const std::vector<Row> rows = {
      {"", {}, "main", ""},                                  // none asked: the default branch
      {"main", {}, "main", ""},                              // the default branch itself
      {"release/1.x", {"release/1.x"}, "release/1.x", ""},   // listed by the default branch
      {"mallory-trust", {}, "main", "mallory-trust"},         // pushed by anyone: refused
      {"release/1.x", {"release/2.x"}, "main", "release/1.x"},
      {"release", {"release/1.x"}, "main", "release"},       // names match whole
      {commit, {commit}, "main", commit},                     // a commit is never trusted
  };
  for (const auto& row : rows) {
    INFO(row.asked);
    const auto choice = choose_trusted(row.asked, "main", row.listed);
    CHECK(choice.branch == row.branch);
    CHECK(choice.refused == row.refused);
  }
}

TEST_CASE("default_branch_of asks the remote which branch its HEAD names", "[trust][git]") {
  CiScene scene;
  SystemProcessRunner runner;
  Git git(runner, scene.dev);
  CHECK(default_branch_of(git, "origin") == "main");
  // The repository's default branch changes (on GitHub: Settings, Default branch).
  git_in(scene.dev, {"push", "-q", "origin", "main:trunk"});
  git_in(scene.remote, {"symbolic-ref", "HEAD", "refs/heads/trunk"});
  CHECK(default_branch_of(git, "origin") == "trunk");
  // A HEAD that names no branch the remote has: nothing to trust.
  git_in(scene.remote, {"symbolic-ref", "HEAD", "refs/heads/gone"});
  CHECK_THROWS_WITH(default_branch_of(git, "origin"),
                    "origin names no default branch (its HEAD is not a branch): the trusted configuration and "
                    "allowed signers cannot be found");
  CHECK_THROWS_WITH(default_branch_of(git, "nowhere"), Catch::Matchers::StartsWith("cannot ask nowhere for its default branch"));
}
