// One test pass: the command through the process seam, its output to the log, then its JUnit
// report through the files seam (test_run.hpp).
#include "gatekit/files.hpp"
#include "gatekit/git.hpp"
#include "gatekit/test_run.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::test_run {

void ChildLog::feed(std::string_view chunk) {
  pending_ += chunk;
  for (auto end = pending_.find('\n'); end != std::string::npos; end = pending_.find('\n')) {
    workflow_.log(std::string_view(pending_).substr(0, end));
    pending_.erase(0, end + 1);
  }
  if (pending_.size() > kMaxLine) flush();
}

void ChildLog::flush() {
  if (!pending_.empty()) workflow_.log(pending_);
  pending_.clear();
}

namespace {

// The report, fed to the JUnit reader piece by piece through the files seam.
Result<junit::ReadStats> read_report(const Files& files, const TestPass& pass) {
  if (!files.exists(pass.junit)) return could_not_evaluate(pass.junit + ": cannot read the report (missing or unreadable)");
  junit::Reader reader(pass.junit, pass.on_case ? pass.on_case : [](const junit::TestCase&) {}, pass.read_options);
  if (auto read = files.read_pieces(pass.junit, [&](std::string_view piece) { return reader.feed(piece); }); !read)
    return read.error();
  return reader.finish();
}

// The report's path made ready for this pass: proven writable, and empty of any report an
// earlier run left (its cases would read as this pass's when the command writes none).
Status clear_report(Files& files, const TestPass& pass) {
  Status cleared;
  if (auto there = files.stat(pass.junit); there && there->is_file()) cleared = files.remove(pass.junit);
  if (cleared) cleared = files.create(pass.junit, "");
  if (cleared) cleared = files.remove(pass.junit);
  if (!cleared) return could_not_evaluate("the " + pass.name + " did not start: " + cleared.error().message);
  return {};
}

}  // namespace

Result<TestPassResult> run_test_pass(Context& context, const TestPass& pass) {
  if (auto cleared = clear_report(context.files, pass); !cleared) return cleared.error();
  ProcessSpec spec;
  spec.argv = pass.argv;
  spec.cwd = pass.cwd;
  spec.env_set = pass.env;
  spec.timeout = pass.timeout;
  spec.merge_stderr = true;
  spec.capture_limit = 0;  // the output goes to the log (or nowhere), not into memory
  ChildLog log(context.workflow);
  if (pass.log_output) {
    spec.on_output = [&log](OutputStream, std::string_view chunk) { log.feed(chunk); };
    context.workflow.begin_group(pass.group.empty() ? pass.name : pass.group);
  }
  auto ran = context.processes.run(spec);
  if (pass.log_output) {
    log.flush();
    context.workflow.end_group();
  }
  if (!ran) {
    return could_not_evaluate("the " + pass.name + " could not start " +
                              quote_for_message(spec.argv.empty() ? std::string() : spec.argv.front()) + ": " +
                              ran.error().message);
  }
  TestPassResult result;
  result.process = std::move(*ran);
  const auto& p = result.process;
  if (p.signal != 0 || p.timed_out || (p.exit_code != 0 && p.exit_code != 1)) {
    result.could_not_evaluate.push_back("the " + pass.name + " ended with " + p.describe(pass.timeout) +
                                        ": no verdict (the test command exits 0 or 1 when its tests ran)");
  }
  auto report = read_report(context.files, pass);
  if (report) {
    result.report = std::move(*report);
  } else {
    result.report_error = report.error().message;
    result.could_not_evaluate.push_back("the " + pass.name + " left no readable JUnit report: " + result.report_error);
  }
  return result;
}

}  // namespace gatekit::test_run
