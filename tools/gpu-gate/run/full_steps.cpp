// The steps of `run --full`: passes, record, summary (see full_steps.hpp).
#include "run/full_steps.hpp"

#include "run/device_facts.hpp"
#include "run/line_log.hpp"

#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/process.hpp"
#include "gatekit/text.hpp"
#include "gatekit/version.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {

namespace {

std::string file_of(const junit::TestCase& test) {
  if (!test.file.empty()) return test.file;
  const auto id = test.id();
  const auto sep = id.find("::");
  return sep == std::string::npos ? "" : id.substr(0, sep);
}

Result<PassOutcome> read_report(const Files& files, const std::filesystem::path& junit_path, PassOutcome outcome) {
  auto stats = junit::read_file(files, junit_path.string(), [&](const junit::TestCase& test) {
    auto& run = outcome.cases[test.id()];
    run.file = file_of(test);
    run.ran = run.ran || test.ran();
  });
  if (!stats) {
    return could_not_evaluate("the " + std::string(display_name(outcome.device)) +
                              " pass left no readable JUnit report: " + stats.error().message);
  }
  outcome.counts = {static_cast<std::int64_t>(stats->passed), static_cast<std::int64_t>(stats->failures),
                    static_cast<std::int64_t>(stats->skipped), static_cast<std::int64_t>(stats->errors)};
  return outcome;
}

std::string counts_text(const TestCounts& c) {
  return std::to_string(c.passed) + " passed, " + std::to_string(c.failed) + " failed, " +
         std::to_string(c.skipped) + " skipped, " + std::to_string(c.errors) + " errors";
}

}  // namespace

Result<PassOutcome> run_pass(Context& context, const Config& config, const std::filesystem::path& worktree,
                             const std::filesystem::path& scratch, Device device, int workers) {
  const auto junit_path = scratch / ("junit-" + std::string(to_string(device)) + ".xml");
  ProcessSpec spec;
  spec.argv = full_command(config, workers, junit_path.string(), device);
  spec.cwd = worktree;
  spec.env_set = {{"GATEKIT_DEVICE", std::string(to_string(device))}, {"GATEKIT_NIGHTLY", "1"}};
  if (device == Device::gpu) spec.env_set["COVERAGE_FILE"] = (scratch / ".coverage").string();
  spec.merge_stderr = true;
  spec.capture_limit = 64 * 1024;
  LineLog log(context.workflow);
  spec.on_output = [&log](OutputStream, std::string_view chunk) { log.feed(chunk); };
  const std::string name = std::string(display_name(device)) + " pass";
  context.workflow.begin_group(name + ": " + display_command(spec.argv));
  auto ran = context.processes.run(spec);
  log.flush();
  context.workflow.end_group();
  if (!ran) return could_not_evaluate("the " + name + " could not start: " + ran.error().message);
  if (ran->signal != 0 || ran->timed_out || (ran->exit_code != 0 && ran->exit_code != 1)) {
    const bool usage = ran->signal == 0 && !ran->timed_out && ran->exit_code == 4 && device == Device::gpu &&
                       is_pytest_command(spec.argv);
    return could_not_evaluate("the " + name + " ended with " + ran->describe() +
                              ": no verdict (the test command exits 0 or 1 when its tests ran)" +
                              (usage ? "; pytest refused its arguments: the GPU pass adds pytest-cov's --cov "
                                       "options, is pytest-cov installed?"
                                     : ""));
  }
  PassOutcome outcome{device, {}, {}, ran->exit_code, ran->duration};
  return read_report(context.files, junit_path, std::move(outcome));
}

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
