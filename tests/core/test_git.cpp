#include <fstream>

#include "catch.hpp"
#include "gatekit/git.hpp"
#include "temp_dir.hpp"

using namespace gatekit;

namespace {

void sh(const std::filesystem::path& dir, const std::string& script) {
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-ec", script}};
  spec.cwd = dir;
  spec.env_set = {{"GIT_AUTHOR_NAME", "t"}, {"GIT_AUTHOR_EMAIL", "t@e"}, {"GIT_COMMITTER_NAME", "t"},
                  {"GIT_COMMITTER_EMAIL", "t@e"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}};
  auto r = runner.run(spec);
  REQUIRE(r.ok());
  INFO(r->err);
  REQUIRE(r->exit_code == 0);
}

}  // namespace

TEST_CASE("name-status -z parsing keeps both sides of renames") {
  const char raw[] = "M\0a.txt\0R100\0old/x.py\0new/x.py\0D\0gone\0A\0sp ace\0";
  std::string text(raw, sizeof raw - 1);
  auto changes = parse_name_status_z(text);
  REQUIRE(changes.ok());
  REQUIRE(changes->size() == 4);
  CHECK((*changes)[1].status == 'R');
  CHECK((*changes)[1].previous_path == "old/x.py");
  CHECK((*changes)[1].path == "new/x.py");
  CHECK((*changes)[3].path == "sp ace");
  auto truncated = parse_name_status_z(std::string("R100\0a\0", 7));
  REQUIRE_FALSE(truncated.ok());
  CHECK(truncated.error().message == "truncated git diff output after status 'R100'");
}

TEST_CASE("diff, rev-parse and refs on a real repository") {
  testing::TempDir tmp;
  sh(tmp.path(),
     "git init -q -b main . && mkdir src && echo one > src/a.py && echo doc > README.md && "
     "git add . && git commit -qm base && git tag base && "
     "git mv src/a.py lib.py && echo two >> README.md && echo n > 'new file.txt' && git add . && "
     "git commit -qm change");
  SystemProcessRunner runner;
  Git git(runner, tmp.path());
  auto head = git.rev_parse("HEAD");
  REQUIRE(head.ok());
  CHECK(head->size() == 40);

  auto changes = git.diff("base", "HEAD");
  REQUIRE(changes.ok());
  REQUIRE(changes->size() == 3);
  CHECK((*changes)[0].status == 'M');
  CHECK((*changes)[0].path == "README.md");
  CHECK((*changes)[1].status == 'R');
  CHECK((*changes)[1].previous_path == "src/a.py");
  CHECK((*changes)[1].path == "lib.py");
  CHECK((*changes)[2].path == "new file.txt");

  REQUIRE(git.update_ref("refs/gatekit/results/x", *head).ok());
  auto refs = git.for_each_ref("refs/gatekit/");
  REQUIRE(refs.ok());
  REQUIRE(refs->size() == 1);
  CHECK((*refs)[0].name == "refs/gatekit/results/x");
  CHECK((*refs)[0].object == *head);
  CHECK_FALSE((*refs)[0].committer_date.empty());
  REQUIRE(git.delete_ref("refs/gatekit/results/x").ok());
  CHECK(git.for_each_ref("refs/gatekit/")->empty());
  CHECK(*git.has_commit("HEAD"));
  CHECK_FALSE(*git.has_commit("0000000000000000000000000000000000000001"));
}

TEST_CASE("git errors carry git's own message") {
  testing::TempDir tmp;
  sh(tmp.path(), "git init -q .");
  SystemProcessRunner runner;
  Git git(runner, tmp.path());
  auto changes = git.diff("nope", "HEAD");
  REQUIRE_FALSE(changes.ok());
  CHECK(changes.error().message.find("git diff") == 0);
  CHECK(changes.error().message.find("fatal: ") != std::string::npos);
  auto rev = git.rev_parse("missing");
  REQUIRE_FALSE(rev.ok());
  CHECK(rev.error().message.rfind("cannot resolve 'missing' in ", 0) == 0);
}

TEST_CASE("push and fetch custom ref namespaces through a real remote") {
  testing::TempDir tmp;
  sh(tmp.path(),
     "git init -q --bare remote.git && git init -q -b main work && cd work && "
     "echo a > a && git add a && git commit -qm a && git remote add origin ../remote.git");
  SystemProcessRunner runner;
  Git work(runner, tmp / "work");
  auto head = work.rev_parse("HEAD");
  REQUIRE(head.ok());
  REQUIRE(work.update_ref("refs/gatekit-mine/t1", *head).ok());
  auto pushed = work.push("origin", {"refs/gatekit-mine/*:refs/gatekit/*", "main"});
  INFO((pushed.ok() ? std::string() : pushed.error().message));
  REQUIRE(pushed.ok());
  sh(tmp.path(), "git clone -q remote.git clone");
  Git clone(runner, tmp / "clone");
  CHECK(clone.for_each_ref("refs/gatekit/")->empty());  // not fetched by default
  REQUIRE(clone.fetch("origin", {"+refs/gatekit/*:refs/gatekit/*"}).ok());
  auto refs = clone.for_each_ref("refs/gatekit/");
  REQUIRE(refs->size() == 1);
  CHECK((*refs)[0].object == *head);
  auto bad = clone.push("nowhere", {"main"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("git push --porcelain nowhere main failed") == 0);
}
