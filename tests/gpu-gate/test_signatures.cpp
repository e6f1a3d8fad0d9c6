// Who signed a gate result: git's own SSH verification over real commits and real keys.
#include "record/signatures.hpp"

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

TEST_CASE("allowed signers are judged at the time of the check", "[signatures]") {
  const std::int64_t now = 1'800'000'000;  // 2027-01-15T08:00:00Z
  const std::string key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOr alice";
  struct Case {
    std::string options;  // "" = none
    bool kept;
    std::string left_out;
  };
  const std::vector<Case> cases{
      {"", true, ""},
      {"valid-before=\"20200101\"", false, "valid-before 20200101 has passed"},
      {"valid-before=\"20270115Z\"", false, "valid-before 20270115Z has passed"},
      {"valid-before=\"20270115090000Z\"", true, ""},
      // Local time, zone unknown: read 14 hours earlier, so 2027-01-15T20:00 local may have passed.
      {"valid-before=\"202701152000\"", false, "valid-before 202701152000 has passed"},
      {"valid-before=\"202701152300\"", true, ""},
      {"valid-after=\"20270116Z\"", false, "valid-after 20270116Z is not reached"},
      {"valid-after=\"20270115080000Z\"", true, ""},
      // Local time read 12 hours later: 2027-01-15T00:00 local may not have come yet.
      {"valid-after=\"20270115\"", false, "valid-after 20270115 is not reached"},
      {"namespaces=\"git,file\",VALID-BEFORE=\"20260101Z\"", false, "valid-before 20260101Z has passed"},
      {"cert-authority,valid-after=\"20200101Z\",valid-before=\"20300101Z\"", true, ""},
  };
  for (const auto& c : cases) {
    INFO(c.options);
    const std::string line = "alice@example.com " + (c.options.empty() ? "" : c.options + " ") + key;
    auto judged = signers_valid_at("# who may sign\n" + line + "\n", now, "allowed");
    REQUIRE(judged.ok());
    CHECK(judged->text == "# who may sign\n" + (c.kept ? line + "\n" : std::string()));
    CHECK(judged->left_out == (c.kept ? std::vector<std::string>{} : std::vector<std::string>{"line 2 (alice@example.com): " + c.left_out}));
  }
  for (const std::string bad : {"2020-01-01", "2020010", "20201301", "", "20200101x"}) {
    auto refused = signers_valid_at("a@b valid-before=\"" + bad + "\" " + key + "\n", now, "allowed");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().kind == ErrorKind::bad_input);
    CHECK(refused.error().message == "allowed:1: valid-before: '" + bad +
                                         "' is not a time like 20260101, 202601011200 or 20260101120000Z");
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
  auto verdicts = verify_signatures(git, files, signers, {good, foreign, plain, tampered}, gatekit::testing::now_seconds());
  REQUIRE(verdicts.ok());
  CHECK(verdicts->at(good).check == SignatureCheck::trusted);
  CHECK(verdicts->at(good).signer == "alice@example.com");
  CHECK(verdicts->at(foreign).check == SignatureCheck::foreign);
  CHECK(verdicts->at(foreign).key.rfind("SHA256:", 0) == 0);
  CHECK(verdicts->at(plain).check == SignatureCheck::unsigned_);
  CHECK(verdicts->at(tampered).check == SignatureCheck::bad);

  SECTION("an empty allowed-signers file trusts nobody") {
    auto none = verify_signatures(git, files, "", {good}, gatekit::testing::now_seconds());
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
    auto empty = verify_signatures(fake, files, signers, {}, gatekit::testing::now_seconds());
    REQUIRE(empty.ok());
    CHECK(empty->empty());
    CHECK(none.calls.empty());
  }
  SECTION("a key whose validity ended is not trusted now, whatever date the commit carries") {
    const std::string expired = "alice@example.com valid-before=\"20200101Z\" " + alice.public_line + "\n";
    // The commit is dated now: git itself refuses the key at that date.
    auto verdicts_now = verify_signatures(git, files, expired, {good}, gatekit::testing::now_seconds());
    REQUIRE(verdicts_now.ok());
    CHECK(verdicts_now->at(good).check != SignatureCheck::trusted);
    // Dated 2019, when the key was valid: git trusts it at that date, gatekit does not now.
    const std::string in_2019 = scene.make_record(head, Verdict::pass, "alice-box", &alice,
                                                  gatekit::testing::now_seconds() - 1'577'750'400);
    auto back_dated = verify_signatures(git, files, expired, {in_2019}, gatekit::testing::now_seconds());
    REQUIRE(back_dated.ok());
    CHECK(back_dated->at(in_2019).check == SignatureCheck::not_valid_now);
    CHECK(back_dated->at(in_2019).signer == "alice@example.com");
    // At a check time inside the key's validity it would be trusted.
    auto then = verify_signatures(git, files, expired, {in_2019}, 1'577'750'400 + 60);
    REQUIRE(then.ok());
    CHECK(then->at(in_2019).check == SignatureCheck::trusted);
  }
  SECTION("a revoked key is never trusted") {
    auto revoked = verify_signatures(git, files, signers, {good}, gatekit::testing::now_seconds(), "allowed",
                                     std::string_view(alice.public_line + "\n"));
    REQUIRE(revoked.ok());
    CHECK(revoked->at(good).check != SignatureCheck::trusted);
    auto others = verify_signatures(git, files, signers, {good}, gatekit::testing::now_seconds(), "allowed",
                                    std::string_view(mallory.public_line + "\n"));
    REQUIRE(others.ok());
    CHECK(others->at(good).check == SignatureCheck::trusted);
  }
  SECTION("a value that is not an object name never reaches git") {
    auto refused = verify_signatures(git, files, signers, {"--output=/tmp/x"}, gatekit::testing::now_seconds());
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "not a commit object name: '--output=/tmp/x'");
  }
}

namespace {

// An OpenSSH user certificate for `key`, signed by `ca` for principal alice@example.com,
// valid in `validity` (ssh-keygen -V); signing with the returned key signs with the certificate.
gatekit::testing::SshKey certify(CiScene& scene, const gatekit::testing::SshKey& ca,
                                 const gatekit::testing::SshKey& key, const std::string& validity) {
  gatekit::testing::run_checked({"ssh-keygen", "-q", "-s", ca.file.string(), "-I", "alice", "-n", "alice@example.com",
                                 "-V", validity, key.file.string() + ".pub"},
                                scene.tmp.path());
  return {key.file.string() + "-cert.pub", key.public_line};
}

std::string ssh_day(std::int64_t seconds) {
  std::string out;
  for (char c : format_utc(seconds).substr(0, 10))
    if (c != '-') out += c;
  return out + "Z";
}

}  // namespace

TEST_CASE("a certificate is judged now, not at the commit date the signer chose", "[signatures][git]") {
  CiScene scene;
  const auto ca = scene.key("ca");
  const auto alice = scene.key("alice");
  const std::string head = scene.commit("a change");
  const std::int64_t now = gatekit::testing::now_seconds();
  const std::int64_t day = 86'400;
  SystemProcessRunner runner;
  SystemFiles files;
  Git git(runner, scene.dev);
  const std::string signers = "alice@example.com cert-authority " + ca.public_line + "\n";

  SECTION("a certificate that expired: git trusts a record dated inside its validity, gatekit does not") {
    // Valid for January 2020 only; the record commit is dated 15 January 2020.
    const auto cert = certify(scene, ca, alice, "20200101Z:20200201Z");
    const std::int64_t jan_15 = 1'579'046'400;
    const std::string record = scene.make_record(head, Verdict::pass, "alice-box", &cert, now - jan_15);
    auto verdicts = verify_signatures(git, files, signers, {record}, now);
    REQUIRE(verdicts.ok());
    CHECK(verdicts->at(record).check == SignatureCheck::not_valid_now);
    CHECK(verdicts->at(record).signer == "alice@example.com");
    // Checked on 20 January 2020, it was valid.
    auto then = verify_signatures(git, files, signers, {record}, jan_15 + 5 * day);
    REQUIRE(then.ok());
    CHECK(then->at(record).check == SignatureCheck::trusted);
  }
  SECTION("a certificate valid now is trusted; one valid only from tomorrow is not") {
    const auto cert = certify(scene, ca, alice, ssh_day(now - 2 * day) + ":" + ssh_day(now + 2 * day));
    const std::string record = scene.make_record(head, Verdict::pass, "alice-box", &cert);
    auto verdicts = verify_signatures(git, files, signers, {record}, now);
    REQUIRE(verdicts.ok());
    CHECK(verdicts->at(record).check == SignatureCheck::trusted);
    auto before = verify_signatures(git, files, signers, {record}, now - 3 * day);
    REQUIRE(before.ok());
    CHECK(before->at(record).check == SignatureCheck::not_valid_now);
  }
  SECTION("a plain key beside the certificate authority is judged as before") {
    const auto bob = scene.key("bob");
    const std::string record = scene.make_record(head, Verdict::pass, "bob-box", &bob);
    auto verdicts = verify_signatures(git, files, signers + "bob@example.com " + bob.public_line + "\n", {record}, now);
    REQUIRE(verdicts.ok());
    CHECK(verdicts->at(record).check == SignatureCheck::trusted);
    CHECK(verdicts->at(record).signer == "bob@example.com");
  }
}

TEST_CASE("has_cert_authority finds the option on a line of the file", "[signatures]") {
  const std::string key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOr ca";
  CHECK(has_cert_authority("*@example.com cert-authority " + key + "\n"));
  CHECK(has_cert_authority("a@b namespaces=\"git\",CERT-AUTHORITY " + key + "\n"));
  CHECK_FALSE(has_cert_authority("a@b " + key + "\n"));
  CHECK_FALSE(has_cert_authority("# cert-authority " + key + "\n"));
  CHECK_FALSE(has_cert_authority("a@b namespaces=\"cert-authority\" " + key + "\n"));
}
