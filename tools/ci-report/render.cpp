#include "render.hpp"

#include <cmath>
#include <cstdio>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::ci_report {
namespace {

std::string num(double v, int decimals = 1) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, std::isfinite(v) ? v : 0.0);
  return buffer;
}

std::string minutes(double m) { return num(m) + " min"; }
std::string day(std::int64_t t) { return format_utc(t).substr(0, 10); }
// API text in a table cell: a code span (markdown_table escapes its `|`), so no markup starts.
std::string cell(const std::string& text) { return text.empty() ? "(none)" : markdown_code(text); }

// A mermaid label: printable ASCII without quotes or brackets, at most 40 characters.
std::string chart_label(const std::string& text) {
  std::string out;
  for (char c : text)
    if (c >= ' ' && c <= '~' && c != '"' && c != '[' && c != ']' && c != '`' && c != '\\' && out.size() < 40)
      out += c;
  return out.empty() ? "(none)" : out;
}

std::string weekly_chart(const Report& r) {
  std::string x, saved, spent;
  double top = 1;
  for (const auto& w : r.weeks) {
    x += (x.empty() ? "\"" : ", \"") + day(w.start) + "\"";
    saved += (saved.empty() ? "" : ", ") + num(w.saved, 0);
    spent += (spent.empty() ? "" : ", ") + num(w.spent, 0);
    top = std::max({top, w.saved, w.spent});
  }
  return "```mermaid\nxychart-beta\n  title \"Minutes per week: spent (bars), saved by the gates (line)\"\n  x-axis [" +
         x + "]\n  y-axis \"minutes\" 0 --> " + num(std::ceil(top * 1.1), 0) + "\n  bar [" + spent + "]\n  line [" +
         saved + "]\n```\n";
}

std::string queue_chart(const Report& r) {
  if (r.queues.empty()) return "";
  std::string x, bars;
  double top = 1;
  for (std::size_t i = 0; i < r.queues.size() && i < 12; ++i) {
    x += (x.empty() ? "\"" : ", \"") + chart_label(r.queues[i].labels) + "\"";
    bars += (bars.empty() ? "" : ", ") + num(r.queues[i].median_s / 60.0);
    top = std::max(top, r.queues[i].median_s / 60.0);
  }
  return "```mermaid\nxychart-beta\n  title \"Median queue time per runner label (minutes)\"\n  x-axis [" + x +
         "]\n  y-axis \"minutes\" 0 --> " + num(std::ceil(top * 1.1), 0) + "\n  bar [" + bars + "]\n```\n";
}

std::string range(double low, double high) { return num(low) + "–" + num(high); }

// "1 leg", "2 legs".
std::string count(std::size_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// "12.5%" or, when older flakes may have fallen off the issue's state, "≥ 12.5%".
std::string rate_text(const FlakeRate& f) {
  if (f.runs == 0) return "(no run)";
  return (f.at_least ? "≥ " : "") + num(100.0 * f.rate) + "%";
}

std::string flake_rate_table(const Report& r) {
  if (r.flake_rates.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : r.flake_rates)
    rows.push_back({"#" + std::to_string(f.number), cell(f.test), rate_text(f), std::to_string(f.flakes),
                    std::to_string(f.runs), cell(f.workflows)});
  const auto shown = r.flake_rates.size() < r.flaky_tests_flaked
                         ? "the worst " + std::to_string(r.flake_rates.size()) + " of " +
                               std::to_string(r.flaky_tests_flaked) + " tests that flaked"
                         : count(r.flaky_tests_flaked, "test") + " that flaked";
  return "**Flake rate per test** (" + shown + "): flaky runs / runs of the test's workflows in which a leg ran.\n\n" +
         markdown_table({"issue", "test", "flake rate", "flaky runs", "runs", "workflows"}, rows) + "\n";
}

// "; 200 of them answered 304 Not Modified from the cache, free of the rate limit".
std::string requests_saved(const Report& r) {
  if (r.requests_not_modified == 0) return "";
  return "; " + std::to_string(r.requests_not_modified) +
         " of them answered 304 Not Modified from the cache (`--cache`), which do not count against the rate limit";
}

}  // namespace

std::string summary_markdown(const Report& r) {
  std::string md = "## CI report: " + day(r.since) + " to " + day(r.until) + "\n\n";
  if (!r.gaps.empty()) {
    md += "> [!WARNING]\n> **Partial report**: the figures below count only what could be read.\n";
    for (const auto& g : r.gaps) md += "> - " + markdown_text(g, false) + "\n";
    md += "\n";
  }
  md += "**Saved: " + minutes(r.saved_minutes) + "** (spread " + range(r.saved_low, r.saved_high) + " min) by " +
        count(r.skipped_by_gate, "leg") + " the path gate skipped. **Spent: " + minutes(r.spent_minutes) +
        "**, of which " + minutes(r.cancelled_minutes) + " cancelled. " + count(r.runs, "run") + ", " +
        count(r.jobs, "job") + ".\n\n";
  std::vector<std::vector<std::string>> kinds;
  for (const auto& [kind, t] : r.kinds)
    kinds.push_back({kind, num(t.saved), range(t.saved_low, t.saved_high), num(t.spent)});
  if (!kinds.empty())
    md += markdown_table({"runner kind", "saved (min)", "saved spread", "spent (min)"}, kinds) + "\n";

  md += "### Per week\n\n" + weekly_chart(r) + "\n";
  std::vector<std::vector<std::string>> weeks;
  for (const auto& w : r.weeks)
    weeks.push_back({day(w.start), num(w.saved), range(w.saved_low, w.saved_high), num(w.spent), num(w.cancelled)});
  md += markdown_table({"week from", "saved (min)", "saved spread", "spent (min)", "cancelled (min)"}, weeks) + "\n";

  md += "### Saved by leg\n\n";
  if (r.saved.empty()) {
    md += "No leg was skipped by the path gate in this window.\n\n";
  } else {
    std::vector<std::vector<std::string>> rows;
    for (const auto& l : r.saved)
      rows.push_back({cell(l.leg), cell(l.workflow), cell(l.labels), l.kind, std::to_string(l.skips),
                      num(l.each.median), range(l.each.low, l.each.high), std::to_string(l.each.samples),
                      num(l.minutes)});
    md += markdown_table({"leg", "workflow", "runner labels", "kind", "skips", "each (median, min)", "each p25–p75",
                          "samples", "saved (min)"},
                         rows) + "\n";
  }
  if (r.skipped_unestimated != 0)
    md += std::to_string(r.skipped_unestimated) +
          " skipped legs have no estimate: they never ran to a verdict in the window or the lookback.\n\n";
  if (r.skipped_fork != 0)
    md += "**skipped: fork**: " + count(r.skipped_fork, "leg") +
          " skipped in pull requests from forks, which get no secrets or self-hosted runners: not counted as saved.\n\n";
  if (r.skipped_other != 0)
    md += std::to_string(r.skipped_other) +
          " legs were skipped for another reason (the gate failed, did not run, or failed open): not counted as "
          "saved.\n\n";

  md += "### Spent by leg and runner label\n\n";
  std::vector<std::vector<std::string>> spent;
  for (const auto& l : r.spent)
    spent.push_back({cell(l.leg), cell(l.workflow), cell(l.labels), l.kind, std::to_string(l.jobs), num(l.minutes),
                     std::to_string(l.cancelled), num(l.cancelled_minutes)});
  md += spent.empty() ? "No job ran in this window.\n\n"
                      : markdown_table({"leg", "workflow", "runner labels", "kind", "jobs", "minutes", "cancelled",
                                        "cancelled (min)"},
                                       spent) + "\n";

  md += "### Queue time by runner label\n\n";
  if (r.queues.empty()) {
    md += "No job with a queue time in this window.\n\n";
  } else {
    md += queue_chart(r) + "\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& q : r.queues)
      rows.push_back({cell(q.labels), q.kind, std::to_string(q.jobs), num(q.median_s / 60.0), num(q.p90_s / 60.0),
                      num(q.max_s / 60.0)});
    md += markdown_table({"runner labels", "kind", "jobs", "median (min)", "p90 (min)", "max (min)"}, rows) + "\n";
  }

  md += "### Honesty checks\n\n";
  md += markdown_table(
            {"check", "value"},
            {{"path gate failed open", std::to_string(r.fail_open_runs) + " of " + std::to_string(r.gated_runs) +
                                           " gated runs, " + minutes(r.fail_open_minutes) + " of legs ran in them"},
             {"required checks failed", std::to_string(r.required_failed) + " of " + std::to_string(r.required_checks)},
             {"required checks that could not evaluate", std::to_string(r.could_not_evaluate)},
             {"flaky-test issues", std::to_string(r.flaky_opened) + " opened, " + std::to_string(r.flaky_closed) +
                                       " closed, " + std::to_string(r.flaky_open) + " open"},
             {"gate/gpu latency (push to success)",
              r.gpu_gate_latency.samples == 0
                  ? "no sample"
                  : "median " + minutes(r.gpu_gate_latency.median) + ", p90 " + minutes(r.gpu_gate_p90) + ", max " +
                        minutes(r.gpu_gate_max) + " over " + std::to_string(r.gpu_gate_latency.samples) + " commits"},
             {"gate/gpu never success", std::to_string(r.gpu_gate_pending) + " of " +
                                            std::to_string(r.gpu_gate_samples) + " pull-request commits"}}) +
        "\n";
  md += flake_rate_table(r);
  if (!r.flaky_longest_open.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& f : r.flaky_longest_open)
      rows.push_back({"#" + std::to_string(f.number), markdown_text(f.title, false), day(f.created)});
    md += "<details><summary>Longest-open flaky-test issues</summary>\n\n" +
          markdown_table({"issue", "title", "opened"}, rows) + "\n</details>\n\n";
  }
  md += "<details><summary>How these figures are made</summary>\n\n"
        "- A leg skipped in a run whose path gate succeeded (and did not fail open) was skipped because the gate "
        "said \"not needed\". It is costed at the median duration of the last runs of the same leg on the same "
        "runner labels that ran to a success or failure; the spread is their 25th to 75th percentile.\n"
        "- Spent: started to completed of every job that ran (the path gate's own job included); cancelled: jobs "
        "that ended cancelled. Queue: created to started.\n"
        "- Fail-open: the path gate's job carries its `fail-open:` warning annotation. Could not evaluate: a "
        "required check's job carries an annotation saying so.\n"
        "- Flake rate: for each test whose flaky-test issue records a flaky run in the window, the flaky runs "
        "divided by the runs in the window, of the workflows the test flaked in, in which a leg (a job other "
        "than the path gate and the required checks) ran to a success or failure. The issue keeps its last 30 runs; \"≥\" marks a rate whose older "
        "flakes in the window may have fallen off that list.\n"
        "- " + count(r.lookback_runs, "run") + " before the window read for the medians only; " +
        count(static_cast<std::size_t>(r.requests), "API request") + requests_saved(r) + ".\n\n</details>\n";
  return md;
}

std::string report_json(const Report& r) {
  namespace json = boost::json;
  json::object root;
  root["since"] = format_utc(r.since);
  root["until"] = format_utc(r.until);
  root["complete"] = r.gaps.empty();
  json::array gaps;
  for (const auto& g : r.gaps) gaps.emplace_back(g);
  root["gaps"] = std::move(gaps);
  root["runs"] = r.runs;
  root["jobs"] = r.jobs;
  root["saved_minutes"] = json::object{{"median", r.saved_minutes}, {"low", r.saved_low}, {"high", r.saved_high}};
  root["spent_minutes"] = r.spent_minutes;
  root["cancelled_minutes"] = r.cancelled_minutes;
  json::object kinds;
  for (const auto& [kind, t] : r.kinds)
    kinds[kind] = json::object{{"saved", t.saved}, {"saved_low", t.saved_low}, {"saved_high", t.saved_high},
                               {"spent", t.spent}};
  root["kinds"] = std::move(kinds);
  json::array weeks;
  for (const auto& w : r.weeks)
    weeks.push_back(json::object{{"start", format_utc(w.start)}, {"saved", w.saved}, {"saved_low", w.saved_low},
                                 {"saved_high", w.saved_high}, {"spent", w.spent}, {"cancelled", w.cancelled}});
  root["weeks"] = std::move(weeks);
  json::array saved;
  for (const auto& l : r.saved) {
    json::array per_week;
    for (double m : l.per_week) per_week.emplace_back(m);
    saved.push_back(json::object{{"workflow", l.workflow}, {"leg", l.leg}, {"labels", l.labels}, {"kind", l.kind},
                                 {"skips", l.skips}, {"each_median", l.each.median}, {"each_low", l.each.low},
                                 {"each_high", l.each.high}, {"samples", l.each.samples}, {"minutes", l.minutes},
                                 {"low", l.low}, {"high", l.high}, {"per_week", std::move(per_week)}});
  }
  root["saved"] = std::move(saved);
  json::array spent;
  for (const auto& l : r.spent)
    spent.push_back(json::object{{"workflow", l.workflow}, {"leg", l.leg}, {"labels", l.labels}, {"kind", l.kind},
                                 {"jobs", l.jobs}, {"minutes", l.minutes}, {"cancelled", l.cancelled},
                                 {"cancelled_minutes", l.cancelled_minutes}});
  root["spent"] = std::move(spent);
  json::array queues;
  for (const auto& q : r.queues)
    queues.push_back(json::object{{"labels", q.labels}, {"kind", q.kind}, {"jobs", q.jobs},
                                  {"median_s", q.median_s}, {"p90_s", q.p90_s}, {"max_s", q.max_s}});
  root["queues"] = std::move(queues);
  root["skipped"] = json::object{{"by_gate", r.skipped_by_gate}, {"unestimated", r.skipped_unestimated},
                                 {"other", r.skipped_other}, {"fork", r.skipped_fork}};
  root["fail_open"] = json::object{{"runs", r.fail_open_runs}, {"of_gated_runs", r.gated_runs},
                                   {"minutes", r.fail_open_minutes}};
  root["required_checks"] = json::object{{"total", r.required_checks}, {"failed", r.required_failed},
                                         {"could_not_evaluate", r.could_not_evaluate}};
  json::array longest;
  for (const auto& f : r.flaky_longest_open)
    longest.push_back(json::object{{"number", f.number}, {"title", f.title}, {"opened", format_utc(f.created)}});
  json::array rates;
  for (const auto& f : r.flake_rates)
    rates.push_back(json::object{{"number", f.number}, {"test", f.test}, {"state", f.state},
                                 {"workflows", f.workflows}, {"flakes", f.flakes}, {"runs", f.runs},
                                 {"rate", f.rate}, {"at_least", f.at_least}});
  root["flaky"] = json::object{{"opened", r.flaky_opened}, {"closed", r.flaky_closed}, {"open", r.flaky_open},
                               {"longest_open", std::move(longest)}, {"tests_flaked", r.flaky_tests_flaked},
                               {"worst_rates", std::move(rates)}};
  root["gpu_gate_latency_minutes"] =
      json::object{{"samples", r.gpu_gate_latency.samples}, {"median", r.gpu_gate_latency.median},
                   {"p90", r.gpu_gate_p90}, {"max", r.gpu_gate_max}, {"never_success", r.gpu_gate_pending}};
  root["requests"] = r.requests;
  root["requests_not_modified"] = r.requests_not_modified;
  return json::serialize(root) + "\n";
}

std::string report_csv(const Report& r) {
  auto field = [](const std::string& s) {
    // RFC 4180 quoting; a leading =, +, - or @ is prefixed with ' so that a spreadsheet never
    // runs API text as a formula.
    std::string v = s;
    if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@')) v = "'" + v;
    std::string out = "\"";
    for (char c : v) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  };
  std::string out = "section,week,workflow,leg,labels,kind,count,minutes,low,high,test,runs,rate\n";
  for (const auto& w : r.weeks)
    out += "week," + day(w.start) + ",,,,,," + num(w.spent, 2) + ",,\n" + "saved_week," + day(w.start) + ",,,,,," +
           num(w.saved, 2) + "," + num(w.saved_low, 2) + "," + num(w.saved_high, 2) + "\n";
  for (const auto& l : r.saved)
    for (std::size_t i = 0; i < l.per_week.size() && i < r.weeks.size(); ++i)
      if (l.per_week[i] > 0)
        out += "saved," + day(r.weeks[i].start) + "," + field(l.workflow) + "," + field(l.leg) + "," +
               field(l.labels) + "," + l.kind + "," + std::to_string(l.skips) + "," + num(l.per_week[i], 2) + "," +
               num(l.each.low, 2) + "," + num(l.each.high, 2) + "\n";
  for (const auto& l : r.spent)
    out += "spent,," + field(l.workflow) + "," + field(l.leg) + "," + field(l.labels) + "," + l.kind + "," +
           std::to_string(l.jobs) + "," + num(l.minutes, 2) + ",,\n";
  for (const auto& q : r.queues)
    out += "queue,,,," + field(q.labels) + "," + q.kind + "," + std::to_string(q.jobs) + "," +
           num(q.median_s / 60.0, 2) + "," + num(q.p90_s / 60.0, 2) + "," + num(q.max_s / 60.0, 2) + "\n";
  // count: the flaky runs; rate: flaky runs / runs, with a leading ">=" when a lower bound.
  for (const auto& f : r.flake_rates)
    out += "flake_rate,," + field(f.workflows) + ",,,," + std::to_string(f.flakes) + ",,,," + field(f.test) + "," +
           std::to_string(f.runs) + "," + (f.at_least ? ">=" : "") + num(f.rate, 4) + "\n";
  return out;
}

}  // namespace gatekit::ci_report
