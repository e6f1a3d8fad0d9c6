// Where the changed files come from: git's quoted names in lists, the API's counts, and the
// revisions that reach git (from the event payload or a spec), checked before any git call.
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "changes.hpp"
#include "gatekit/process.hpp"

using namespace gatekit;
using namespace gatekit::path_classifier;

namespace {

// What a git call was: its subcommand and, for `cat-file -e`, the revision it asked about.
std::string git_step(const ProcessSpec& spec) {
  const std::string& sub = spec.argv.at(3);
  return sub == "cat-file" ? sub + " " + spec.argv.back() : sub;
}

std::vector<std::string> git_steps(const FakeProcessRunner& runner) {
  std::vector<std::string> steps;
  for (const auto& call : runner.calls) steps.push_back(git_step(call));
  return steps;
}

Result<ProcessResult> exited(int code, std::string out = "") {
  ProcessResult r;
  r.exit_code = code;
  r.out = std::move(out);
  return r;
}

}  // namespace

TEST_CASE("parse_path_list decodes git's quoting in plain and --name-status lines") {
  const std::string text =
      "\"src/kernels/\\303\\244.cu\"\n"
      "M\t\"src/tab\\there.cu\"\n"
      "A\t\"src/new\\nline.cu\"\n"
      "R100\t\"old/\\\"q\\\".cu\"\tnew/q.cu\n"
      "C75\tsrc/a.cu\t\"src/back\\\\slash.cu\"\n"
      "\"./src/dot.cu\"\n"
      "plain/\"inner\".cu\n";
  auto files = parse_path_list(text);
  REQUIRE(files.ok());
  REQUIRE(files->size() == 7);
  const auto& f = *files;
  CHECK(f[0].path == "src/kernels/\xc3\xa4.cu");
  CHECK(f[0].status.empty());
  CHECK((f[1].status == "M" && f[1].path == "src/tab\there.cu"));
  CHECK(f[2].path == "src/new\nline.cu");
  CHECK((f[3].status == "R" && f[3].previous_path == "old/\"q\".cu" && f[3].path == "new/q.cu"));
  CHECK((f[4].status == "C" && f[4].previous_path == "src/a.cu" && f[4].path == "src/back\\slash.cu"));
  CHECK(f[5].path == "src/dot.cu");  // decoded, then normalized
  CHECK(f[6].path == "plain/\"inner\".cu");  // not starting with a quote: verbatim
}

TEST_CASE("parse_path_list refuses malformed quoting, naming the line") {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"a.cu\n\"src/b.cu\n", "line 2: malformed git quoting in '\"src/b.cu': no closing quote"},
      {"M\t\"src/\\q.cu\"\n", "line 1: malformed git quoting in '\"src/\\q.cu\"': an unknown escape '\\q'"},
      {"x\n\ny\nR100\t\"old\tnew.cu\n",
       "line 4: malformed git quoting in '\"old': no closing quote"},
      {"R100\told.cu\t\"new.cu\"x\n", "line 1: malformed git quoting in '\"new.cu\"x': text after the closing quote"},
      {"\"\\401\"\r\n", "line 1: malformed git quoting in '\"\\401\"': an octal escape that is not three digits "
                        "from \\000 to \\377"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    auto files = parse_path_list(text);
    REQUIRE_FALSE(files.ok());
    CHECK(files.error().message == message);
  }
  // NUL-separated names are never quoted: a leading quote is part of the name.
  auto nul = parse_path_list(std::string("\"odd\0b\0", 7));
  REQUIRE(nul.ok());
  CHECK((*nul)[0].path == "\"odd");
}

TEST_CASE("a list with malformed quoting fails open naming its line") {
  auto listing = make_list_source("src/a.py\nM\t\"src/kernels/x.cu\n", "the list on stdin")->list();
  REQUIRE(listing.fail_open);
  CHECK(*listing.fail_open ==
        "the list on stdin cannot be read: line 2: malformed git quoting in '\"src/kernels/x.cu': no closing quote");
  CHECK(listing.files.empty());
}

TEST_CASE("listing_from_pull: more files than changed_files is inconsistent") {
  github::PullRequest pr;
  pr.number = 7;
  std::vector<github::PullFile> files{{"a.py", "modified", ""}, {"b.py", "added", ""}};
  pr.changed_files = 0;
  CHECK(*listing_from_pull(pr, files).fail_open ==
        "the API listed 2 files but the pull request's changed_files is 0: the counts are inconsistent");
  pr.changed_files = 1;
  CHECK(*listing_from_pull(pr, files).fail_open ==
        "the API listed 2 files but the pull request's changed_files is 1: the counts are inconsistent");
  pr.changed_files = 2;
  CHECK_FALSE(listing_from_pull(pr, files).fail_open);
}

TEST_CASE("event_revisions_problem: payload SHAs must be full object names") {
  const std::string sha(40, 'a');
  const std::string evil = "--upload-pack=touch PWNED;";
  auto event = [&](const char* name, std::string base, std::string head) {
    EventInfo e;
    e.name = name;
    e.kind = event_kind(name);
    e.base_sha = std::move(base);
    e.head_sha = std::move(head);
    return e;
  };
  CHECK(event_revisions_problem(event("push", sha, std::string(64, 'b'))).empty());
  CHECK(event_revisions_problem(event("push", evil, sha)) ==
        "the push event payload's `before` is not a commit SHA (40 or 64 hexadecimal digits): "
        "'--upload-pack=touch PWNED;'");
  CHECK(event_revisions_problem(event("push", sha, "main")) ==
        "the push event payload's `after` is not a commit SHA (40 or 64 hexadecimal digits): 'main'");
  CHECK(event_revisions_problem(event("merge_group", sha, sha + "\n")) ==
        "the merge_group event payload's `merge_group.head_sha` is not a commit SHA (40 or 64 hexadecimal digits): '" +
            sha + "\\x0a'");
  CHECK(event_revisions_problem(event("pull_request_target", "", sha)) ==
        "the pull_request_target event payload's `pull_request.base.sha` is not a commit SHA (40 or 64 hexadecimal "
        "digits): ''");
}

TEST_CASE("the git source refuses a revision git could misread without running git") {
  FakeProcessRunner runner([](const ProcessSpec&) { return exited(0); });
  Git git(runner, "/repo");
  for (const auto& [base, head] : std::vector<std::pair<std::string, std::string>>{
           {"--upload-pack=touch PWNED;", "HEAD"}, {"main", "-o"}, {"main", "a\nb"}}) {
    auto listing = make_git_source(git, {base, head, true, true, "origin"})->list();
    REQUIRE(listing.fail_open);
    CHECK(listing.fail_open->rfind("cannot compare with git: revision '", 0) == 0);
  }
  CHECK(runner.calls.empty());
  auto ok = make_git_source(git, {"main", "HEAD", true, false, "origin"})->list();
  REQUIRE(runner.calls.size() >= 2);
  CHECK(runner.calls[0].argv == std::vector<std::string>{"git", "-C", "/repo", "cat-file", "-e", "--end-of-options",
                                                         "refs/heads/main^{commit}"});
}

TEST_CASE("the git source asks git about each revision once") {
  FakeProcessRunner runner([](const ProcessSpec& spec) {
    return exited(0, spec.argv.at(3) == "diff" ? std::string("M\0src/a.py\0", 11) : "");
  });
  Git git(runner, "/repo");
  SECTION("two dots") {
    auto listing = make_git_source(git, {"main", "HEAD", false, true, "origin"})->list();
    CHECK_FALSE(listing.fail_open);
    CHECK(git_steps(runner) ==
          std::vector<std::string>{"cat-file refs/heads/main^{commit}", "cat-file HEAD^{commit}", "diff"});
  }
  SECTION("three dots: the merge base too") {
    auto listing = make_git_source(git, {"main", "HEAD", true, true, "origin"})->list();
    CHECK_FALSE(listing.fail_open);
    CHECK(git_steps(runner) ==
          std::vector<std::string>{"cat-file refs/heads/main^{commit}", "cat-file HEAD^{commit}", "merge-base", "diff"});
  }
}

TEST_CASE("the git source asks again about a revision it did not find, once it has fetched") {
  bool fetched = false;
  FakeProcessRunner runner([&](const ProcessSpec& spec) {
    const std::string sub = spec.argv.at(3);
    if (sub == "fetch") fetched = true;
    if (sub == "cat-file" && spec.argv.back() != "refs/heads/main^{commit}") return exited(fetched ? 0 : 1);
    return exited(0, sub == "diff" ? std::string("M\0src/a.py\0", 11) : "");
  });
  Git git(runner, "/repo");
  auto listing = make_git_source(git, {"main", "feature", false, true, "origin"})->list();
  CHECK_FALSE(listing.fail_open);
  CHECK(listing.notes == std::vector<std::string>{"fetched feature from origin"});
  CHECK(git_steps(runner) == std::vector<std::string>{"cat-file refs/heads/main^{commit}",
                                                      "cat-file refs/heads/feature^{commit}",
                                                      "cat-file refs/remotes/feature^{commit}",
                                                      "cat-file refs/remotes/origin/feature^{commit}",
                                                      "cat-file feature^{commit}", "fetch",
                                                      "cat-file refs/heads/feature^{commit}", "diff"});
}

TEST_CASE("listing_from_pull: truncation and missing counts fail open") {
  github::PullRequest pr;
  pr.number = 7;
  std::vector<github::PullFile> files{{"a.py", "modified", ""}, {"b.py", "renamed", "old/b.py"}};
  pr.changed_files = 2;
  auto ok = listing_from_pull(pr, files);
  CHECK_FALSE(ok.fail_open);
  CHECK(ok.files[1].previous_path == "old/b.py");
  pr.changed_files = 5;
  CHECK(*listing_from_pull(pr, files).fail_open == "the API listed 2 of 5 changed files: the listing is incomplete");
  pr.changed_files = -1;
  CHECK(*listing_from_pull(pr, files).fail_open ==
        "the pull request's changed_files count is missing or not a number, so the listing of 2 files cannot be "
        "checked for truncation");
  std::vector<github::PullFile> many(3000, {"x", "modified", ""});
  pr.changed_files = 3000;
  CHECK(*listing_from_pull(pr, many).fail_open ==
        "the API lists at most 3000 files and returned 3000 (changed_files: 3000): the listing may be truncated");
  pr.changed_files = 0;
  CHECK(*listing_from_pull(pr, {}).fail_open == "the change lists no files (GitHub API, pull request #7)");
}

TEST_CASE("parse_path_list: newline or NUL separated, normalized") {
  auto lines = *parse_path_list("./a/b\r\n\n  c  \n/d\n");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].path == "a/b");
  CHECK(lines[1].path == "c");
  CHECK(lines[2].path == "d");
  auto status = *parse_path_list("M\tsrc/a.py\nR087\told/k.cu\tnew/k.cu\nnot\ta status\n");
  REQUIRE(status.size() == 3);
  CHECK(status[0].path == "src/a.py");
  CHECK(status[1].path == "new/k.cu");
  CHECK(status[1].previous_path == "old/k.cu");
  CHECK(status[2].path == "not\ta status");
  auto nul = *parse_path_list(std::string("a b\0c\nd\0", 8));
  REQUIRE(nul.size() == 2);
  CHECK(nul[0].path == "a b");
  CHECK(nul[1].path == "c\nd");
}

TEST_CASE("parse_event: pull_request, merge_group, push and broken payloads") {
  auto pr = parse_event("pull_request",
                        R"({"number":12,"pull_request":{"number":12,"base":{"sha":"b1"},"head":{"sha":"h1"}},
                            "repository":{"full_name":"o/r"}})",
                        "");
  CHECK(pr.kind == EventKind::pull_request);
  CHECK(*pr.pr_number == 12);
  CHECK(pr.base_sha == "b1");
  CHECK(pr.repo == "o/r");
  CHECK(pr.problem.empty());
  auto mg = parse_event("merge_group", R"({"merge_group":{"base_sha":"b","head_sha":"h"}})", "o/r");
  CHECK(mg.kind == EventKind::merge_group);
  CHECK(mg.head_sha == "h");
  auto push = parse_event("push", R"({"before":"0000000000000000000000000000000000000000","after":"a"})", "o/r");
  CHECK(is_null_sha(push.base_sha));
  CHECK(parse_event("pull_request", "", "o/r").problem ==
        "the pull_request event payload (GITHUB_EVENT_PATH) is missing");
  CHECK(parse_event("pull_request", "[1]", "o/r").problem == "the pull_request event payload is not a JSON object");
  CHECK(parse_event("schedule", "", "").kind == EventKind::other);
}
