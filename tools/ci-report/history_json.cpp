#include "history_json.hpp"

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::ci_report {
namespace {

namespace json = boost::json;

constexpr std::int64_t kFormat = 1;
const std::string kHeader = "expected the header {\"gatekit_ci_history\": 1, ...}";
const std::string kRecordKinds = "expected one record: {\"run\": ...}, {\"flaky\": ...} or {\"gpu_gate\": ...}";

std::string time_text(std::int64_t t) { return t == 0 ? "" : format_utc(t); }

// Reads the fields of one line's record, remembering the first problem.
struct Reader {
  std::string where_line;  // "h.jsonl:4: "
  std::string error;

  void fail(const std::string& field, const std::string& what) {
    if (error.empty()) error = where_line + field + ": " + what;
  }
  const json::object* object(const json::value* v, const std::string& field) {
    if (v == nullptr) return fail(field, "missing"), nullptr;
    if (const auto* o = v->if_object()) return o;
    fail(field, "expected an object");
    return nullptr;
  }
  const json::array* array(const json::object& o, std::string_view key, const std::string& at) {
    const auto* v = o.if_contains(key);
    if (v == nullptr) return fail(at + std::string(key), "missing"), nullptr;
    if (const auto* a = v->if_array()) return a;
    fail(at + std::string(key), "expected an array");
    return nullptr;
  }
  std::string str(const json::object& o, std::string_view key, const std::string& at) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || v->is_null()) return {};
    if (v->is_string()) return std::string(v->get_string());
    fail(at + std::string(key), "expected a string");
    return {};
  }
  std::int64_t integer(const json::object& o, std::string_view key, const std::string& at) {
    const auto* v = o.if_contains(key);
    if (v != nullptr && v->is_int64()) return v->get_int64();
    fail(at + std::string(key), v == nullptr ? "missing" : "expected an integer");
    return 0;
  }
  std::int64_t time(const json::object& o, std::string_view key, const std::string& at) {
    const auto text = str(o, key, at);
    if (text.empty()) return 0;
    if (auto t = parse_utc(text)) return *t;
    fail(at + std::string(key), "not a UTC time like 2026-12-01T10:00:00Z");
    return 0;
  }
  std::int64_t optional_integer(const json::object& o, std::string_view key, const std::string& at) {
    const auto* v = o.if_contains(key);
    if (v == nullptr) return 0;
    if (v->is_int64()) return v->get_int64();
    fail(at + std::string(key), "expected an integer");
    return 0;
  }
  bool boolean(const json::object& o, std::string_view key, const std::string& at) {
    const auto* v = o.if_contains(key);
    if (v == nullptr) return false;
    if (v->is_bool()) return v->get_bool();
    fail(at + std::string(key), "expected true or false");
    return false;
  }

  // The fields from the issue's hidden state are optional: files from before them have none.
  FlakyIssue flaky(const json::object& f) {
    const std::string at = "flaky.";
    FlakyIssue out{integer(f, "number", at), str(f, "title", at), str(f, "state", at), time(f, "created_at", at),
                   time(f, "closed_at", at), str(f, "test", at), optional_integer(f, "flakes", at), {},
                   boolean(f, "runs_cut", at), optional_integer(f, "oldest_run", at)};
    if (f.if_contains("flake_runs") == nullptr) return out;
    if (const auto* runs = array(f, "flake_runs", at))
      for (const auto& r : *runs) {
        if (!r.is_int64()) {
          fail(at + "flake_runs", "expected integers");
          break;
        }
        out.flake_runs.push_back(r.get_int64());
      }
    return out;
  }

  Run run(const json::object& r) {
    Run out{integer(r, "id", "run."), str(r, "workflow", "run."), str(r, "event", "run."),
            str(r, "head_sha", "run."), str(r, "conclusion", "run."), time(r, "created_at", "run."),
            boolean(r, "gate_failed_open", "run."), {}, boolean(r, "from_fork", "run.")};
    const auto* jobs = array(r, "jobs", "run.");
    for (std::size_t k = 0; jobs != nullptr && k < jobs->size() && error.empty(); ++k) {
      if (k == 0) out.jobs.reserve(jobs->size());
      const auto at = "run.jobs[" + std::to_string(k) + "]";
      const auto* j = object(&(*jobs)[k], at);
      if (j == nullptr) break;
      const auto f = at + ".";
      Job job{integer(*j, "id", f), str(*j, "name", f), str(*j, "conclusion", f), {}, str(*j, "runner_name", f),
              time(*j, "created_at", f), time(*j, "started_at", f), time(*j, "completed_at", f),
              boolean(*j, "could_not_evaluate", f)};
      if (const auto* labels = array(*j, "labels", f))
        for (const auto& l : *labels) {
          if (!l.is_string()) {
            fail(f + "labels", "expected strings");
            break;
          }
          job.labels.emplace_back(l.get_string());
        }
      out.jobs.push_back(std::move(job));
    }
    return out;
  }
};

json::object run_json(const Run& r) {
  json::array jobs;
  for (const auto& j : r.jobs) {
    json::array labels;
    for (const auto& l : j.labels) labels.emplace_back(l);
    jobs.push_back(json::object{{"id", j.id}, {"name", j.name}, {"conclusion", j.conclusion},
                                {"labels", std::move(labels)}, {"runner_name", j.runner_name},
                                {"created_at", time_text(j.created)}, {"started_at", time_text(j.started)},
                                {"completed_at", time_text(j.completed)},
                                {"could_not_evaluate", j.could_not_evaluate}});
  }
  return json::object{{"id", r.id}, {"workflow", r.workflow}, {"event", r.event}, {"head_sha", r.head_sha},
                      {"conclusion", r.conclusion}, {"created_at", time_text(r.created)},
                      {"gate_failed_open", r.gate_failed_open}, {"from_fork", r.from_fork}, {"jobs", std::move(jobs)}};
}

}  // namespace

std::string history_to_json(const History& h) {
  json::array gaps;
  for (const auto& g : h.gaps) gaps.emplace_back(g);
  std::string out = json::serialize(json::object{{"gatekit_ci_history", kFormat}, {"requests", h.requests},
                                                 {"not_modified", h.not_modified}, {"gaps", std::move(gaps)}}) +
                    "\n";
  for (const auto& r : h.runs) out += json::serialize(json::object{{"run", run_json(r)}}) + "\n";
  for (const auto& f : h.flaky) {
    json::array runs;
    for (auto id : f.flake_runs) runs.emplace_back(id);
    out += json::serialize(json::object{
               {"flaky", json::object{{"number", f.number}, {"title", f.title}, {"state", f.state},
                                      {"created_at", time_text(f.created)}, {"closed_at", time_text(f.closed)},
                                      {"test", f.test}, {"flakes", f.flakes}, {"flake_runs", std::move(runs)},
                                      {"runs_cut", f.runs_cut}, {"oldest_run", f.oldest_run}}}}) +
           "\n";
  }
  for (const auto& g : h.gpu_gate)
    out += json::serialize(json::object{{"gpu_gate", json::object{{"sha", g.sha}, {"pushed_at", time_text(g.pushed)},
                                                                  {"success_at", time_text(g.success)}}}}) +
           "\n";
  return out;
}

HistoryLines::HistoryLines(std::string file) : file_(std::move(file)) {}

Status HistoryLines::add(std::string_view line) {
  ++line_number_;
  if (trim(line).empty()) return {};
  Reader in{file_ + ":" + std::to_string(line_number_) + ": ", {}};
  unsigned char buffer[16384];
  json::monotonic_resource arena(buffer, sizeof buffer);
  boost::system::error_code ec;
  const auto value = json::parse(line, ec, &arena);
  if (ec) return bad_input(in.where_line + "not JSON: " + ec.message());
  const auto* record = value.if_object();
  if (record == nullptr) return bad_input(in.where_line + (header_ ? kRecordKinds : kHeader));
  if (!header_) {
    const auto* format = record->if_contains("gatekit_ci_history");
    if (format == nullptr || !format->is_int64() || format->get_int64() != kFormat)
      return bad_input(in.where_line + kHeader);
    header_ = true;
    if (const auto* requests = record->if_contains("requests"); requests != nullptr && requests->is_int64())
      history_.requests = requests->get_int64();
    if (const auto* saved = record->if_contains("not_modified"); saved != nullptr && saved->is_int64())
      history_.not_modified = saved->get_int64();
    if (const auto* gaps = record->if_contains("gaps"); gaps != nullptr && gaps->is_array())
      for (const auto& g : gaps->get_array())
        if (g.is_string()) history_.gaps.emplace_back(g.get_string());
    return {};
  }
  if (record->size() != 1) return bad_input(in.where_line + kRecordKinds);
  const auto& [key, body] = *record->begin();
  if (key == "run") {
    if (const auto* r = in.object(&body, "run")) history_.runs.push_back(in.run(*r));
  } else if (key == "flaky") {
    if (const auto* f = in.object(&body, "flaky")) history_.flaky.push_back(in.flaky(*f));
  } else if (key == "gpu_gate") {
    if (const auto* g = in.object(&body, "gpu_gate"))
      history_.gpu_gate.push_back({in.str(*g, "sha", "gpu_gate."), in.time(*g, "pushed_at", "gpu_gate."),
                                   in.time(*g, "success_at", "gpu_gate.")});
  } else {
    in.fail(visible_controls(std::string(key)), "not a record kind (run, flaky, gpu_gate)");
  }
  if (!in.error.empty()) return bad_input(in.error);
  return {};
}

Result<History> HistoryLines::finish() {
  if (!header_) return bad_input(file_ + ": empty: " + kHeader);
  return std::move(history_);
}

Result<History> history_from_json(std::string_view text, const std::string& file) {
  HistoryLines lines(file);
  while (!text.empty()) {
    const auto end = text.find('\n');
    if (auto st = lines.add(text.substr(0, end)); !st) return st.error();
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
  }
  return lines.finish();
}

}  // namespace gatekit::ci_report
