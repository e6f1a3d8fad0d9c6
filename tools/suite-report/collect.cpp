#include "collect.hpp"

#include "gatekit/text.hpp"

namespace gatekit::suite_report {

namespace {

// The last lines of pytest's output, bounded, for an error message.
std::string output_tail(const ProcessResult& result) {
  std::string text = result.out;
  if (!result.err.empty()) text += (text.empty() ? "" : "\n") + result.err;
  auto lines = split_lines(text);
  std::vector<std::string> kept;
  std::size_t bytes = 0;
  for (auto it = lines.rbegin(); it != lines.rend() && kept.size() < 15; ++it) {
    if (trim(*it).empty()) continue;
    bytes += it->size();
    if (bytes > 3000) break;
    kept.insert(kept.begin(), *it);
  }
  return join(kept, "\n");
}

}  // namespace

std::vector<std::string> collect_argv(const CollectSpec& spec, const std::string& expression) {
  std::vector<std::string> argv{spec.python, "-m", "pytest", "--collect-only", "-q", "-o", "addopts=",
                                "--strict-markers", "-p", "no:cacheprovider", "--color=no"};
  if (!expression.empty()) {
    argv.emplace_back("-m");
    argv.push_back(expression);
  }
  // pytest does not honour `--` (it still reads a later `-x` as an option), so a path that
  // starts with '-' is given as ./-x: a path either way, never an option.
  for (const auto& path : spec.paths) argv.push_back(path.starts_with('-') ? "./" + path : path);
  return argv;
}

ProcessSpec collect_process(const CollectSpec& spec, const std::string& expression) {
  ProcessSpec process;
  process.argv = collect_argv(spec, expression);
  process.cwd = spec.root;
  process.env_unset = {"PYTEST_ADDOPTS", "PYTEST_PLUGINS"};
  process.env_set = {{"PY_COLORS", "0"}, {"NO_COLOR", "1"}};
  process.timeout = spec.timeout;
  process.capture_limit = 256u << 20;  // node ids of very large suites
  return process;
}

std::vector<std::string> parse_collect_output(std::string_view output) {
  std::vector<std::string> ids;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    std::string_view line = output.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    if (line.find("::") != std::string_view::npos) ids.emplace_back(line);
    start = end + 1;
  }
  return ids;
}

std::string describe_expression(const std::string& expression) {
  return expression.empty() ? "(every test)" : "-m '" + expression + "'";
}

Result<Collection> collect(ProcessRunner& runner, Clock& clock, const CollectSpec& spec, const std::string& expression) {
  const auto started = clock.monotonic();
  auto result = runner.run(collect_process(spec, expression));
  const auto pytest_time = clock.monotonic() - started;
  const std::string what = "pytest --collect-only " + describe_expression(expression);
  if (!result) return could_not_evaluate(what + " could not start: " + result.error().message);
  const auto& done = *result;
  if (done.out_bytes > done.out.size())
    return could_not_evaluate(what + " printed more than " + std::to_string(done.out.size() >> 20) + " MiB");
  if (done.signal == 0 && !done.timed_out && (done.exit_code == 0 || done.exit_code == 5)) {
    Collection collection;
    collection.node_ids = parse_collect_output(done.out);
    collection.pytest_time = pytest_time;
    return collection;
  }
  std::string message = what + " failed (" + done.describe(spec.timeout) + ")";
  if (auto tail = output_tail(done); !tail.empty()) message += ":\n" + tail;
  if (done.signal == 0 && !done.timed_out && done.exit_code == 4) return bad_input(message);
  return could_not_evaluate(message);
}

}  // namespace gatekit::suite_report
