#include "batch.hpp"

#include "gatekit/json.hpp"
#include "summary.hpp"

namespace gatekit::flaky_tracker {

namespace {

int rank(Observation o) {
  switch (o) {
    case Observation::flaky: return 4;
    case Observation::failed: return 3;
    case Observation::passed: return 2;
    case Observation::skipped: return 1;
    case Observation::absent: return 0;
  }
  return 0;
}

constexpr std::size_t kFlakeTextBytes = 16'000;

RunKind kind_of(std::string_view text) {
  if (text == "main") return RunKind::main;
  if (text == "daily") return RunKind::daily;
  if (text == "stress") return RunKind::stress;
  return RunKind::pr;
}

}  // namespace

void add_report(Batch& batch, const std::vector<junit::TestCase>& cases) {
  for (const auto& c : cases) {
    const Observation o = observe(c);
    const std::string key = issue_key(c.id());
    auto [it, inserted] = batch.seen.emplace(key, o);
    if (!inserted && rank(o) > rank(it->second)) it->second = o;
    if (o == Observation::flaky) {
      bool known = false;
      for (const auto& f : batch.flakes) known = known || f.id == key;
      if (!known)
        batch.flakes.push_back({key, {shorten(c.message, 2000), shorten(c.detail, kFlakeTextBytes), c.file, c.line}});
    }
  }
}

std::string journal_json(const std::vector<Batch>& batches) {
  boost::json::array out;
  const std::size_t first = batches.size() > kMaxJournalBatches ? batches.size() - kMaxJournalBatches : 0;
  for (std::size_t b = first; b < batches.size(); ++b) {
    const Batch& batch = batches[b];
    boost::json::array flakes;
    for (std::size_t i = 0; i < batch.flakes.size() && i < kMaxJournalFlakes; ++i) {
      const auto& f = batch.flakes[i];
      flakes.push_back(boost::json::object{{"id", f.id},
                                           {"message", f.text.message},
                                           {"detail", f.text.detail},
                                           {"file", f.text.file},
                                           {"line", f.text.line}});
    }
    out.push_back(boost::json::object{{"key", batch.run.key},
                                      {"url", batch.run.url},
                                      {"time", batch.run.time},
                                      {"kind", to_string(batch.run.kind)},
                                      {"scope", batch.run.scope},
                                      {"flakes", flakes}});
  }
  return boost::json::serialize(boost::json::object{{"version", 1}, {"runs", out}}) + "\n";
}

Result<std::vector<Batch>> parse_journal(std::string_view json) {
  boost::system::error_code ec;
  auto value = boost::json::parse(json, ec);
  const boost::json::value* runs = value.is_object() ? json_find(value.get_object(), "runs") : nullptr;
  if (ec || runs == nullptr || !runs->is_array()) return could_not_evaluate("not a flaky-tracker journal (no \"runs\" list)");
  std::vector<Batch> batches;
  for (const auto& r : runs->get_array()) {
    if (!r.is_object() || batches.size() >= kMaxJournalBatches) continue;
    const auto& o = r.get_object();
    Batch batch;
    batch.run = {json_string_at(o, "key").value_or(""), json_string_at(o, "url").value_or(""),
                 json_string_at(o, "time").value_or(""), kind_of(json_string_at(o, "kind").value_or("pr")),
                 json_string_at(o, "scope").value_or("")};
    if (batch.run.key.empty()) return could_not_evaluate("a run in the journal has no key");
    if (const auto* flakes = json_find(o, "flakes"); flakes && flakes->is_array())
      for (const auto& f : flakes->get_array()) {
        if (!f.is_object() || batch.flakes.size() >= kMaxJournalFlakes) continue;
        const auto& fo = f.get_object();
        const auto line = json_int_at(fo, "line").value_or(0);
        Flake flake{json_string_at(fo, "id").value_or(""),
                    {json_string_at(fo, "message").value_or(""), json_string_at(fo, "detail").value_or(""),
                     json_string_at(fo, "file").value_or(""), line > 0 && line < 10'000'000 ? static_cast<int>(line) : 0}};
        if (!flake.id.empty()) batch.flakes.push_back(std::move(flake));
      }
    batches.push_back(std::move(batch));
  }
  return batches;
}

}  // namespace gatekit::flaky_tracker
