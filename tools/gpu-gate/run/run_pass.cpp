#include "run/run_pass.hpp"

#include "gatekit/files.hpp"
#include "gatekit/text.hpp"
#include "run/evidence.hpp"

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

namespace {

// What the pass proves (evidence.hpp): it imported the tested tree, and a GPU pass ran GPU
// tests. The line for the log and the summary, or a could_not_evaluate Error.
Result<std::string> prove(Context& context, const std::filesystem::path& worktree, const std::filesystem::path& file,
                          const PassSpec& pass, const std::string& name) {
  if (!context.files.exists(file))
    return could_not_evaluate("the " + name + " left no evidence of what it ran and imported: gpu-gate loads a pytest "
                              "plugin into every pass (PYTEST_PLUGINS, PYTHONPATH), and a test command that is not "
                              "pytest, or that drops those variables, cannot show that it tested this tree; nothing is "
                              "recorded");
  auto text = context.files.read(file, std::size_t{256} << 20);
  if (!text) return text.error();
  auto evidence = parse_evidence(*text, file.string());
  if (!evidence) return evidence.error();
  auto real = context.files.canonical(worktree);
  if (!real) return real.error();
  if (const auto foreign = foreign_import(*evidence, *real); !foreign.empty())
    return could_not_evaluate("the " + name + " did not test this tree: " + foreign +
                              ". A copy installed from elsewhere (pip install -e of another clone, or a release) "
                              "shadows the tree's own package: make the tests import the tree under test (pytest's "
                              "pythonpath = [\"src\"], or pip install -e of this checkout), then run again; nothing is "
                              "recorded");
  std::string line = std::to_string(evidence->modules.size()) + " modules of the repository, all from the tested tree";
  if (!pass.gpu_pass) return line;
  if (!evidence->errors.empty())
    return could_not_evaluate("the " + name + " cannot show its GPU tests: " + evidence->errors.front() + "; nothing is recorded");
  const auto gpu = gpu_evidence(*evidence, pass.gpu_markers, pass.context);
  if (gpu.verdict.code != ExitCode::pass) {
    std::vector<std::string> why;
    for (const auto& r : gpu.skipped) why.push_back(r.reason + ": " + std::to_string(r.count));
    return could_not_evaluate("no GPU evidence: " + gpu.verdict.headline + (why.empty() ? "" : "; skipped: " + join(why, ", ")) +
                              ". A GPU pass passes only with GPU tests that ran: the test environment may not see the "
                              "GPU the probe saw; nothing is recorded");
  }
  return gpu.verdict.headline + "; " + line;
}

}  // namespace

Result<PassResult> run_test_pass(Context& context, const Config& config, const std::filesystem::path& worktree,
                                 const std::filesystem::path& scratch, const PassSpec& pass) {
  auto evidence = plan_evidence(context.files, scratch, pass.name, pass.packages, pass.gpu_markers, context.env);
  if (!evidence) return evidence.error();
  test_run::TestPass run;
  run.name = pass.name + " pass";
  run.junit = (scratch / ("junit-" + safe_name(pass.name) + ".xml")).string();
  run.argv = pass_command(config, run.junit, pass);
  run.cwd = worktree;
  run.env = pass.env;
  for (const auto& [name, value] : evidence->env) run.env[name] = value;
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
  auto proven = prove(context, worktree, evidence->file, pass, run.name);
  if (!proven) return proven.error();
  result.evidence = *proven;
  context.workflow.log("evidence of the " + run.name + ": " + *proven);
  return result;
}

}  // namespace gatekit::gpu_gate
