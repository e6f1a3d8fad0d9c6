#include <fstream>
#include <iterator>

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
  // A plain NUL-separated list of names is not --name-status output: no name taken as a status.
  auto names = parse_name_status_z(std::string("src/a.py\0docs/b.md\0", 18));
  REQUIRE_FALSE(names.ok());
  CHECK(names.error().message == "unexpected status field 'src/a.py' in git diff output");
  auto empty_path = parse_name_status_z(std::string("M\0\0", 3));
  REQUIRE_FALSE(empty_path.ok());
  CHECK(empty_path.error().message == "an empty path after status 'M' in git diff output");
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

TEST_CASE("branch_first: a tag named like the branch never stands for it (issue 42, item 7)") {
  testing::TempDir tmp;
  // A branch main and, on another commit, a tag main; a remote's main, and a tag origin/main.
  sh(tmp.path(),
     "git init -q --bare -b main remote.git && git init -q -b main work && cd work && "
     "git commit -q --allow-empty -m one && git tag main && git tag origin/feature && "
     "git commit -q --allow-empty -m two && git remote add origin ../remote.git && "
     "git push -q origin refs/heads/main:refs/heads/main refs/heads/main:refs/heads/feature && git fetch -q origin");
  SystemProcessRunner runner;
  Git git(runner, tmp.path() / "work");
  const auto branch = *git.rev_parse("refs/heads/main");
  const auto tag = *git.rev_parse("refs/tags/main");
  REQUIRE(branch != tag);
  CHECK(*git.rev_parse("main") == tag);  // git's own lookup: the tag shadows the branch
  CHECK(*git.branch_first("main") == "refs/heads/main");
  CHECK(*git.rev_parse(*git.branch_first("main")) == branch);
  CHECK(*git.branch_first("main~1") == "refs/heads/main~1");
  CHECK(*git.branch_first("main^{commit}") == "refs/heads/main^{commit}");
  // A remote-tracking name, spelled with its remote or without (the clone has no local branch).
  CHECK(*git.rev_parse("origin/feature") == tag);
  CHECK(*git.branch_first("origin/feature") == "refs/remotes/origin/feature");
  CHECK(*git.branch_first("feature") == "refs/remotes/origin/feature");
  CHECK(*git.branch_first("feature", "") == "feature");
  // Everything else as it was.
  CHECK(*git.branch_first(branch) == branch);
  CHECK(*git.branch_first("refs/tags/main") == "refs/tags/main");
  CHECK(*git.branch_first("HEAD~1") == "HEAD~1");
  CHECK(*git.branch_first("v9") == "v9");
  auto bad = git.branch_first("--upload-pack=x");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.starts_with("revision '--upload-pack=x' starts with '-'"));
}

TEST_CASE("branch_candidates: the full refs a branch name may be, in order") {
  CHECK(branch_candidates("main", "origin") ==
        std::vector<std::string>{"refs/heads/main", "refs/remotes/main", "refs/remotes/origin/main"});
  CHECK(branch_candidates("origin/main~2", "") ==
        std::vector<std::string>{"refs/heads/origin/main~2", "refs/remotes/origin/main~2"});
  CHECK(branch_candidates("refs/heads/main", "origin").empty());
  CHECK(branch_candidates("HEAD^", "origin").empty());
  CHECK(branch_candidates("FETCH_HEAD", "origin").empty());
  CHECK(branch_candidates(std::string(40, 'a'), "origin").empty());
  CHECK(branch_candidates("", "origin").empty());
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

TEST_CASE("check_revision: ref names and suffixes pass; anything git could misread is refused") {
  for (const char* ok : {"main", "HEAD", "origin/main", "v1.2", "refs/heads/feature/x", "HEAD~3", "HEAD~",
                         "main^2", "HEAD^^", "v1.2^{commit}", "v1.2^{}", "HEAD~2^{tree}",
                         "0123456789abcdef0123456789abcdef01234567", "caf\xc3\xa9"}) {
    INFO(ok);
    CHECK(check_revision(ok).ok());
  }
  const std::string prefix = " is not a commit SHA or ref name (such as main, origin/main or v1.2) optionally followed by "
                             "~N, ^N or ^{commit}: ";
  const std::vector<std::pair<std::string, std::string>> refused{
      {"", "the revision is empty"},
      {"--upload-pack=touch PWNED;", "revision '--upload-pack=touch PWNED;' starts with '-': git would read it as an option"},
      {"-", "revision '-' starts with '-': git would read it as an option"},
      {"main\n--output=x", "revision 'main\\x0a--output=x' contains a control character"},
      {std::string("a\0b", 3), "revision 'a\\x00b' contains a control character"},
      {"a\x7f", "revision 'a\\x7f' contains a control character"},
      {"a b", "revision 'a b'" + prefix + "it contains a space"},
      {"main..feature", "revision 'main..feature'" + prefix + "it contains '..' (ranges are not accepted)"},
      {"main...feature", "revision 'main...feature'" + prefix + "it contains '..' (ranges are not accepted)"},
      {"HEAD:src/a.py", "revision 'HEAD:src/a.py'" + prefix + "it contains ':'"},
      {":/fix", "revision ':/fix'" + prefix + "it contains ':'"},
      {"main@{1}", "revision 'main@{1}'" + prefix + "it contains '@{'"},
      {"@", "revision '@'" + prefix + "'@' alone is not a ref name"},
      {"a\\b", "revision 'a\\b'" + prefix + "it contains '\\'"},
      {"src/*", "revision 'src/*'" + prefix + "it contains '*'"},
      {"a//b", "revision 'a//b'" + prefix + "it has an empty '/'-separated component"},
      {"/main", "revision '/main'" + prefix + "it has an empty '/'-separated component"},
      {"main/", "revision 'main/'" + prefix + "it has an empty '/'-separated component"},
      {"refs/.hidden", "revision 'refs/.hidden'" + prefix + "a '/'-separated component starts with '.'"},
      {"main.lock", "revision 'main.lock'" + prefix + "a '/'-separated component ends with '.lock'"},
      {"main.", "revision 'main.'" + prefix + "it ends with '.'"},
      {"~1", "revision '~1'" + prefix + "the name before ~ or ^ is empty"},
      {"HEAD^{bogus}", "revision 'HEAD^{bogus}'" + prefix + "'^{bogus}' is not ^{commit}, ^{tree}, ^{blob}, ^{tag} or ^{object}"},
      {"HEAD^{commit", "revision 'HEAD^{commit'" + prefix + "'^{' is not closed"},
      {"HEAD~x", "revision 'HEAD~x'" + prefix + "unexpected text after ~ or ^"},
  };
  for (const auto& [rev, message] : refused) {
    INFO(rev);
    auto checked = check_revision(rev);
    REQUIRE_FALSE(checked.ok());
    CHECK(checked.error().message == message);
  }
  CHECK(check_revision(std::string(200, 'a')).ok());
  CHECK(quote_for_message(std::string(100, 'x'), 4) == "'xxxx...'");
}

TEST_CASE("check_argument and is_object_name") {
  CHECK(check_argument("the remote", "origin").ok());
  CHECK(check_argument("the refspec", "+refs/gatekit/*:refs/gatekit/*").ok());
  CHECK(check_argument("the remote", "--upload-pack=x").error().message ==
        "the remote '--upload-pack=x' starts with '-': git would read it as an option");
  CHECK(check_argument("the refspec", "a\nb").error().message == "the refspec 'a\\x0ab' contains a control character");
  CHECK(check_argument("the remote", "").error().message == "the remote is empty");
  CHECK(is_object_name(std::string(40, 'a')));
  CHECK(is_object_name(std::string(64, 'F')));
  CHECK_FALSE(is_object_name(std::string(39, 'a')));
  CHECK_FALSE(is_object_name(std::string(41, 'a')));
  CHECK_FALSE(is_object_name("g" + std::string(39, 'a')));
  CHECK_FALSE(is_object_name(""));
}

TEST_CASE("unquote_c_style: git's quoting decoded, malformed quoting refused") {
  const std::vector<std::pair<std::string, std::string>> decoded{
      {"plain/path.cu", "plain/path.cu"},
      {"src/no\\escape", "src/no\\escape"},  // unquoted: backslashes are literal
      {R"("src/kernels/\303\244.cu")", "src/kernels/\xc3\xa4.cu"},
      {R"("a\tb")", "a\tb"},
      {R"("new\nline")", "new\nline"},
      {R"("q\"uote")", "q\"uote"},
      {R"("back\\slash")", "back\\slash"},
      {R"("\a\b\t\n\v\f\r\"\\")", "\a\b\t\n\v\f\r\"\\"},
      {R"("\001\177\377\000")", std::string("\x01\x7f\xff\0", 4)},
      {R"("")", ""},
      {R"("sp ace")", "sp ace"},
  };
  for (const auto& [quoted, want] : decoded) {
    INFO(quoted);
    auto got = unquote_c_style(quoted);
    REQUIRE(got.ok());
    CHECK(*got == want);
  }
  const std::vector<std::pair<std::string, std::string>> malformed{
      {R"("src/a.cu)", "no closing quote"},
      {"\"", "no closing quote"},
      {R"("a\qb")", "an unknown escape '\\q'"},
      {R"("a"b)", "text after the closing quote"},
      {R"("a" )", "text after the closing quote"},
      {R"("\400")", "an octal escape that is not three digits from \\000 to \\377"},
      {R"("\12")", "an octal escape that is not three digits from \\000 to \\377"},
      {R"("\7")", "an octal escape that is not three digits from \\000 to \\377"},
      {"\"a\\", "a '\\' at the end"},
  };
  for (const auto& [quoted, message] : malformed) {
    INFO(quoted);
    auto got = unquote_c_style(quoted);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().message == message);
  }
}

TEST_CASE("unquote_c_style decodes what real git quotes") {
  testing::TempDir tmp;
  sh(tmp.path(),
     "git init -q -b main . && git commit -q --allow-empty -m base && "
     "printf x > \"$(printf 'caf\\303\\251.cu')\" && printf x > \"$(printf 'a\\tb')\" && "
     "printf x > \"$(printf 'new\\nline')\" && printf x > 'q\"uote' && printf x > 'back\\slash' && "
     "printf x > \"$(printf 'bell\\007')\" && printf x > plain && git add -A && git commit -qm names && "
     "git -c core.quotePath=true diff --name-only HEAD~1 HEAD > quoted.txt && "
     "git diff --name-only -z HEAD~1 HEAD > raw.txt");
  auto read = [&](const char* name) {
    std::ifstream in(tmp / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const auto quoted = read("quoted.txt");
  const auto raw = read("raw.txt");
  std::vector<std::string> decoded, names;
  for (std::size_t start = 0, end; (end = quoted.find('\n', start)) != std::string::npos; start = end + 1) {
    auto one = unquote_c_style(quoted.substr(start, end - start));
    REQUIRE(one.ok());
    decoded.push_back(*one);
  }
  for (std::size_t start = 0, end; (end = raw.find('\0', start)) != std::string::npos; start = end + 1)
    names.push_back(raw.substr(start, end - start));
  REQUIRE(names.size() == 7);
  CHECK(quoted.find(R"("caf\303\251.cu")") != std::string::npos);  // git did quote
  CHECK(decoded == names);
}

TEST_CASE("every git call puts --end-of-options before revisions and -- before paths") {
  FakeProcessRunner runner([](const ProcessSpec&) -> Result<ProcessResult> {
    ProcessResult r;
    r.exit_code = 0;
    return r;
  });
  Git git(runner, "/repo");
  const auto sha = std::string(40, 'a');
  (void)git.rev_parse("main");
  (void)git.has_commit("main");
  (void)git.has_merge_base("main", "HEAD");
  (void)git.diff("main", "HEAD", true);
  (void)git.for_each_ref("refs/gatekit/");
  (void)git.update_ref("refs/gatekit/x", sha);
  (void)git.delete_ref("refs/gatekit/x");
  (void)git.push("origin", {"main"});
  (void)git.fetch("origin", {sha}, {.depth = 50});
  (void)git.fetch("origin", {"main", "HEAD"}, {.deepen = 100});
  (void)git.fetch("origin", {}, {.unshallow = true});
  (void)git.fetch("origin", {"+refs/r/*:refs/r/*"}, {.prune = true});
  using V = std::vector<std::string>;
  const std::vector<V> want{
      {"rev-parse", "--verify", "--quiet", "--end-of-options", "main^{object}"},
      {"cat-file", "-e", "--end-of-options", "main^{commit}"},
      {"merge-base", "--end-of-options", "main", "HEAD"},
      {"diff", "--name-status", "-z", "--find-renames", "--no-ext-diff", "--no-textconv", "--end-of-options",
       "main...HEAD", "--"},
      {"for-each-ref", "--format=%(refname)%00%(objectname)%00%(committerdate:iso-strict)", "--end-of-options",
       "refs/gatekit/"},
      {"update-ref", "--end-of-options", "refs/gatekit/x", sha},
      {"update-ref", "-d", "--end-of-options", "refs/gatekit/x"},
      {"push", "--porcelain", "--end-of-options", "origin", "main"},
      {"fetch", "--no-tags", "--quiet", "--depth=50", "--end-of-options", "origin", sha},
      {"fetch", "--no-tags", "--quiet", "--deepen=100", "--end-of-options", "origin", "main", "HEAD"},
      {"fetch", "--no-tags", "--quiet", "--unshallow", "--end-of-options", "origin"},
      {"fetch", "--no-tags", "--quiet", "--prune", "--end-of-options", "origin", "+refs/r/*:refs/r/*"},
  };
  REQUIRE(runner.calls.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    V argv(runner.calls[i].argv.begin() + 3, runner.calls[i].argv.end());
    CHECK(V(runner.calls[i].argv.begin(), runner.calls[i].argv.begin() + 3) == V{"git", "-C", "/repo"});
    CHECK(argv == want[i]);
    CHECK(runner.calls[i].env_set.at("GIT_TERMINAL_PROMPT") == "0");
  }
}

TEST_CASE("hostile values never reach git") {
  FakeProcessRunner runner([](const ProcessSpec&) -> Result<ProcessResult> { return ProcessResult{}; });
  Git git(runner, "/repo");
  const std::string evil = "--upload-pack=touch PWNED;";
  const std::string refused = "revision '--upload-pack=touch PWNED;' starts with '-': git would read it as an option";
  CHECK(git.rev_parse(evil).error().message == refused);
  CHECK(git.has_commit(evil).error().message == refused);
  CHECK(git.has_merge_base("main", evil).error().message == refused);
  CHECK(git.diff(evil, "HEAD").error().message == refused);
  CHECK(git.diff("main", "a\nb").error().message == "revision 'a\\x0ab' contains a control character");
  CHECK(git.update_ref("refs/x", evil).error().message == refused);
  CHECK(git.delete_ref(evil).error().message == refused);
  CHECK(git.for_each_ref(evil).error().message ==
        "the ref pattern '--upload-pack=touch PWNED;' starts with '-': git would read it as an option");
  CHECK(git.push(evil, {"main"}).error().message ==
        "the remote '--upload-pack=touch PWNED;' starts with '-': git would read it as an option");
  CHECK(git.fetch("origin", {evil}).error().message ==
        "the refspec '--upload-pack=touch PWNED;' starts with '-': git would read it as an option");
  CHECK(runner.calls.empty());
}

TEST_CASE("an --upload-pack revision runs nothing against a real remote") {
  testing::TempDir tmp;
  sh(tmp.path(),
     "git init -q --bare remote.git && git init -q -b main work && cd work && "
     "echo a > a && git add a && git commit -qm a && git remote add origin ../remote.git && git push -q origin main");
  SystemProcessRunner runner;
  Git work(runner, tmp / "work");
  const std::string evil = "--upload-pack=touch PWNED;";
  CHECK_FALSE(work.fetch("origin", {evil}).ok());
  CHECK_FALSE(work.fetch("origin", {"main", evil}, {.depth = 50}).ok());
  CHECK_FALSE(work.push("origin", {"--receive-pack=touch PWNED;"}).ok());
  CHECK_FALSE(work.diff("--output=PWNED", "HEAD").ok());
  CHECK_FALSE(work.has_commit("--output=PWNED").ok());
  CHECK_FALSE(std::filesystem::exists(tmp / "work" / "PWNED"));
  CHECK_FALSE(std::filesystem::exists(tmp / "PWNED"));
  CHECK_FALSE(std::filesystem::exists(tmp / "remote.git" / "PWNED"));
  // The same calls with ordinary values still work through --end-of-options.
  CHECK(work.fetch("origin", {"main"}).ok());
  CHECK(*work.has_merge_base("main", "origin/main"));
  CHECK_FALSE(*work.is_shallow());
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
  CHECK(bad.error().message.find("git push --porcelain --end-of-options nowhere main failed") == 0);
}

// ---- the public command API --------------------------------------------------------------

// Only a literal makes a GitWord: a std::string or a char pointer (outside data) cannot.
static_assert(std::is_constructible_v<GitWord, const char (&)[6]>);
static_assert(!std::is_constructible_v<GitWord, std::string>);
static_assert(!std::is_constructible_v<GitWord, std::string_view>);
static_assert(!std::is_constructible_v<GitWord, const char*>);

TEST_CASE("GitCommand: fixed words, then --end-of-options before the first value, then -- before paths") {
  using V = std::vector<std::string>;
  const auto sha = std::string(40, 'b');
  CHECK(GitCommand{"log", "-1", "--format=%H %T"}.option("--skip=", 2).revision("main", "^{commit}").paths({}).args() ==
        V{"log", "-1", "--format=%H %T", "--skip=2", "--end-of-options", "main^{commit}", "--"});
  CHECK(GitCommand{"diff", "--raw"}.range("a", "HEAD~1", true).paths({"-x", "sp ace"}).args() ==
        V{"diff", "--raw", "--end-of-options", "a...HEAD~1", "--", "-x", "sp ace"});
  CHECK(GitCommand{"push"}.option("--force-with-lease=", "refs/r/x:" + sha).argument("the remote", "origin").argument("the refspec", ":refs/r/x").args() ==
        V{"push", "--force-with-lease=refs/r/x:" + sha, "--end-of-options", "origin", ":refs/r/x"});
  CHECK(GitCommand{"update-ref", "-m", "why"}.argument("the ref", "refs/r/x").argument("the commit", sha).words({""}).args() ==
        V{"update-ref", "-m", "why", "--end-of-options", "refs/r/x", sha, ""});
  // An object name cannot be an option: it needs no --end-of-options.
  CHECK(GitCommand{"commit-tree"}.object(sha).args() == V{"commit-tree", sha});
  CHECK(GitCommand{"status"}.problem().ok());
}

TEST_CASE("GitCommand: a hostile value is the command's problem, and nothing runs") {
  FakeProcessRunner runner([](const ProcessSpec&) -> Result<ProcessResult> { return ProcessResult{}; });
  Git git(runner, "/repo");
  const std::string evil = "--upload-pack=touch PWNED;";
  const std::vector<std::pair<GitCommand, std::string>> cases{
      {GitCommand{"log"}.revision(evil), "revision '--upload-pack=touch PWNED;' starts with '-': git would read it as an option"},
      {GitCommand{"diff"}.range("main", evil, false), "revision '--upload-pack=touch PWNED;' starts with '-': git would read it as an option"},
      {GitCommand{"ls-remote"}.argument("the remote", evil), "the remote '--upload-pack=touch PWNED;' starts with '-': git would read it as an option"},
      {GitCommand{"ls-remote"}.argument("the ref pattern", ""), "the ref pattern is empty"},
      {GitCommand{"log"}.option("--skip=", "1\n--output=x"), "the value of --skip= '1\\x0a--output=x' contains a control character"},
      {GitCommand{"commit-tree"}.object(evil), "not an object name: '--upload-pack=touch PWNED;'"},
      {GitCommand{"ls-files"}.paths({std::string("a\0b", 3)}), "the path 'a\\x00b' contains a NUL byte"},
      // The first problem is the one reported.
      {GitCommand{"fetch"}.argument("the remote", "-o").revision(evil), "the remote '-o' starts with '-': git would read it as an option"},
  };
  for (const auto& [command, message] : cases) {
    INFO(message);
    REQUIRE_FALSE(command.problem().ok());
    CHECK(command.problem().error().message == message);
    CHECK(command.problem().error().kind == ErrorKind::could_not_evaluate);
    auto ran = git.exec(command);
    REQUIRE_FALSE(ran.ok());
    CHECK(ran.error().message == message);
    CHECK(git.run(command).error().message == message);
  }
  CHECK(runner.calls.empty());
}

TEST_CASE("Git::run and Git::exec on a real repository: hostile paths stay paths, input and environment reach git") {
  testing::TempDir tmp;
  sh(tmp.path(),
     "git init -q -b main . && echo a > ./--output=PWNED && echo b > ./-rf && "
     "git add -- --output=PWNED -rf && git commit -qm one");
  SystemProcessRunner runner;
  Git git(runner, tmp.path());
  // Files named like options are listed as paths; git writes nothing.
  auto listed = git.run(GitCommand{"ls-files", "-z"}.paths({"--output=PWNED", "-rf"}));
  REQUIRE(listed.ok());
  CHECK(*listed == std::string("--output=PWNED\0-rf\0", 19));
  auto logged = git.run(GitCommand{"log", "--format=%s"}.revision("HEAD").paths({"--output=PWNED"}));
  REQUIRE(logged.ok());
  CHECK(*logged == "one\n");
  // A revision that is an option runs nothing, so git writes no file called PWNED.
  CHECK_FALSE(git.run(GitCommand{"log"}.revision("--output=PWNED2")).ok());
  CHECK_FALSE(std::filesystem::exists(tmp / "PWNED2"));
  // Standard input and environment.
  auto hashed = git.run(GitCommand{"hash-object", "--stdin"}.input("hello\n"));
  REQUIRE(hashed.ok());
  CHECK(*hashed == "ce013625030ba8dba906f756967f9e9ca394464a\n");
  auto ident = git.run(GitCommand{"var", "GIT_AUTHOR_IDENT"}.env("GIT_AUTHOR_NAME", "Gate Keeper").env("GIT_AUTHOR_EMAIL", "g@k"));
  REQUIRE(ident.ok());
  CHECK(ident->starts_with("Gate Keeper <g@k> "));
  // exec returns git's result whatever its exit code; run turns a failure into an error
  // naming the command (a path with a control character quoted) and quoting git's stderr.
  auto missing = git.exec(GitCommand{"ls-files", "--error-unmatch"}.paths({"no\nsuch"}));
  REQUIRE(missing.ok());
  CHECK(missing->exit_code == 1);
  auto failed = git.run(GitCommand{"ls-files", "--error-unmatch"}.paths({"no\nsuch"}));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().kind == ErrorKind::could_not_evaluate);
  CHECK(failed.error().message.starts_with("git ls-files --error-unmatch -- 'no\\x0asuch' failed (exit code 1): error: pathspec"));
}

TEST_CASE("a cleanup git command runs as a cleanup, within kCleanupTimeout") {
  FakeProcessRunner runner([](const ProcessSpec&) -> Result<ProcessResult> { return ProcessResult{.exit_code = 0}; });
  Git git(runner, "/repo");
  REQUIRE(git.run(GitCommand{"worktree", "prune"}.cleanup()).ok());
  REQUIRE(git.run(GitCommand{"worktree", "list"}).ok());
  REQUIRE(runner.calls.size() == 2);
  CHECK(runner.calls[0].cleanup);
  CHECK(runner.calls[0].timeout == kCleanupTimeout);
  CHECK_FALSE(runner.calls[1].cleanup);
  CHECK(runner.calls[1].timeout == std::chrono::milliseconds(0));
}
