#include "batch.hpp"

#include <algorithm>

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
    Observation o = observe(c);
    if (o == Observation::failed && batch.run.kind == RunKind::stress) o = Observation::flaky;
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

namespace {

boost::json::object flake_json(const Flake& f) {
  return {{"id", f.id},
          {"message", shorten(f.text.message, 2000)},
          {"detail", shorten(f.text.detail, kJournalDetailBytes)},
          {"file", f.text.file},
          {"line", f.text.line}};
}

boost::json::object comment_json(const PendingComment& c) {
  return {{"issue", c.issue}, {"id", c.id}, {"body", c.body}};
}

boost::json::object run_json(const RunStamp& run) {
  return {{"key", run.key}, {"url", run.url}, {"time", run.time}, {"kind", to_string(run.kind)}, {"scope", run.scope}};
}

std::size_t size_of(const boost::json::object& o) { return boost::json::serialize(o).size(); }

void note_test(JournalDrop& drop, const std::string& id) {
  for (const auto& t : drop.tests)
    if (t == id) return;
  drop.tests.push_back(id);
}

}  // namespace

JournalText journal_json(const Journal& journal, std::size_t max_bytes) {
  // Sizes of the pieces, as serialized: an object per flake, comment and run header, a comma
  // between neighbours. The newest are kept first; from the first that does not fit, every
  // older entry is left out and counted.
  const std::string empty = R"({"version":1,"runs":[],"comments":[]})" "\n";
  std::size_t used = empty.size();
  bool full = false;
  auto fits = [&](std::size_t bytes) {
    full = full || used + bytes > max_bytes;
    if (!full) used += bytes;
    return !full;
  };
  JournalText out;
  std::vector<bool> keep_comment(journal.comments.size(), false);
  for (std::size_t i = journal.comments.size(); i-- > 0;)
    keep_comment[i] = fits(size_of(comment_json(journal.comments[i])) + 1);
  std::vector<std::vector<bool>> keep_flake(journal.runs.size());
  for (std::size_t r = journal.runs.size(); r-- > 0;) {
    const Batch& run = journal.runs[r];
    keep_flake[r].assign(run.flakes.size(), false);
    // The header ({"key":...,"flakes":[]} and a comma) is paid with the run's newest flake.
    const std::size_t header = size_of(run_json(run.run)) + std::string(R"(,"flakes":[])").size() + 1;
    bool first = true;
    for (std::size_t f = run.flakes.size(); f-- > 0;) {
      keep_flake[r][f] = fits(size_of(flake_json(run.flakes[f])) + 1 + (first ? header : 0));
      first = first && !keep_flake[r][f];
    }
  }
  boost::json::array runs, comments;
  for (std::size_t r = 0; r < journal.runs.size(); ++r) {
    boost::json::array flakes;
    for (std::size_t f = 0; f < journal.runs[r].flakes.size(); ++f) {
      if (keep_flake[r][f]) {
        flakes.push_back(flake_json(journal.runs[r].flakes[f]));
        continue;
      }
      ++out.dropped.flakes;
      note_test(out.dropped, journal.runs[r].flakes[f].id);
    }
    if (flakes.empty()) continue;
    boost::json::object run = run_json(journal.runs[r].run);
    run["flakes"] = std::move(flakes);
    runs.push_back(std::move(run));
  }
  for (std::size_t i = 0; i < journal.comments.size(); ++i) {
    if (keep_comment[i]) {
      comments.push_back(comment_json(journal.comments[i]));
      continue;
    }
    ++out.dropped.comments;
    note_test(out.dropped, journal.comments[i].id);
  }
  out.json = boost::json::serialize(boost::json::object{{"version", 1}, {"runs", runs}, {"comments", comments}}) + "\n";
  return out;
}

namespace {

// The JSON in `text`, or where it stops being JSON: "line L, column C: not JSON (why)" (a
// journal cut short stops at its end).
Result<boost::json::value> parse_json_at(std::string_view text) {
  boost::json::stream_parser parser;
  boost::system::error_code ec;
  std::size_t used = parser.write(text.data(), text.size(), ec);
  if (!ec) parser.finish(ec);
  if (!ec) return parser.release();
  used = std::min(used, text.size());
  const std::string_view before = text.substr(0, used);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t start = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
  return could_not_evaluate("line " + std::to_string(line) + ", column " + std::to_string(used - start + 1) +
                            ": not JSON (" + ec.message() + ")");
}

}  // namespace

Result<Journal> parse_journal(std::string_view json) {
  auto parsed = parse_json_at(json);
  if (!parsed) return parsed.error();
  const boost::json::value& value = *parsed;
  const boost::json::value* runs = value.is_object() ? json_find(value.get_object(), "runs") : nullptr;
  if (runs == nullptr || !runs->is_array()) return could_not_evaluate("not a flaky-tracker journal (no \"runs\" list)");
  Journal journal;
  for (const auto& r : runs->get_array()) {
    const std::string nth = "run " + std::to_string(journal.runs.size() + 1);
    if (!r.is_object()) return could_not_evaluate(nth + " in the journal is not a JSON object");
    const auto& o = r.get_object();
    Batch batch;
    batch.run = {json_string_at(o, "key").value_or(""), json_string_at(o, "url").value_or(""),
                 json_string_at(o, "time").value_or(""), kind_of(json_string_at(o, "kind").value_or("pr")),
                 json_string_at(o, "scope").value_or("")};
    if (batch.run.key.empty()) return could_not_evaluate(nth + " in the journal has no key");
    if (const auto* flakes = json_find(o, "flakes"); flakes && flakes->is_array())
      for (const auto& f : flakes->get_array()) {
        const auto* fo = f.if_object();
        const auto id = fo ? json_string_at(*fo, "id") : std::nullopt;
        if (!id || id->empty()) return could_not_evaluate("a flake of run " + batch.run.key + " in the journal has no test id");
        const auto line = json_int_at(*fo, "line").value_or(0);
        batch.flakes.push_back({*id,
                                {json_string_at(*fo, "message").value_or(""), json_string_at(*fo, "detail").value_or(""),
                                 json_string_at(*fo, "file").value_or(""),
                                 line > 0 && line < 10'000'000 ? static_cast<int>(line) : 0}});
      }
    journal.runs.push_back(std::move(batch));
  }
  if (const auto* comments = json_find(value.get_object(), "comments"); comments && comments->is_array())
    for (const auto& c : comments->get_array()) {
      const auto* co = c.if_object();
      const auto issue = co ? json_int_at(*co, "issue") : std::nullopt;
      const auto body = co ? json_string_at(*co, "body") : std::nullopt;
      if (!issue || *issue <= 0 || !body)
        return could_not_evaluate("comment " + std::to_string(journal.comments.size() + 1) +
                                  " in the journal has no issue number or body");
      journal.comments.push_back({*issue, json_string_at(*co, "id").value_or(""), *body});
    }
  return journal;
}

}  // namespace gatekit::flaky_tracker
