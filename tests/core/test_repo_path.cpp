// Paths inside a repository: the lexical rule (table-driven), and links on real disk.
#include "gatekit/repo_path.hpp"

#include <filesystem>
#include <fstream>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "temp_dir.hpp"

using namespace gatekit;

TEST_CASE("repository paths: relative, no '..', no control characters") {
  const std::vector<std::pair<std::string, PathProblem>> table = {
      {"tests/map.json", PathProblem::none},
      {".gatekit/test-map.json", PathProblem::none},
      {"a..b/c", PathProblem::none},  // `..` inside a name is a name
      {"./x", PathProblem::none},
      {"", PathProblem::empty},
      {"/etc/passwd", PathProblem::absolute},
      {"\\\\server\\share", PathProblem::absolute},
      {"C:/x", PathProblem::absolute},
      {"..", PathProblem::parent},
      {"../x", PathProblem::parent},
      {"a/../../x", PathProblem::parent},
      {"a\\..\\x", PathProblem::parent},
      {"a/..", PathProblem::parent},
      {"a\nb", PathProblem::control},
  };
  for (const auto& [path, problem] : table) {
    INFO(path);
    CHECK(repository_path_problem(path) == problem);
  }
  CHECK(describe(PathProblem::parent) == "it leaves the repository ('..')");
  CHECK(describe(PathProblem::none).empty());
}

TEST_CASE("a path inside the repository passes through no symbolic link") {
  testing::TempDir tmp;
  const auto repo = tmp / "repo";
  std::filesystem::create_directories(repo / "state");
  std::filesystem::create_directory_symlink(tmp.path(), repo / "out");
  std::filesystem::create_symlink(tmp / "victim", repo / "state" / "map.json");  // dangling: a write would create it
  SystemFiles files;
  CHECK(check_inside_repository(files, repo, "state/new/map.json").ok());
  CHECK(check_inside_repository(files, repo, "absent/map.json").ok());
  struct Case {
    std::string path, message;
  };
  const std::vector<Case> cases{
      {"out/map.json", "'out/map.json' passes through the symbolic link 'out' (-> '" + tmp.path().string() +
                           "'): it could lead outside the repository"},
      {"state/map.json", "'state/map.json' passes through the symbolic link 'state/map.json' (-> '" +
                             (tmp / "victim").string() + "'): it could lead outside the repository"},
      {"../victim", "'../victim' leaves the repository ('..')"},
      {"/tmp/x", "'/tmp/x' is an absolute path"},
  };
  for (const auto& c : cases) {
    INFO(c.path);
    auto refused = check_inside_repository(files, repo, c.path);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().kind == ErrorKind::bad_input);
    CHECK(refused.error().message == c.message);
  }
  CHECK_FALSE(std::filesystem::exists(tmp / "victim"));
}
