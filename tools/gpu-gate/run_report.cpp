#include "run_report.hpp"

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
  r.stress = clean_fact(stress_text(o.stress_needed, o.stress_touched, o.stress, config.stress_repeats));
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
  return md;
}

}  // namespace gatekit::gpu_gate
