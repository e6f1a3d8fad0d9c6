#include "run/run_report.hpp"

#include "gatekit/text.hpp"
#include "gatekit/version.hpp"

namespace gatekit::gpu_gate {
namespace {

TestCounts sum(const RunOutcome& o) {
  TestCounts c = o.gate.counts;
  for (const auto& s : o.stress) {
    c.passed += s.counts.passed;
    c.failed += s.counts.failed;
    c.skipped += s.counts.skipped;
    c.errors += s.counts.errors;
  }
  return c;
}

std::string pass_label(const PassResult& p) {
  return p.name + ": " + (p.passed() ? "pass" : "fail") + ", " + std::to_string(p.counts.passed) + " passed, " +
         std::to_string(p.counts.failed + p.counts.errors) + " failed";
}

std::string flowchart(const RunOutcome& o) {
  std::string md = "```mermaid\nflowchart LR\n  gate[\"" + pass_label(o.gate) + "\"]";
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

}  // namespace

GateRecord record_of(const RunOutcome& o, const Config& config, std::int64_t now) {
  GateRecord r;
  r.verdict = verdict_of(o.gate, o.stress);
  r.duration = o.duration;
  r.counts = sum(o);
  r.commit = o.commit;
  r.tree = o.tree;
  r.gatekit_version = clean_fact(kVersion, 32);
  r.time = now;
  r.machine = o.machine;
  r.device = o.device;
  r.scope = clean_fact("gate: " + std::to_string(o.paths.size()) + " test files, " + std::to_string(o.workers) + " workers");
  r.stress = clean_fact(stress_text(o.stress_needed, o.stress_touched, o.stress_targets, o.stress, config.stress_repeats));
  return r;
}

std::string run_summary(const RunOutcome& o, const GateRecord& r) {
  std::string md = "## gpu-gate run: " + std::string(r.verdict == Verdict::pass ? "pass" : "fail") + "\n\n";
  md += flowchart(o);
  std::vector<std::vector<std::string>> passes;
  auto row = [&passes](const PassResult& p) {
    passes.push_back({markdown_text(p.name), p.passed() ? "pass" : "fail", std::to_string(p.counts.passed),
                      std::to_string(p.counts.failed), std::to_string(p.counts.skipped), std::to_string(p.counts.errors),
                      format_duration(p.duration)});
  };
  row(o.gate);
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
      {"record", markdown_code(o.ref)},
      {"published", markdown_text(o.publish_note)},
  });
  return md + stress_targets_table(o);
}

}  // namespace gatekit::gpu_gate
