#include "report.hpp"

#include <cstdio>

#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "gatekit/junit_writer.hpp"
#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit::smoke_runner {

namespace {

double seconds(milliseconds d) { return static_cast<double>(d.count()) / 1000.0; }

const Smoke& smoke_of(const RunReport& r, const SmokeResult& s) { return r.manifest->smokes[s.index]; }

std::string tail_bytes(const std::string& text, std::size_t n) {
  if (text.size() <= n) return text;
  return "[... earlier output left out ...]\n" + text.substr(text.size() - n);
}

std::string status_cell(Status s) {
  switch (s) {
    case Status::passed: return "✅ passed";
    case Status::failed: return "❌ failed";
    case Status::timed_out: return "⏱️ timed out";
    case Status::error: return "❌ error";
    case Status::skipped: return "⏭️ skipped";
    case Status::cancelled: return "🚫 cancelled";
    case Status::not_run: return "⚪ not run";
  }
  return "";
}

// A child's output as a person can read it in the job summary: valid UTF-8, without the
// control characters (colour escapes, NUL, backspace) a browser shows as boxes.
std::string printable(std::string_view text) {
  std::string out;
  for (char c : gatekit::to_valid_utf8(text)) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 || c == '\n' || c == '\t') out += c;
  }
  return out;
}

// A message (possibly several lines, e.g. every manifest error) as a Markdown quote whose
// text cannot become markup.
std::string quote(const std::string& message) {
  std::vector<std::string> lines;
  for (const auto& line : gatekit::split_lines(message)) lines.push_back("> " + gatekit::markdown_text(line));
  return gatekit::join(lines, "  \n");
}

}  // namespace

Counts count_results(const std::vector<SmokeResult>& smokes) {
  Counts c;
  for (const auto& s : smokes) {
    switch (s.status) {
      case Status::passed: ++c.passed; break;
      case Status::failed: ++c.failed; break;
      case Status::timed_out: ++c.timed_out; break;
      case Status::error: ++c.errors; break;
      case Status::skipped: ++c.skipped; break;
      case Status::cancelled: ++c.cancelled; break;
      case Status::not_run: ++c.not_run; break;
    }
  }
  return c;
}

std::string report_json(const RunReport& r) {
  namespace json = boost::json;
  json::object gpus;
  if (r.gpus_known) {
    json::array devices;
    for (const auto& d : r.gpus.devices) devices.push_back(json::object{{"index", d.index}, {"name", d.name}});
    json::object visibility;
    for (const auto& [k, v] : r.gpus.visibility) visibility[k] = v;
    gpus = {{"count", r.gpus.count}, {"backend", r.gpus.backend}, {"devices", devices},
            {"driver_version", r.gpus.driver_version}, {"runtime_version", r.gpus.runtime_version},
            {"visibility", visibility}};
  }
  const auto c = count_results(r.smokes);
  json::array smokes;
  for (const auto& s : r.smokes) {
    const auto& smoke = smoke_of(r, s);
    json::array command;
    for (const auto& t : smoke.command) command.push_back(json::string(t));
    json::array devices;
    for (int d : s.devices) devices.push_back(d);
    json::object o{{"name", smoke.name},
                   {"command", command},
                   {"min_gpus", smoke.min_gpus},
                   {"pr", smoke.pr},
                   {"timeout_ms", smoke.timeout.count()},
                   // A progress report shows smokes still running as such.
                   {"status", s.start && s.status == Status::not_run ? std::string("running")
                                                                      : std::string(to_string(s.status))},
                   {"reason", s.reason},
                   {"devices", devices},
                   {"start_ms", s.start ? json::value(s.start->count()) : json::value(nullptr)},
                   {"duration_ms", s.duration.count()},
                   {"exit_code", s.start && s.signal == 0 && s.exit_code >= 0 ? json::value(s.exit_code) : json::value(nullptr)},
                   {"signal", s.signal},
                   {"output_bytes", s.output_bytes},
                   {"output_tail", tail_bytes(s.output, 16u << 10)}};
    smokes.push_back(std::move(o));
  }
  json::object doc{{"tool", "smoke-runner"},
                   {"manifest", r.manifest->path},
                   {"tier", r.tier},
                   {"result", r.result},
                   {"exit_code", r.exit_code},
                   {"message", r.message},
                   {"started_at", r.started_at},
                   {"duration_ms", r.duration.count()},
                   {"concurrent", r.concurrent},
                   {"gpus", r.gpus_known ? json::value(gpus) : json::value(nullptr)},
                   {"counts", json::object{{"passed", c.passed}, {"failed", c.failed}, {"timed_out", c.timed_out},
                                           {"error", c.errors}, {"skipped", c.skipped}, {"cancelled", c.cancelled},
                                           {"not_run", c.not_run}}},
                   {"smokes", smokes}};
  // Boost.JSON writes a string's bytes as they are: a smoke's output or a device name that
  // is not UTF-8 would make the file invalid JSON. Repairing the serialized text is enough
  // (and covers every field): an invalid sequence only ever occurs inside a string and the
  // repair never touches an ASCII byte.
  return gatekit::to_valid_utf8(json::serialize(doc)) + "\n";
}

std::string report_junit(const RunReport& r) {
  gatekit::JunitSuite suite;
  suite.name = "smoke-runner" + (r.tier.empty() ? std::string() : " (tier " + r.tier + ")");
  suite.timestamp = r.started_at;
  suite.time_s = seconds(r.duration);
  suite.properties["manifest"] = r.manifest->path;
  if (!r.tier.empty()) suite.properties["tier"] = r.tier;
  if (r.gpus_known) suite.properties["gpus"] = r.gpus.describe();
  for (const auto& s : r.smokes) {
    const auto& smoke = smoke_of(r, s);
    gatekit::JunitCase c;
    c.classname = "smokes";
    c.name = smoke.name;
    c.time_s = seconds(s.duration);
    c.system_out = tail_bytes(s.output, 64u << 10);
    switch (s.status) {
      case Status::passed: break;
      case Status::failed:
        c.outcome = gatekit::JunitOutcome::failure;
        c.type = "failed";
        break;
      case Status::timed_out:
        c.outcome = gatekit::JunitOutcome::failure;
        c.type = "timeout";
        break;
      case Status::error:
        c.outcome = gatekit::JunitOutcome::error;
        c.type = "error";
        break;
      case Status::cancelled:
        c.outcome = gatekit::JunitOutcome::error;
        c.type = "cancelled";
        break;
      case Status::skipped: c.outcome = gatekit::JunitOutcome::skipped; break;
      case Status::not_run: c.outcome = gatekit::JunitOutcome::skipped; break;
    }
    c.message = s.status == Status::skipped ? "skipped: " + s.reason : s.reason;
    if (c.outcome == gatekit::JunitOutcome::failure || c.outcome == gatekit::JunitOutcome::error)
      c.detail = display_command(smoke.command) + "\n" + s.reason;
    suite.cases.push_back(std::move(c));
  }
  // A run that stopped before any smoke (bad manifest, no GPU) still fails visibly in a
  // JUnit viewer.
  if (r.result == "error" || r.result == "cancelled") {
    gatekit::JunitCase c;
    c.classname = "smoke-runner";
    c.name = r.result == "cancelled" ? "cancelled" : "setup";
    c.outcome = gatekit::JunitOutcome::error;
    c.type = r.result;
    c.message = r.message;
    suite.cases.push_back(std::move(c));
  }
  return gatekit::write_junit({suite});
}

std::string gantt_chart(const RunReport& r) {
  int max_device = -1;
  milliseconds end{0};
  for (const auto& s : r.smokes) {
    if (!s.start) continue;
    for (int d : s.devices) max_device = std::max(max_device, d);
    end = std::max(end, *s.start + s.duration);
  }
  if (max_device < 0) return {};
  std::string out = "```mermaid\ngantt\n    title Smokes on GPUs (" + gatekit::format_duration(end) +
                    " in all)\n    dateFormat x\n    axisFormat %M:%S\n";
  for (int d = 0; d <= max_device; ++d) {
    std::string section;
    for (const auto& s : r.smokes) {
      if (!s.start || std::find(s.devices.begin(), s.devices.end(), d) == s.devices.end()) continue;
      const char* tag = s.status == Status::passed ? "done" : (is_failure(s.status) ? "crit" : "active");
      const long long from = s.start->count();
      const long long to = std::max<long long>(from + 1, (*s.start + s.duration).count());
      // Names are restricted to [A-Za-z0-9._-], safe in mermaid task text.
      section += "    " + smoke_of(r, s).name + " :" + tag + ", " + std::to_string(from) + ", " + std::to_string(to) + "\n";
    }
    if (!section.empty()) out += "    section GPU " + std::to_string(d) + "\n" + section;
  }
  return out + "```\n";
}

std::string report_summary(const RunReport& r) {
  const auto c = count_results(r.smokes);
  std::vector<std::string> parts;
  auto add = [&](int n, const char* what) {
    if (n > 0) parts.push_back(std::to_string(n) + " " + what);
  };
  add(c.passed, "passed");
  add(c.failed, "failed");
  add(c.timed_out, "timed out");
  add(c.errors, "could not start");
  add(c.cancelled, "cancelled");
  add(c.skipped, "skipped");
  add(c.not_run, "not run");
  std::string icon = r.result == "passed" ? "✅" : r.result == "failed" ? "❌" : "⚠️";
  std::string out = "## " + icon + " GPU smokes: " + (parts.empty() ? "nothing to run" : gatekit::join(parts, ", ")) + "\n\n";
  std::vector<std::string> facts;
  if (!r.tier.empty()) facts.push_back("tier `" + r.tier + "`");
  // Device names come from the GPU runtime, the path from the command line: shown as text.
  if (r.gpus_known) facts.push_back(gatekit::markdown_text(r.gpus.describe()));
  facts.push_back("manifest " + gatekit::markdown_code(r.manifest->path));
  if (r.concurrent) facts.push_back("packed onto disjoint GPU sets");
  out += gatekit::join(facts, " · ") + "\n\n";
  if (!r.message.empty()) out += quote(r.message) + "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& s : r.smokes) {
    const auto& smoke = smoke_of(r, s);
    rows.push_back({gatekit::markdown_code(smoke.name), status_cell(s.status), display_devices(s.devices),
                    s.start ? gatekit::format_duration(s.duration) : "",
                    s.status == Status::passed ? "" : gatekit::markdown_text(s.reason)});
  }
  out += gatekit::markdown_table({"Smoke", "Result", "GPUs", "Duration", "Details"}, rows);
  const auto chart = gantt_chart(r);
  if (!chart.empty()) out += "\n" + chart;
  // Failed smokes: the end of their output, folded.
  for (const auto& s : r.smokes) {
    if (!is_failure(s.status) && s.status != Status::cancelled) continue;
    const auto& smoke = smoke_of(r, s);
    std::string block = "$ " + display_command(smoke.command) + "\n" + printable(tail_bytes(s.output, 4096));
    // Nothing inside may close the code fence.
    for (auto pos = block.find("```"); pos != std::string::npos; pos = block.find("```", pos + 4)) block.replace(pos, 3, "`\u200b``");
    out += "\n<details><summary><code>" + gatekit::html_text(smoke.name) + "</code>: " + gatekit::html_text(s.reason) +
           "</summary>\n\n```\n" + block + (block.back() == '\n' ? "" : "\n") + "```\n</details>\n";
  }
  return gatekit::to_valid_utf8(out);
}

std::string usage_error_summary(const std::string& message) {
  return "## ⚠️ GPU smokes: not run (usage error)\n\nsmoke-runner rejected its command line (exit 2), so no "
         "smoke ran and no report was written:\n\n" +
         quote(message) + "\n\nRun `smoke-runner --help` for the options.\n";
}

ReportFiles report_paths(const std::filesystem::path& dir) {
  return {dir / "smoke-results.json", dir / "smoke-junit.xml", dir / "smoke-summary.md"};
}

gatekit::Status write_reports(const RunReport& report, const std::filesystem::path& dir, gatekit::Files& files) {
  // Each report replaced atomically: a reader, or a kill mid-write, never sees half a file.
  if (auto made = files.make_directories(dir); !made) return made;
  const auto paths = report_paths(dir);
  if (auto s = files.replace(paths.json, report_json(report)); !s) return s;
  if (auto s = files.replace(paths.junit, report_junit(report)); !s) return s;
  return files.replace(paths.summary, report_summary(report));
}

gatekit::Result<std::map<std::string, milliseconds>> read_durations(const std::string& json_text) {
  boost::system::error_code ec;
  // Reports written before smoke-runner repaired its JSON may hold raw bytes from a
  // smoke's output; their durations are still good.
  auto doc = boost::json::parse(gatekit::to_valid_utf8(json_text), ec);
  if (ec) return gatekit::could_not_evaluate("not JSON: " + ec.message());
  if (!doc.is_object()) return gatekit::could_not_evaluate("not a smoke-runner JSON report (expected an object)");
  const auto* smokes = json_find(doc.get_object(), "smokes");
  if (smokes == nullptr || !smokes->is_array())
    return gatekit::could_not_evaluate("not a smoke-runner JSON report (no 'smokes' list)");
  std::map<std::string, milliseconds> out;
  for (const auto& item : smokes->get_array()) {
    if (!item.is_object()) continue;
    const auto& o = item.get_object();
    auto name = json_string_at(o, "name");
    auto status = json_string_at(o, "status");
    auto ms = json_int_at(o, "duration_ms");
    if (!name || !status || !ms) continue;
    if (*status != "passed" && *status != "failed" && *status != "timed_out") continue;
    if (*ms >= 0 && *ms < 7LL * 86'400'000) out[*name] = milliseconds(*ms);
  }
  return out;
}

}  // namespace gatekit::smoke_runner
