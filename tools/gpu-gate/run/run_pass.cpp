#include "run/run_pass.hpp"

#include "run/line_log.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/process.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {
namespace {

std::string safe_name(std::string name) {
  for (char& c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = '-';
  return name;
}

}  // namespace

Result<PassResult> run_test_pass(Context& context, const Config& config, const std::filesystem::path& worktree,
                                 const std::filesystem::path& scratch, const PassSpec& pass) {
  const auto junit = scratch / ("junit-" + safe_name(pass.name) + ".xml");
  ProcessSpec spec;
  spec.argv = expand_command(config.command, pass.workers, junit.string(), pass.paths);
  spec.cwd = worktree;
  spec.env_set = pass.env;
  spec.merge_stderr = true;
  spec.capture_limit = 64 * 1024;
  LineLog sink(context.workflow);
  spec.on_output = [&sink](OutputStream, std::string_view chunk) { sink.feed(chunk); };
  context.workflow.begin_group("gpu-gate " + pass.name + ": " + std::to_string(pass.paths.size()) + " test files, " +
                               std::to_string(pass.workers) + " workers");
  auto ran = context.processes.run(spec);
  sink.flush();
  context.workflow.end_group();
  if (!ran) return could_not_evaluate("the " + pass.name + " pass could not start " + quote_for_message(spec.argv.front()) + ": " + ran.error().message);
  if (ran->signal != 0 || ran->timed_out || (ran->exit_code != 0 && ran->exit_code != 1))
    return could_not_evaluate("the " + pass.name + " pass ended with " + ran->describe() +
                              ": no verdict (the test command exits 0 or 1 when its tests ran)");
  PassResult result{pass.name, ran->exit_code, {}, ran->duration};
  auto stats = junit::read_file(context.files, junit.string(), [](const junit::TestCase&) {});
  if (!stats) return could_not_evaluate("the " + pass.name + " pass left no readable JUnit report: " + stats.error().message);
  result.counts = {static_cast<std::int64_t>(stats->passed), static_cast<std::int64_t>(stats->failures),
                   static_cast<std::int64_t>(stats->skipped), static_cast<std::int64_t>(stats->errors)};
  return result;
}

}  // namespace gatekit::gpu_gate
