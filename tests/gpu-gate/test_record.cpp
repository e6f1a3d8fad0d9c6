// The record message: format/parse round trip, and the strict parser on hostile input.
#include <string>

#include "catch.hpp"
#include "record/record.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

const std::string kTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const std::string kCommit = "ce854847891d838e6d0678486bd0ae1b3cac0506";
const std::string kConfig = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

GateRecord sample() {
  GateRecord r;
  r.verdict = Verdict::pass;
  r.duration = std::chrono::milliseconds(245'000);
  r.counts = {120, 0, 3, 0};
  r.commit = kCommit;
  r.tree = kTree;
  r.gatekit_version = "0.4.0";
  r.time = 1'764'583'200;  // 2025-12-01T10:00:00Z
  r.machine = "mac-studio";
  r.device = {"cuda", 2, {"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3"}, "12.4", "", "CUDA_VISIBLE_DEVICES=0,1"};
  r.scope = "gate: 42 test files, 8 workers";
  r.stress = "not needed (no concurrency change)";
  r.config = kConfig;
  return r;
}

const std::string kMessage =
    "gpu-gate: pass in 4m 05s (120 passed, 0 failed, 3 skipped, 0 errors)\n"
    "\n"
    "format: gatekit-gpu-gate/2\n"
    "verdict: pass\n"
    "duration-ms: 245000\n"
    "passed: 120\n"
    "failed: 0\n"
    "skipped: 3\n"
    "errors: 0\n"
    "commit: ce854847891d838e6d0678486bd0ae1b3cac0506\n"
    "tree: 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
    "gatekit: 0.4.0\n"
    "time: 2025-12-01T10:00:00Z\n"
    "machine: mac-studio\n"
    "gpu-backend: cuda\n"
    "gpu-count: 2\n"
    "gpu: NVIDIA H100 80GB HBM3\n"
    "gpu: NVIDIA H100 80GB HBM3\n"
    "driver: 12.4\n"
    "visible-devices: CUDA_VISIBLE_DEVICES=0,1\n"
    "scope: gate: 42 test files, 8 workers\n"
    "stress: not needed (no concurrency change)\n"
    "config: sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string parse_error(const std::string& message) {
  auto parsed = parse_record(message);
  REQUIRE_FALSE(parsed.ok());
  return parsed.error().message;
}

}  // namespace

TEST_CASE("a record is written in the documented form and reads back the same") {
  CHECK(format_record(sample()) == kMessage);
  auto parsed = parse_record(kMessage);
  REQUIRE(parsed.ok());
  CHECK(parsed->verdict == Verdict::pass);
  CHECK(parsed->duration == std::chrono::milliseconds(245'000));
  CHECK(parsed->counts.passed == 120);
  CHECK(parsed->counts.skipped == 3);
  CHECK(parsed->commit == kCommit);
  CHECK(parsed->tree == kTree);
  CHECK(parsed->time == 1'764'583'200);
  CHECK(parsed->machine == "mac-studio");
  CHECK(parsed->device.gpus.size() == 2);
  CHECK(parsed->device.driver_version == "12.4");
  CHECK(parsed->device.runtime_version.empty());
  CHECK(parsed->config == kConfig);
  CHECK(parsed->format == 2);
  CHECK(format_record(*parsed) == kMessage);
}

TEST_CASE("a record of the first format, without the configuration's digest, still reads") {
  const std::string v1 = replace(replace(kMessage, "format: gatekit-gpu-gate/2", "format: gatekit-gpu-gate/1"),
                                 "config: " + kConfig + "\n", "");
  auto parsed = parse_record(v1);
  REQUIRE(parsed.ok());
  CHECK(parsed->format == 1);
  CHECK(parsed->config.empty());
  CHECK(format_record(*parsed) == v1);
  // Each format has exactly its own lines.
  CHECK(parse_error(replace(kMessage, "format: gatekit-gpu-gate/2", "format: gatekit-gpu-gate/1")) ==
        "the record has a config line, which format gatekit-gpu-gate/1 does not have");
  CHECK(parse_error(replace(kMessage, "config: " + kConfig + "\n", "")) == "the record has no config line");
}

TEST_CASE("the record parser refuses every malformed or hostile message, saying where") {
  CHECK(parse_error(replace(kMessage, "passed: 120", "passed: 12x")) == "line 6: passed: not a count from 0 to 1000000000");
  CHECK(parse_error(replace(kMessage, "passed: 120", "passed: -1")) == "line 6: passed: not a count from 0 to 1000000000");
  CHECK(parse_error(replace(kMessage, "verdict: pass", "verdict: maybe")) == "line 4: verdict: must be pass or fail");
  CHECK(parse_error(replace(kMessage, "format: gatekit-gpu-gate/2", "format: gatekit-gpu-gate/3")) ==
        "line 3: format: unknown format (this gatekit reads gatekit-gpu-gate/2 and gatekit-gpu-gate/1)");
  CHECK(parse_error(replace(kMessage, "config: sha256:0123", "config: sha1:0123")) ==
        "line 23: config: not a configuration digest like sha256:<64 hex digits>");
  CHECK(parse_error(replace(kMessage, "config: sha256:0123", "config: sha256:0123a")) ==
        "line 23: config: not a configuration digest like sha256:<64 hex digits>");
  CHECK(parse_error(replace(kMessage, "config: sha256:0123", "config: sha256:A123")) ==
        "line 23: config: not a configuration digest like sha256:<64 hex digits>");
  CHECK(parse_error(replace(kMessage, "stress: not", "config: " + kConfig + "\nstress: not")) ==
        "line 24: config: given twice");
  CHECK(parse_error(replace(kMessage, "tree: 4b825dc6", "tree: 4B825DC6")) == "line 11: tree: not a full object name");
  CHECK(parse_error(replace(kMessage, "time: 2025-12-01T10:00:00Z", "time: 2025-02-30T10:00:00Z")) ==
        "line 13: time: not a UTC time like 2026-12-01T10:00:00Z");
  CHECK(parse_error(replace(kMessage, "machine: mac-studio", "machine: ../x")) ==
        "line 14: machine: the machine id '../x' must start with a letter or digit");
  CHECK(parse_error(replace(kMessage, "driver: 12.4\n", "driver: 12.4\ndriver: 12.5\n")) == "line 20: driver: given twice");
  CHECK(parse_error(replace(kMessage, "driver: 12.4\n", "colour: red\n")) == "line 19: 'colour': unknown key");
  CHECK(parse_error(replace(kMessage, "driver: 12.4\n", "driver: 12\x1b[31m\n")) ==
        "line 19: driver: must be 1 to 64 printable ASCII characters");
  CHECK(parse_error(replace(kMessage, "machine: mac-studio\n", "")) == "the record has no machine line");
  CHECK(parse_error(replace(kMessage, "gpu-count: 2", "gpu-count: 1")) == "the record names more GPUs than its gpu-count");
  CHECK(parse_error(replace(kMessage, "gpu-gate: pass in", "gpu-gate: PASS in")) ==
        "the record is not in the form gpu-gate writes (subject line or order of keys)");
  CHECK(parse_error(kMessage.substr(0, kMessage.size() - 1)) == "the record does not end with a line break");
  CHECK(parse_error("gpu-gate: pass\n") == "the record has no body after its subject line");
  CHECK(parse_error(kMessage + std::string(kMaxRecordBytes, 'x')) ==
        "the record is larger than " + std::to_string(kMaxRecordBytes) + " bytes");
}

TEST_CASE("result ref names carry the tree, the machine and the run, and nothing else") {
  const std::string commit = "0123456789abcdef0123456789abcdef01234567";
  const std::string run = run_id(1'764'583'200, commit);
  CHECK(run == "20251201T100000Z-0123456789ab");
  CHECK(result_ref("gatekit-gate", RefHalf::mine, kTree, "m1", run) == "refs/gatekit-gate-mine/" + kTree + "/m1@" + run);
  CHECK(result_ref("gatekit-gate", RefHalf::published, kTree, "m1", run) == "refs/gatekit-gate/" + kTree + "/m1@" + run);
  CHECK(result_ref("gatekit-gate", RefHalf::no_gpu, kTree, "m1", run) == "refs/gatekit-gate-nogpu/" + kTree + "/m1@" + run);
  CHECK(published_name("gatekit-gate", "refs/gatekit-gate-mine/" + kTree + "/m1@" + run) ==
        "refs/gatekit-gate/" + kTree + "/m1@" + run);
  auto mine = parse_ref_name("gatekit-gate", "refs/gatekit-gate-mine/" + kTree + "/m1@" + run);
  REQUIRE(mine);
  CHECK(mine->half == RefHalf::mine);
  CHECK(mine->tree == kTree);
  CHECK(mine->machine == "m1");
  CHECK(mine->run == run);
  auto no_gpu = parse_ref_name("gatekit-gate", "refs/gatekit-gate-nogpu/" + kTree + "/m1@" + run);
  REQUIRE(no_gpu);
  CHECK(no_gpu->half == RefHalf::no_gpu);
  // The first layout, one ref per tree and machine, is still read.
  auto legacy = parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/m1");
  REQUIRE(legacy);
  CHECK(legacy->half == RefHalf::published);
  CHECK(legacy->run.empty());
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/a/b"));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/m1/extra"));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/m1@"));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/m1@20251201T100000Z-0123456789AB"));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/m1@2025-12-01T10:00:00Z"));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/@" + run));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree.substr(1) + "/m1"));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/other/" + kTree + "/m1"));
  CHECK_FALSE(parse_ref_name("gatekit-gate", "refs/gatekit-gate/" + kTree + "/.hidden"));
}

TEST_CASE("machine ids and namespaces are ref name components") {
  CHECK(valid_machine("mac-studio.local"));
  CHECK(valid_machine("-x").error().message == "the machine id '-x' must start with a letter or digit");
  CHECK(valid_machine("a b").error().message == "the machine id 'a b' may hold only letters, digits, '.', '_' and '-'");
  CHECK(valid_machine("a..b").error().message == "the machine id 'a..b' is not a valid ref name component");
  CHECK(valid_machine("a.lock").error().message == "the machine id 'a.lock' is not a valid ref name component");
  CHECK(valid_namespace("team-gate-mine").error().message ==
        "the namespace 'team-gate-mine' must not end in '-mine' (refs/<namespace>-mine/ holds this machine's results)");
  CHECK(valid_namespace("team-gate-nogpu").error().message ==
        "the namespace 'team-gate-nogpu' must not end in '-nogpu' (refs/<namespace>-nogpu/ holds results recorded without a GPU)");
  CHECK(machine_id_from_host("Mac Studio (2)") == "Mac-Studio--2-");
  CHECK(machine_id_from_host("..") == "machine");
  CHECK(machine_id_from_host("host.lock") == "host-lock");
}

TEST_CASE("outside text becomes a record value the parser accepts") {
  CHECK(clean_fact("  NVIDIA\tH100\x1b[0m  ") == "NVIDIA?H100?[0m");
  CHECK(clean_fact(std::string(300, 'a')).size() == kMaxFactBytes);
}

TEST_CASE("a Mac's record: backend metal, the macOS version as driver, Metal and MLX as runtime") {
  GateRecord r = sample();
  r.device = {"metal", 1, {"Apple M1 Max (32-core GPU)"}, "macOS 15.1 (24B83)", "Metal 3; MLX 0.29.1 applegpu_g13s", ""};
  const std::string message = format_record(r);
  CHECK(message.find("gpu-backend: metal\ngpu-count: 1\ngpu: Apple M1 Max (32-core GPU)\ndriver: macOS 15.1 (24B83)\n"
                     "runtime: Metal 3; MLX 0.29.1 applegpu_g13s\n") != std::string::npos);
  auto parsed = parse_record(message);
  REQUIRE(parsed.ok());
  CHECK(parsed->device.backend == "metal");
  CHECK(parsed->device.gpus == r.device.gpus);
  CHECK(parsed->device.runtime_version == r.device.runtime_version);
  CHECK(parse_error(replace(message, "gpu-backend: metal", "gpu-backend: vulkan")) ==
        "line 15: gpu-backend: must be cuda, hip, metal, override or none");
}
