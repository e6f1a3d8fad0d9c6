#include "run/run_report.hpp"

#include <cctype>

#include "gatekit/text.hpp"
#include "gatekit/version.hpp"

namespace gatekit::gpu_gate {
namespace {

TestCounts sum(const RunOutcome& o) {
  TestCounts c;
  for (const auto* passes : {&o.passes, &o.stress}) {
    for (const auto& p : *passes) {
      c.passed += p.counts.passed;
      c.failed += p.counts.failed;
      c.skipped += p.counts.skipped;
      c.errors += p.counts.errors;
    }
  }
  return c;
}

std::string counts_text(const TestCounts& c) {
  return std::to_string(c.passed) + " passed, " + std::to_string(c.failed) + " failed, " +
         std::to_string(c.skipped) + " skipped, " + std::to_string(c.errors) + " errors";
}

std::string pass_label(const PassResult& p) {
  return p.name + ": " + (p.passed() ? "pass" : "fail") + ", " + std::to_string(p.counts.passed) + " passed, " +
         std::to_string(p.counts.failed + p.counts.errors) + " failed";
}

// The gate pass, then the stress repeats.
std::string flowchart(const RunOutcome& o) {
  std::string md = "```mermaid\nflowchart LR\n  gate[\"" + pass_label(o.passes.front()) + "\"]";
  std::string last = "gate";
  if (!o.stress_needed) md += " --> nostress[\"stress: not needed\"]";
  for (std::size_t i = 0; i < o.stress.size(); ++i) {
    const std::string id = "s" + std::to_string(i + 1);
    md += "\n  " + last + " --> " + id + "[\"" + pass_label(o.stress[i]) + "\"]";
    last = id;
  }
  return md + "\n```\n\n";
}

// The stress pass's test files and why each was chosen (the first 50).
std::string stress_targets_table(const RunOutcome& o) {
  constexpr std::size_t kRows = 50;
  const auto& t = o.stress_targets;
  if (!o.stress_needed || t.tests.empty()) return "";
  std::string md = "\n### Stressed " + std::to_string(o.stress.size()) + "x\n\n";
  if (t.fallback) {
    return md + "No test file loads " + markdown_text(join(t.touched, ", ")) +
           " (by its imports or the test map): the gate's " + std::to_string(t.tests.size()) + " test files were.\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < t.tests.size() && i < kRows; ++i)
    rows.push_back({markdown_code(t.tests[i]), markdown_text(t.reasons[i])});
  md += markdown_table({"test file", "why"}, rows);
  if (t.tests.size() > kRows) md += "\n… and " + std::to_string(t.tests.size() - kRows) + " more.\n";
  return md;
}

// --full: each pass of every test, then the scope check.
std::string full_flowchart(const RunOutcome& o) {
  std::string md = "```mermaid\nflowchart LR\n ";
  for (const auto& p : o.passes) {
    std::string id = p.name;
    for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    md += " " + id + "[\"" + p.name + " pass: " + counts_text(p.counts) + "\"] -->";
  }
  return md + " check[\"scope check: " + std::to_string(o.violations.size()) + " files outside\"]\n```\n\n";
}

// --full: the files outside the scope, each with the line to add to the configuration.
std::string violations_table(const RunOutcome& o, const std::string& config_file) {
  if (o.violations.empty()) return "";
  std::string md = "\n### Outside the scope\n\nThese files run on one device and not on the other; add each line under "
                   "`scope:` / `extras:` in " + markdown_code(config_file) + ".\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& v : o.violations) {
    rows.push_back({markdown_code(v.file), std::to_string(v.gpu_only.size()), std::to_string(v.cpu_only.size()),
                    markdown_code(extras_line(v.file))});
  }
  return md + markdown_table({"test file", "GPU only", "CPU only", "line to add"}, rows);
}

std::string full_summary(const RunOutcome& o, const GateRecord& r, const std::string& config_file) {
  std::string md = "## GPU gate: full run\n\n**" + std::string(to_string(r.verdict)) + "** in " +
                   format_duration(o.duration) + ", commit " + markdown_code(o.commit.substr(0, 12)) + " on " +
                   markdown_code(o.machine) + "\n\n" + full_flowchart(o);
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : o.passes) {
    const auto& c = p.counts;
    rows.push_back({p.name, std::to_string(c.passed), std::to_string(c.failed), std::to_string(c.skipped),
                    std::to_string(c.errors), format_duration(p.duration)});
  }
  md += markdown_table({"pass", "passed", "failed", "skipped", "errors", "duration"}, rows);
  md += "\nConfiguration of " + markdown_text(o.config_from, false) + ", " + markdown_code(r.config.substr(0, 19)) + "\n";
  return md + violations_table(o, config_file) + "\nTest map " + markdown_text(o.map_note, false) + "\n";
}

std::string gate_summary(const RunOutcome& o, const GateRecord& r) {
  std::string md = "## gpu-gate run: " + std::string(r.verdict == Verdict::pass ? "pass" : "fail") + "\n\n";
  md += flowchart(o);
  std::vector<std::vector<std::string>> passes;
  auto row = [&passes](const PassResult& p) {
    passes.push_back({markdown_text(p.name), p.passed() ? "pass" : "fail", std::to_string(p.counts.passed),
                      std::to_string(p.counts.failed), std::to_string(p.counts.skipped), std::to_string(p.counts.errors),
                      format_duration(p.duration)});
  };
  for (const auto& p : o.passes) row(p);
  for (const auto& s : o.stress) row(s);
  md += markdown_table({"pass", "verdict", "passed", "failed", "skipped", "errors", "duration"}, passes) + "\n";
  md += markdown_table({"", ""}, {
      {"commit", markdown_code(o.commit)},
      {"tree", markdown_code(o.tree)},
      {"machine", markdown_code(o.machine)},
      {"devices", markdown_text(std::to_string(r.device.count) + " (" + r.device.backend + ")" +
                                (r.device.gpus.empty() ? "" : ": " + join(r.device.gpus, ", ")))},
      {"scope", markdown_text(r.scope)},
      {"stress", markdown_text(r.stress)},
      {"configuration", markdown_text(o.config_from) + " " + markdown_code(r.config.substr(0, 19))},
      {"record", markdown_code(o.ref)},
      {"published", markdown_text(o.publish_note)},
  });
  return md + stress_targets_table(o);
}

}  // namespace

Verdict verdict_of(const RunOutcome& o) {
  for (const auto* passes : {&o.passes, &o.stress})
    for (const auto& p : *passes)
      if (!p.passed()) return Verdict::fail;
  return o.violations.empty() ? Verdict::pass : Verdict::fail;
}

GateRecord record_of(const RunOutcome& o, const RunPlan& plan, const Config& config, std::int64_t now) {
  GateRecord r;
  r.verdict = verdict_of(o);
  r.duration = o.duration;
  r.counts = sum(o);
  r.commit = o.commit;
  r.tree = o.tree;
  r.gatekit_version = clean_fact(kVersion, 32);
  r.time = now;
  r.machine = o.machine;
  r.device = o.device;
  r.config = o.config_digest;
  if (plan.full) {
    r.scope = clean_fact("full: every test, nightly included, GPU then CPU; " + std::to_string(o.violations.size()) +
                         " files outside the scope");
    r.stress = "not run (full run)";
    return r;
  }
  r.scope = clean_fact("gate: " + std::to_string(o.paths.size()) + " test files, " + std::to_string(o.workers) + " workers");
  r.stress = clean_fact(stress_text(o.stress_needed, o.stress_touched, o.stress_targets, o.stress, config.stress_repeats));
  return r;
}

std::string run_summary(const RunPlan& plan, const RunOutcome& o, const GateRecord& r, const std::string& config_file) {
  return plan.full ? full_summary(o, r, config_file) : gate_summary(o, r);
}

}  // namespace gatekit::gpu_gate
