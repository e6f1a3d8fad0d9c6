// The record commit's shape (parse_record_commit): exactly what gpu-gate writes, nothing git
// would read one way and gatekit another. Table-driven, then real git objects.
#include <string>
#include <vector>

#include "catch.hpp"
#include "record/record.hpp"
#include "test_ci_scene.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::git_in;

namespace {

const std::string kTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const std::string kAuthor = "author gatekit gpu-gate <gpu-gate@gatekit.invalid> 1800000000 +0000\n";
const std::string kCommitter = "committer gatekit gpu-gate <gpu-gate@gatekit.invalid> 1800000000 +0000\n";
const std::string kSignature =
    "gpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lHAAAAAQ\n \n -----END SSH SIGNATURE-----\n";

}  // namespace

TEST_CASE("a record commit has exactly the headers gpu-gate writes, once each, in order", "[record]") {
  const std::string tree = "tree " + kTree + "\n";
  const std::string message = "\ngpu-gate: pass\n";
  SECTION("the forms gpu-gate writes: unsigned, signed, signed in a SHA-256 repository") {
    // The message is a view into the object: each object outlives its parse.
    const std::string plain_object = tree + kAuthor + kCommitter + message;
    auto plain = parse_record_commit(plain_object);
    REQUIRE(plain.ok());
    CHECK(plain->tree == kTree);
    CHECK(plain->committer_time == 1'800'000'000);
    CHECK(plain->signature.empty());
    CHECK(plain->message == "gpu-gate: pass\n");
    const std::string signed_object = tree + kAuthor + kCommitter + kSignature + message;
    auto signed_ = parse_record_commit(signed_object);
    REQUIRE(signed_.ok());
    CHECK(signed_->signature == "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ\n\n-----END SSH SIGNATURE-----");
    CHECK(signed_->message == "gpu-gate: pass\n");
    const std::string sha256_object = tree + kAuthor + kCommitter + "gpgsig-sha256 x\n y\n" + message;
    auto sha256 = parse_record_commit(sha256_object);
    REQUIRE(sha256.ok());
    CHECK(sha256->signature == "x\ny");
  }
  struct Case {
    std::string object;
    std::string problem;
  };
  const std::string older = "committer gatekit gpu-gate <gpu-gate@gatekit.invalid> 1577750400 +0000\n";
  const std::vector<Case> cases{
      // git verifies a signature at the first committer's date; a reader of the last one would
      // take another date.
      {tree + kAuthor + older + kCommitter + message, "header 'committer' given twice"},
      {tree + kAuthor + kAuthor + kCommitter + message, "header 'author' given twice"},
      {tree + tree + kAuthor + kCommitter + message, "header 'tree' given twice"},
      {tree + kAuthor + kCommitter + kSignature + kSignature + message, "header 'gpgsig' given twice"},
      {tree + kAuthor + kCommitter + kSignature + "gpgsig-sha256 x\n" + message, "header 'gpgsig-sha256' given twice"},
      {tree + kCommitter + kAuthor + message, "no author header before 'committer'"},
      {tree + kAuthor + kCommitter + "parent " + kTree + "\n" + message,
       "a header 'parent' (a parent, an encoding or another header gpu-gate never writes)"},
      {tree + "parent " + kTree + "\n" + kAuthor + kCommitter + message,
       "a header 'parent' (a parent, an encoding or another header gpu-gate never writes)"},
      {tree + kAuthor + kCommitter + "encoding ISO-8859-1\n" + message,
       "a header 'encoding' (a parent, an encoding or another header gpu-gate never writes)"},
      {tree + kAuthor + kCommitter + "mergetag object x\n" + message,
       "a header 'mergetag' (a parent, an encoding or another header gpu-gate never writes)"},
      {kAuthor + kCommitter + message, "no tree header before 'author'"},
      {tree + kAuthor + message, "it has no committer header"},
      {tree + kAuthor + kCommitter, "it has no message"},
      {tree + " continued\n" + kAuthor + kCommitter + message, "a header line without a value"},
      {"tree 4b825dc\n" + kAuthor + kCommitter + message, "its tree is not a full object name"},
      {tree + "author gatekit gpu-gate 1800000000 +0000\n" + kCommitter + message,
       "its author line is not NAME <EMAIL> SECONDS ZONE"},
      {tree + kAuthor + "committer gatekit gpu-gate <g@x> 1800000000\n" + message,
       "its committer line is not NAME <EMAIL> SECONDS ZONE"},
      {tree + kAuthor + "committer gatekit gpu-gate <g@x> 18e8 +0000\n" + message,
       "its committer line is not NAME <EMAIL> SECONDS ZONE"},
      {tree + kAuthor + older + message, "its author date is not its committer date"},
  };
  for (const auto& c : cases) {
    INFO(c.object);
    auto refused = parse_record_commit(c.object);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().kind == ErrorKind::bad_input);
    CHECK(refused.error().message == "the record commit is not in the form gpu-gate writes: " + c.problem);
  }
}

TEST_CASE("a result whose commit has two committer lines is left out, the reason named", "[record][git]") {
  CiScene scene;
  const std::string head = scene.commit("a change");
  // A record as gpu-gate writes it, then the same commit with a second committer line: git
  // would verify a signature at the first line's date (2019 here), an older reader took the
  // last one (the record's own time), so the commit-date check passed.
  const std::string honest = scene.make_record(head, Verdict::pass, "honest-box");
  std::string raw = git_in(scene.dev, {"cat-file", "commit", honest}) + "\n";
  const auto committer = raw.find("\ncommitter ");
  REQUIRE(committer != std::string::npos);
  const auto record = parse_record(raw.substr(raw.find("\n\n") + 2));
  REQUIRE(record.ok());
  GateRecord forged = *record;
  forged.machine = "forged-box";
  raw = raw.substr(0, raw.find("\n\n") + 2) + format_record(forged);
  raw.insert(committer + 1, "committer Dev <dev@example.com> 1577750400 +0000\n");
  const std::string two = git_in(scene.dev, {"hash-object", "-t", "commit", "-w", "--stdin"}, raw);
  const std::string ref = scene.result_ref_of(two);
  git_in(scene.dev, {"update-ref", ref, two});
  git_in(scene.dev, {"update-ref", scene.result_ref_of(honest), honest});

  SystemProcessRunner runner;
  Git git(runner, scene.dev);
  std::vector<std::string> rejected;
  auto records = read_records(git, "gatekit-gate", &rejected);
  REQUIRE(records.ok());
  REQUIRE(records->size() == 1);
  CHECK(records->front().machine == "honest-box");
  CHECK(rejected == std::vector<std::string>{
                        "'" + ref + "': the record commit is not in the form gpu-gate writes: header 'committer' given twice"});
}
