#include "run/run_pass.hpp"

#include "run/coverage.hpp"
#include "run/full.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/process.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/test_run.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {
namespace {

std::string safe_name(std::string name) {
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = '-';
  }
  return name;
}

std::string group_title(const PassSpec& pass, const std::vector<std::string>& argv) {
  if (pass.every_test) return pass.name + " pass: " + display_command(argv);
  return "gpu-gate " + pass.name + ": " + std::to_string(pass.paths.size()) + " test files, " +
         std::to_string(pass.workers) + " workers";
}

}  // namespace

Status unless_cancelled(const std::string& during) {
  if (termination_signal() == 0) return {};
  return cancellation("gpu-gate", " during " + during + "; nothing is recorded");
}

std::vector<std::string> pass_command(const Config& config, const std::string& junit, const PassSpec& pass) {
  test_run::CommandValues values;
  if (!pass.every_test) values.tests = pass.paths;
  values.workers = pass.workers;
  values.junit = junit;
  auto argv = test_run::expand(config.command, values);
  argv.insert(argv.end(), pass.extra_args.begin(), pass.extra_args.end());
  return argv;
}

Result<PassResult> run_test_pass(Context& context, const Config& config, const std::filesystem::path& worktree,
                                 const std::filesystem::path& scratch, const PassSpec& pass) {
  test_run::TestPass run;
  run.name = pass.name + " pass";
  run.junit = (scratch / ("junit-" + safe_name(pass.name) + ".xml")).string();
  run.argv = pass_command(config, run.junit, pass);
  run.cwd = worktree;
  run.env = pass.env;
  if (pass.coverage) run.env["COVERAGE_FILE"] = coverage_data_file(scratch).string();
  run.group = group_title(pass, run.argv);
  run.on_case = pass.on_case;
  auto ran = test_run::run_test_pass(context, run);
  if (auto cancelled = unless_cancelled("the " + run.name); !cancelled) return cancelled.error();
  if (!ran) return ran.error();
  if (!ran->evaluated()) {
    const auto& p = ran->process;
    const bool usage = p.signal == 0 && !p.timed_out && p.exit_code == 4 && !pass.usage_hint.empty();
    return could_not_evaluate(ran->could_not_evaluate.front() + (usage ? "; " + pass.usage_hint : ""));
  }
  const auto& stats = *ran->report;
  PassResult result{pass.name, ran->process.exit_code,
                    {static_cast<std::int64_t>(stats.passed), static_cast<std::int64_t>(stats.failures),
                     static_cast<std::int64_t>(stats.skipped), static_cast<std::int64_t>(stats.errors)},
                    ran->process.duration, pass.every_test};
  return result;
}

}  // namespace gatekit::gpu_gate
