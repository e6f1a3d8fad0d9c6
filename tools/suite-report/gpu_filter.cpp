// `suite-report gpu-filter`: collects each GPU leg's test files with pytest, follows their
// imports, asks path-classifier which of those files the GPU filter covers, and fails naming
// each file that escapes it, the GPU test that pulls it in, and the pattern to add.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "collect.hpp"
#include "common.hpp"
#include "gatekit/git.hpp"
#include "gatekit/python_imports.hpp"
#include "gatekit/python_modules.hpp"
#include "gatekit/text.hpp"
#include "gpu_filter.hpp"

namespace gatekit::suite_report {

namespace {

constexpr std::size_t kSummaryRows = 100;
constexpr std::size_t kMaxAnswerBytes = std::size_t{64} << 20;

// The test files every GPU leg selects in the context: one collection per leg.
std::vector<std::string> gpu_test_files(const GpuFilterOptions& options, Context& context, const Selection& selection,
                                        const std::string& when, std::vector<std::string>& legs) {
  CollectSpec spec;
  spec.python = options.python;
  spec.root = options.root;
  spec.paths = selection.paths;
  spec.timeout = std::chrono::seconds(options.collect_timeout_s);
  std::set<std::string> files;
  for (const auto& leg : selection.legs) {
    if (leg.device != Device::gpu) continue;
    legs.push_back(leg.name);
    const auto expression = leg_expression(selection, leg, when);
    context.workflow.log("collecting leg " + leg.name + " (" + describe_expression(expression) + ") ...");
    const auto collection = value_or_throw(collect(context.processes, context.clock, spec, expression));
    for (const auto& id : collection.node_ids)
      if (auto file = file_of(id); !file.empty()) files.insert(file);
  }
  if (legs.empty()) fail_bad_input(selection.origin + " has no GPU leg (a leg with `device: gpu`): nothing to check");
  return {files.begin(), files.end()};
}

// path-classifier's answer for each path: relevant to `filter` or not.
std::map<std::string, bool> ask_classifier(const GpuFilterOptions& options, Context& context, const std::vector<std::string>& paths) {
  ProcessSpec spec;
  const std::string rules = options.rules.starts_with('-') ? "./" + options.rules : options.rules;
  spec.argv = {options.path_classifier, "--rules", rules, "--match-batch"};
  std::string records;
  for (const auto& path : paths) records += path + '\0';  // NUL-terminated: any file name is one record
  spec.stdin_data = std::move(records);
  spec.capture_limit = kMaxAnswerBytes;
  spec.timeout = std::chrono::seconds(300);
  auto ran = context.processes.run(spec);
  if (!ran) fail_could_not_evaluate("cannot run " + options.path_classifier + ": " + ran.error().message);
  if (!ran->succeeded()) {
    std::string err;  // its stderr on one line: each line made visible, joined by spaces
    for (const auto& line : split_lines(trim(ran->err))) err += (err.empty() ? "" : " ") + visible_controls(trim(line));
    const std::string message =
        options.path_classifier + " --rules " + options.rules + " --match-batch failed (" + ran->describe() + "): " + err;
    if (ran->signal == 0 && !ran->timed_out && ran->exit_code == 2) fail_bad_input(message);  // the rules are invalid
    fail_could_not_evaluate(message);
  }
  const auto answers = value_or_throw(parse_filter_answers(ran->out, paths.size(), options.filter, options.rules));
  std::map<std::string, bool> relevant;
  for (std::size_t i = 0; i < paths.size(); ++i) relevant.emplace(paths[i], answers[i]);
  return relevant;
}

std::string located(const Escape& e) {
  return e.importer.empty() ? e.file : e.importer + ":" + std::to_string(e.line);
}

std::string message_of(const Escape& e, const GpuFilterOptions& options) {
  const std::string how = e.importer.empty() ? "the GPU leg runs it" : "the GPU leg reads it: " + e.chain;
  return e.file + " is not in the " + options.filter + " filter of " + options.rules + " (" + how +
         "), so a pull request changing it runs no GPU job; add " + e.pattern + " to the filter";
}

std::string summary(const GpuFilterResult& result, const GpuFilterOptions& options, const std::vector<std::string>& legs,
                    std::size_t tests) {
  std::string md = result.ok() ? "## ✅ GPU filter: it covers every file the GPU legs read\n\n"
                               : "## ❌ GPU filter: " + std::to_string(result.escapes.size()) +
                                     (result.escapes.size() == 1 ? " file the GPU legs read escapes it\n\n"
                                                                 : " files the GPU legs read escape it\n\n");
  md += "Leg " + markdown_text(join(legs, ", ")) + ": " + std::to_string(tests) + " test files, " +
        std::to_string(result.checked) + " files read with their conftest.py, __init__.py and imports; filter " +
        markdown_code(options.filter) + " of " + markdown_code(options.rules) + ".\n\n";
  if (result.ok()) return md;
  md += "A pull request that changes one of these files runs no GPU job. Add each pattern to the filter's "
        "`paths` (an allow list; `always` in a deny list).\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : result.escapes) {
    if (rows.size() == kSummaryRows) break;
    rows.push_back({markdown_code(e.file), markdown_code(e.test_file),
                    e.importer.empty() ? "selected by the leg" : markdown_text(e.chain), markdown_code(e.pattern)});
  }
  md += markdown_table({"file", "GPU test file", "how", "pattern to add"}, rows);
  if (result.escapes.size() > kSummaryRows)
    md += "\n… and " + std::to_string(result.escapes.size() - kSummaryRows) + " more (the log lists every one).\n";
  return md;
}

}  // namespace

ExitCode run_gpu_filter(const GpuFilterOptions& options, Context& context) {
  const Selection selection = load_selection(options, context.files);
  if (!options.context.empty() && !known_context(options.context))
    fail_bad_input("unknown context '" + options.context + "' (contexts: pr, main, daily, gate, gate-full)");
  if (!context.files.exists(options.rules)) fail_bad_input(options.rules + ": cannot read file (--rules names the path gate's rules)");
  const std::string when = options.context.empty() ? "pr" : options.context;
  std::vector<std::string> legs;
  const auto tests = gpu_test_files(options, context, selection, when, legs);

  const std::filesystem::path root(options.root);
  auto python_files = value_or_throw(python::list_python_files(context.processes, context.files, root));
  const auto roots = gpu_roots(tests, python_files);
  for (const auto& r : roots)  // a collected file git does not list (ignored) is read all the same
    if (!std::binary_search(python_files.begin(), python_files.end(), r)) python_files.push_back(r);
  std::sort(python_files.begin(), python_files.end());
  const auto analysed = value_or_throw(python::analyze_imports(context.processes, root, python_files, options.python));
  for (const auto& file : analysed)
    if (!file.error.empty()) context.workflow.log("note: " + file.error + "; its imports are not followed");
  const auto closure = python::loaded_closure(python::import_graph(analysed, python::Naming::packages), roots);

  std::vector<std::string> read;
  for (const auto& [file, via] : closure) read.push_back(file);
  const auto result = decide_gpu_filter(closure, ask_classifier(options, context, read));

  std::vector<Note> notes;
  for (const auto& e : result.escapes) {
    const std::string message = message_of(e, options);
    context.workflow.log(located(e) + ": " + message);
    notes.push_back({e.importer.empty() ? e.file : e.importer, e.line, message});
  }
  context.workflow.log("GPU filter: " + std::to_string(result.checked) + " files read by the GPU legs, " +
                       std::to_string(result.escapes.size()) + " outside the " + options.filter + " filter");
  annotate_first(context.workflow, Severity::error, "suite-report gpu-filter", notes);
  context.workflow.append_summary(summary(result, options, legs, tests.size()));
  context.workflow.set_output("result", result.ok() ? "pass" : "fail");
  context.workflow.set_output("escapes", std::to_string(result.escapes.size()));
  return result.ok() ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::suite_report
