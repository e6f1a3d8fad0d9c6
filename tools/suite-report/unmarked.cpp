// `suite-report unmarked`: fails naming each test of a CPU leg's report that was skipped with
// a device reason, and the marker it should carry.
#include "unmarked.hpp"

#include <algorithm>

#include "common.hpp"
#include "gatekit/text.hpp"

namespace gatekit::suite_report {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return out;
}

std::string summary(const Leg& leg, std::size_t cases, std::size_t skipped, const std::vector<UnmarkedTest>& found) {
  if (found.empty())
    return "## ✅ No device test hides in the " + markdown_text(leg.name, false) + " leg\n\n" + std::to_string(cases) +
           " tests in the report, " + std::to_string(skipped) + " skipped, none for want of a GPU.\n\n";
  std::string md = "## ❌ " + std::to_string(found.size()) + " GPU test" + (found.size() == 1 ? "" : "s") +
                   " without a GPU marker in the " + markdown_text(leg.name, false) + " leg\n\n"
                   "These tests skipped on the CPU leg because they need a device, so no leg runs them. "
                   "Add the marker, and the GPU leg will.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : found)
    rows.push_back({markdown_code(t.id), markdown_text(t.reason), markdown_code("@pytest.mark." + t.marker)});
  return md + markdown_table({"test", "skip reason", "add"}, rows) + "\n";
}

}  // namespace

std::optional<DeviceSkip> match_device_skip(const std::vector<DeviceSkip>& skips, const junit::TestCase& test) {
  if (test.outcome != JunitOutcome::skipped || test.type == "pytest.xfail") return std::nullopt;
  const std::string message = lower(test.message);
  const std::string detail = lower(test.detail);
  for (const auto& skip : skips) {
    const std::string reason = lower(skip.reason);
    if (message.find(reason) != std::string::npos || detail.find(reason) != std::string::npos) return skip;
  }
  return std::nullopt;
}

ExitCode run_unmarked(const UnmarkedOptions& options, Context& context) {
  const Selection selection = load_selection(options, context.files);
  const Leg& leg = require_leg(selection, options.leg);
  if (leg.device != Device::cpu)
    fail_bad_input("leg '" + leg.name + "' is a GPU leg (device: gpu): unmarked reads a CPU leg's report");
  junit::ReadOptions read;
  read.junit_prefix = options.junit_prefix;
  std::vector<UnmarkedTest> found;
  auto stats = value_or_throw(junit::read_file(context.files, options.report, [&](const junit::TestCase& test) {
    if (auto skip = match_device_skip(selection.device_skips, test))
      found.push_back({test.id(), test.file, test.line > 0 ? test.line + 1 : 0, test.message, skip->marker});
  }, read));
  std::vector<Note> notes;
  for (const auto& t : found) {
    const std::string line = t.id + ": skipped on the " + leg.name + " leg (\"" + t.reason + "\"): mark it @pytest.mark." + t.marker;
    context.workflow.log(line);
    notes.push_back({t.file, t.line, line});
  }
  annotate_first(context.workflow, Severity::error, "GPU test without a GPU marker", notes);
  context.workflow.append_summary(summary(leg, stats.cases, stats.skipped, found));
  context.workflow.set_output("result", found.empty() ? "pass" : "fail");
  context.workflow.set_output("unmarked", std::to_string(found.size()));
  context.workflow.log(std::to_string(stats.cases) + " tests in " + options.report + ", " + std::to_string(stats.skipped) +
                       " skipped, " + std::to_string(found.size()) + " for want of a device");
  return found.empty() ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::suite_report
