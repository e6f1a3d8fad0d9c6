// Who signed a gate result: git's own SSH verification over real commits and real keys.
#include "signatures.hpp"

#include "catch.hpp"
#include "test_ci_scene.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;
using gatekit::testing::CiScene;
using gatekit::testing::git_in;

TEST_CASE("only a good signature of full trust is trusted", "[signatures]") {
  struct Case {
    const char* letter;
    const char* trust;
    SignatureCheck expected;
  };
  const Case cases[] = {
      {"G", "fully", SignatureCheck::trusted},     {"G", "ultimate", SignatureCheck::trusted},
      {"G", "undefined", SignatureCheck::foreign}, {"G", "never", SignatureCheck::foreign},
      {"U", "undefined", SignatureCheck::foreign}, {"X", "fully", SignatureCheck::foreign},
      {"Y", "fully", SignatureCheck::foreign},     {"R", "fully", SignatureCheck::foreign},
      {"B", "undefined", SignatureCheck::bad},     {"N", "undefined", SignatureCheck::unsigned_},
      {"E", "undefined", SignatureCheck::unverifiable}, {"", "", SignatureCheck::unverifiable},
      {"Q", "fully", SignatureCheck::unverifiable},
  };
  for (const auto& c : cases) {
    INFO(c.letter << " " << c.trust);
    CHECK(classify_signature(c.letter, c.trust) == c.expected);
  }
}

TEST_CASE("the signature log is read field by field, the principal last", "[signatures]") {
  const std::string a(40, 'a'), b(40, 'b');
  auto verdicts = parse_signature_log(a + "\x1fG\x1f" "fully\x1fSHA256:k1\x1f" "alice \x1f odd\n" + b +
                                      "\x1fN\x1fundefined\x1f\x1f\n");
  REQUIRE(verdicts.ok());
  CHECK(verdicts->at(a).check == SignatureCheck::trusted);
  CHECK(verdicts->at(a).signer == "alice \x1f odd");
  CHECK(verdicts->at(a).key == "SHA256:k1");
  CHECK(verdicts->at(b).check == SignatureCheck::unsigned_);
  CHECK(verdicts->at(b).signer.empty());

  auto bad = parse_signature_log("warning: something\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "unexpected output of git's signature check, line 1: 'warning: something'");
}

TEST_CASE("signatures are verified against the given allowed signers", "[signatures][git]") {
  CiScene scene;
  const auto alice = scene.key("alice");
  const auto mallory = scene.key("mallory");
  const std::string head = scene.commit("a change");
  const std::string good = scene.publish(head, Verdict::pass, "alice-box", &alice);
  const std::string foreign = scene.publish(head, Verdict::pass, "mallory-box", &mallory);
  const std::string plain = scene.publish(head, Verdict::pass, "plain-box");
  // A bad signature: alice's signed record with its message changed afterwards.
  std::string raw = git_in(scene.dev, {"cat-file", "commit", good});
  const auto at = raw.find("pass in");
  REQUIRE(at != std::string::npos);
  raw.replace(at, 4, "fail");
  const std::string tampered = git_in(scene.dev, {"hash-object", "-t", "commit", "-w", "--stdin"}, raw + "\n");

  SystemProcessRunner runner;
  SystemFiles files;
  Git git(runner, scene.dev);
  const std::string signers = "alice@example.com " + alice.public_line + "\n";
  auto verdicts = verify_signatures(git, files, signers, {good, foreign, plain, tampered});
  REQUIRE(verdicts.ok());
  CHECK(verdicts->at(good).check == SignatureCheck::trusted);
  CHECK(verdicts->at(good).signer == "alice@example.com");
  CHECK(verdicts->at(foreign).check == SignatureCheck::foreign);
  CHECK(verdicts->at(foreign).key.rfind("SHA256:", 0) == 0);
  CHECK(verdicts->at(plain).check == SignatureCheck::unsigned_);
  CHECK(verdicts->at(tampered).check == SignatureCheck::bad);

  SECTION("an empty allowed-signers file trusts nobody") {
    auto none = verify_signatures(git, files, "", {good});
    REQUIRE(none.ok());
    CHECK(none->at(good).check == SignatureCheck::foreign);
  }
  SECTION("the temporary copy of the file is gone afterwards") {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
      CHECK(entry.path().filename().string().rfind("gatekit-allowed-signers-", 0) != 0);
  }
  SECTION("no commits: no git process") {
    FakeProcessRunner none([](const ProcessSpec&) -> Result<ProcessResult> { return could_not_evaluate("no git"); });
    Git fake(none, scene.dev);
    auto empty = verify_signatures(fake, files, signers, {});
    REQUIRE(empty.ok());
    CHECK(empty->empty());
    CHECK(none.calls.empty());
  }
  SECTION("a value that is not an object name never reaches git") {
    auto refused = verify_signatures(git, files, signers, {"--output=/tmp/x"});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "not a commit object name: '--output=/tmp/x'");
  }
}
