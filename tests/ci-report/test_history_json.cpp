// The history file: what --save-history writes, --history reads back the same; a bad file
// names the file and the field.
#include "catch.hpp"
#include "gatekit/result.hpp"
#include "history_json.hpp"

using namespace gatekit::ci_report;

TEST_CASE("history_json: a round trip keeps every field") {
  History h;
  h.runs.push_back({7, "gpu-tests.yml", "pull_request", "abc", "success", 1'800'000'000, true,
                    {{9, "pytest (GPU)", "success", {"self-hosted", "gpu"}, "box", 1'800'000'000, 1'800'000'060,
                      1'800'001'860, true}}});
  h.flaky.push_back({3, "flaky: t", "closed", 1'800'000'000, 1'800'086'400});
  h.flaky.push_back({4, "flaky: u", "open", 1'800'000'000, 0, "t.py::u", 5, {7, 8}, true, 6});
  h.gpu_gate.push_back({"abc", 1'800'000'000, 0});
  h.gaps.push_back("GET x: HTTP 500");
  h.requests = 12;
  const auto back = history_from_json(history_to_json(h), "h.json");
  REQUIRE(back);
  CHECK(history_to_json(*back) == history_to_json(h));
  CHECK(back->runs[0].jobs[0].labels == std::vector<std::string>{"self-hosted", "gpu"});
  CHECK(back->gpu_gate[0].success == 0);
  CHECK(back->flaky[1].flake_runs == std::vector<std::int64_t>{7, 8});
  CHECK(back->flaky[1].runs_cut);
  CHECK(back->flaky[1].oldest_run == 6);
  CHECK(back->flaky[1].test == "t.py::u");
}

TEST_CASE("history_json: a flaky record without the state's fields (an older file) reads as no state") {
  const auto back = history_from_json(
      "{\"gatekit_ci_history\": 1}\n{\"flaky\": {\"number\": 3, \"title\": \"t\", \"state\": \"open\"}}\n", "h.jsonl");
  REQUIRE(back);
  CHECK(back->flaky[0].test.empty());
  CHECK(back->flaky[0].flake_runs.empty());
}

TEST_CASE("history_json: errors name the file, the line and the field") {
  const std::string head = "{\"gatekit_ci_history\": 1}\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      {"", "h.jsonl: empty: expected the header {\"gatekit_ci_history\": 1, ...}"},
      {"[\n", "h.jsonl:1: not JSON: "},
      {"{\"gatekit_ci_history\": 2}\n", "h.jsonl:1: expected the header {\"gatekit_ci_history\": 1, ...}"},
      {head + "\n[]\n", "h.jsonl:3: expected one record: {\"run\": ...}, {\"flaky\": ...} or {\"gpu_gate\": ...}"},
      {head + R"({"run": {}, "flaky": {}})", "h.jsonl:2: expected one record: "},
      {head + R"({"walk": {}})", "h.jsonl:2: walk: not a record kind (run, flaky, gpu_gate)"},
      {head + R"({"run": {"jobs": []}})", "h.jsonl:2: run.id: missing"},
      {head + R"({"run": {"id": 1}})", "h.jsonl:2: run.jobs: missing"},
      {head + R"({"run": {"id": 1, "created_at": "2026-11-01", "jobs": []}})",
       "h.jsonl:2: run.created_at: not a UTC time like 2026-12-01T10:00:00Z"},
      {head + R"({"run": {"id": 1, "jobs": [{"id": 2, "labels": [1]}]}})",
       "h.jsonl:2: run.jobs[0].labels: expected strings"},
      {head + R"({"run": {"id": 1, "jobs": [5]}})", "h.jsonl:2: run.jobs[0]: expected an object"},
      {head + R"({"flaky": {"number": "3"}})", "h.jsonl:2: flaky.number: expected an integer"},
      {head + R"({"flaky": {"number": 3, "flake_runs": [1, "2"]}})", "h.jsonl:2: flaky.flake_runs: expected integers"},
      {head + R"({"flaky": {"number": 3, "flake_runs": 1}})", "h.jsonl:2: flaky.flake_runs: expected an array"},
      {head + R"({"flaky": {"number": 3, "oldest_run": "1"}})", "h.jsonl:2: flaky.oldest_run: expected an integer"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    const auto got = history_from_json(text, "h.jsonl");
    REQUIRE_FALSE(got);
    CHECK(got.error().kind == gatekit::ErrorKind::bad_input);
    CHECK(got.error().message.rfind(message, 0) == 0);
    if (message.back() != ' ') CHECK(got.error().message == message);
  }
}
