// The steps of `run --full`: passes, record, summary (see full_steps.hpp).
#include "run/full_steps.hpp"


#include "gatekit/clock.hpp"
#include "gatekit/text.hpp"
#include "gatekit/version.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {

namespace {

std::string counts_text(const TestCounts& c) {
  return std::to_string(c.passed) + " passed, " + std::to_string(c.failed) + " failed, " +
         std::to_string(c.skipped) + " skipped, " + std::to_string(c.errors) + " errors";
}

}  // namespace

Result<std::string> record_full_run(const Git& git, Context& context, const Config& config, const FullOutcome& outcome) {
  GateRecord record;
  record.verdict = outcome.passed() ? Verdict::pass : Verdict::fail;
  record.duration = outcome.duration;
  const auto& g = outcome.gpu.counts;
  const auto& c = outcome.cpu.counts;
  record.counts = {g.passed + c.passed, g.failed + c.failed, g.skipped + c.skipped, g.errors + c.errors};
  record.commit = outcome.commit;
  record.tree = outcome.tree;
  record.gatekit_version = kVersion;
  record.time = std::chrono::duration_cast<std::chrono::seconds>(context.clock.now().time_since_epoch()).count();
  record.machine = outcome.machine;
  record.device = outcome.device;
  record.scope = "full: every test, nightly included, GPU then CPU; " + std::to_string(outcome.violations.size()) +
                 " files outside the scope";
  record.stress = "not run (full run)";
  const RefHalf half = half_for(record.device, config.cpu_gate);
  auto ref = write_record(git, config.namespace_, record, config.sign, half);
  if (ref && half == RefHalf::no_gpu) context.workflow.log(no_gpu_note(*ref));
  return ref;
}

std::string full_summary(const FullOutcome& o, const std::string& config_file) {
  std::string md = "## GPU gate: full run\n\n**" + std::string(o.passed() ? "pass" : "fail") + "** in " +
                   format_duration(o.duration) + ", commit " + markdown_code(o.commit.substr(0, 12)) + " on " +
                   markdown_code(o.machine) + "\n\n";
  md += "```mermaid\nflowchart LR\n  gpu[\"GPU pass: " + counts_text(o.gpu.counts) + "\"] --> cpu[\"CPU pass: " +
        counts_text(o.cpu.counts) + "\"] --> check[\"scope check: " + std::to_string(o.violations.size()) +
        " files outside\"]\n```\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto* pass : {&o.gpu, &o.cpu}) {
    const auto& c = pass->counts;
    rows.push_back({std::string(display_name(pass->device)), std::to_string(c.passed), std::to_string(c.failed),
                    std::to_string(c.skipped), std::to_string(c.errors), format_duration(pass->duration)});
  }
  md += markdown_table({"pass", "passed", "failed", "skipped", "errors", "duration"}, rows);
  if (!o.violations.empty()) {
    md += "\n### Outside the scope\n\nThese files run on one device and not on the other; add each line under "
          "`scope:` / `extras:` in " + markdown_code(config_file) + ".\n\n";
    rows.clear();
    for (const auto& v : o.violations) {
      rows.push_back({markdown_code(v.file), std::to_string(v.gpu_only.size()), std::to_string(v.cpu_only.size()),
                      markdown_code(extras_line(v.file))});
    }
    md += markdown_table({"test file", "GPU only", "CPU only", "line to add"}, rows);
  }
  return md + "\nTest map " + markdown_text(o.map_note, false) + "\n";
}

}  // namespace gatekit::gpu_gate
