// The shard plan file: written and read back whole, and every field of a damaged one named.
#include "catch.hpp"
#include "shard_record.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

const std::string kDigest(64, 'a');

ShardRecord sample() {
  ShardRecord r;
  r.leg = "gpu";
  r.shards = 2;
  r.index = 1;
  r.tests = 3;
  r.tests_sha256 = kDigest;
  r.split_sha256 = std::string(64, 'b');
  r.durations = "the baseline b.json, 3 of 3 tests recorded";
  r.recorded = 3;
  r.start_ms = 2100;
  r.lists = {{2, std::string(64, 'c'), 700}, {1, std::string(64, 'd'), 600}};
  return r;
}

}  // namespace

TEST_CASE("shard record: written and read back") {
  const auto text = record_json(sample());
  CHECK(text ==
        "{\"format\":\"gatekit-shard-plan\",\"version\":1,\"leg\":\"gpu\",\"shards\":2,\"index\":1,\"tests\":{\"count\":3,"
        "\"sha256\":\"" + kDigest + "\"},\"split\":\"" + std::string(64, 'b') +
        "\",\"durations\":{\"from\":\"the baseline b.json, 3 of 3 tests recorded\",\"recorded\":3},\"start_ms\":2100,"
        "\"lists\":[{\"tests\":2,\"sha256\":\"" + std::string(64, 'c') + "\",\"ms\":700},{\"tests\":1,\"sha256\":\"" +
        std::string(64, 'd') + "\",\"ms\":600}]}\n");
  auto back = parse_record(text, "plan.json");
  REQUIRE(back);
  CHECK(back->leg == "gpu");
  CHECK(back->shards == 2);
  CHECK(back->index == 1);
  CHECK(back->tests == 3);
  CHECK(back->tests_sha256 == kDigest);
  CHECK(back->durations == "the baseline b.json, 3 of 3 tests recorded");
  CHECK(back->recorded == 3);
  CHECK(back->start_ms == 2100);
  REQUIRE(back->lists.size() == 2);
  CHECK(back->lists[1].tests == 1);
  CHECK(back->lists[1].tests_ms == 600);
}

TEST_CASE("shard record: a damaged plan names its field") {
  const std::string good = record_json(sample());
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  struct Case {
    std::string text;
    std::string error;
  };
  const std::vector<Case> cases{
      {"[]", "p.json: not a shard plan (not a JSON object)"},
      {"{\"format\":\"other\"}", "p.json: not a shard plan (`format` is not \"gatekit-shard-plan\")"},
      {with("\"version\":1", "\"version\":2"), "p.json: unsupported shard plan version (this gatekit reads version 1)"},
      {with("\"leg\":\"gpu\"", "\"leg\":7"), "p.json: `leg` is missing or not a string"},
      {with("\"shards\":2", "\"shards\":-2"), "p.json: `shards` is not a whole number from 0 to 256"},
      {with("\"shards\":2", "\"shards\":3"), "p.json: `lists` does not hold one entry per shard (3)"},
      {with("\"index\":1", "\"index\":2.5"), "p.json: `index` is not a whole number from 0 to 256"},
      {with("\"tests\":{", "\"tests\":[{"), "p.json: not a shard plan (not a JSON object)"},
      {with("\"count\":3", "\"count\":\"3\""), "p.json: `tests.count` is not a whole number from 0 to 1125899906842624"},
      {with(kDigest, "ABC"), "p.json: `tests.sha256` is not 64 lowercase hex digits"},
      {with("\"split\":\"", "\"split\":\"x"), "p.json: `split` is not 64 lowercase hex digits"},
      {with("\"recorded\":3", "\"recorded\":null"), "p.json: `durations.recorded` is not a whole number from 0 to 1125899906842624"},
      {with("\"start_ms\":2100", "\"start_ms\":-1"), "p.json: `start_ms` is not a whole number from 0 to 1125899906842624"},
      {with("\"lists\":[", "\"lists\":[7,"), "p.json: `lists[0]` is not an object"},
      {with("\"ms\":600", "\"ms\":\"600\""), "p.json: `lists[1].ms` is not a whole number from 0 to 1125899906842624"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto record = parse_record(c.text, "p.json");
    REQUIRE_FALSE(record);
    CHECK(record.error().kind == ErrorKind::could_not_evaluate);
    CHECK(record.error().message == c.error);
  }
  std::string index_beyond = with("\"index\":1", "\"index\":3");
  auto record = parse_record(index_beyond, "p.json");
  REQUIRE_FALSE(record);
  CHECK(record.error().message == "p.json: `index` is more than `shards` (2)");
}
