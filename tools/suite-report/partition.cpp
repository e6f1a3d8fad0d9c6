// `suite-report partition`: collects every context's universe and each leg's selection with
// pytest, and fails listing the node ids that are in no leg or in two.
#include <chrono>
#include <map>

#include "collect.hpp"
#include "common.hpp"
#include "gatekit/text.hpp"
#include "partition.hpp"

namespace gatekit::suite_report {

namespace {

using std::chrono::milliseconds;

std::vector<std::string> requested_contexts(const PartitionOptions& options) {
  if (options.contexts.empty()) return {kContexts.begin(), kContexts.end()};
  for (const auto& context : options.contexts)
    if (!known_context(context))
      fail_bad_input("unknown context '" + context + "' (contexts: pr, main, daily, gate, gate-full)");
  return options.contexts;
}

// One pytest collection per distinct expression, however many contexts and legs share it.
class Collections {
 public:
  Collections(Context& context, CollectSpec spec) : context_(context), spec_(std::move(spec)) {}

  const std::vector<std::string>& of(const std::string& expression) {
    if (auto it = cache_.find(expression); it != cache_.end()) return it->second;
    context_.workflow.log("collecting " + describe_expression(expression) + " ...");
    auto collection = value_or_throw(collect(context_.processes, context_.clock, spec_, expression));
    pytest_time_ += collection.pytest_time;
    ++runs_;
    context_.workflow.log("  " + std::to_string(collection.node_ids.size()) + " tests (" +
                          format_duration(collection.pytest_time) + ")");
    return cache_.emplace(expression, std::move(collection.node_ids)).first->second;
  }
  milliseconds pytest_time() const { return pytest_time_; }
  int runs() const { return runs_; }

 private:
  Context& context_;
  CollectSpec spec_;
  std::map<std::string, std::vector<std::string>> cache_;
  milliseconds pytest_time_{0};
  int runs_ = 0;
};

void log_problems(Workflow& workflow, const PartitionResult& r) {
  for (const auto& id : r.in_no_leg) workflow.log("in no leg [" + r.label + "]: " + id);
  for (const auto& o : r.in_two_legs) workflow.log("in " + join(o.legs, " and ") + " [" + r.label + "]: " + o.node_id);
  for (const auto& id : r.outside) workflow.log("selected by a leg but not collected without -m [" + r.label + "]: " + id);
}

std::vector<Note> annotations(const std::vector<PartitionResult>& results) {
  std::vector<Note> out;
  for (const auto& r : results) {
    for (const auto& id : r.in_no_leg)
      out.push_back({file_of(id), 0, id + " is in no leg (" + r.label + "): no CI job runs it"});
    for (const auto& o : r.in_two_legs)
      out.push_back({file_of(o.node_id), 0, o.node_id + " is in " + join(o.legs, " and ") + " (" + r.label + ")"});
  }
  return out;
}

std::string summary(const Selection& selection, const std::vector<ContextGroup>& groups,
                    const std::vector<PartitionResult>& results) {
  bool ok = true;
  for (const auto& r : results) ok = ok && r.ok();
  std::string md = ok ? "## ✅ Test partition: every test is in exactly one leg\n\n"
                      : "## ❌ Test partition: some tests are in no leg or in two\n\n";
  std::vector<std::string> header{"context", "tests"};
  for (const auto& leg : selection.legs) header.push_back("leg " + leg.name);
  header.insert(header.end(), {"in no leg", "in two legs"});
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : results) {
    std::vector<std::string> row{r.label, std::to_string(r.universe)};
    for (auto n : r.leg_counts) row.push_back(std::to_string(n));
    row.push_back(r.in_no_leg.empty() ? "0" : "**" + std::to_string(r.in_no_leg.size()) + "**");
    row.push_back(r.in_two_legs.empty() ? "0" : "**" + std::to_string(r.in_two_legs.size()) + "**");
    rows.push_back(std::move(row));
  }
  md += markdown_table(header, rows) + "\n";
  std::vector<std::vector<std::string>> selections;
  for (const auto& g : groups) {
    std::vector<std::string> row{g.label(), g.universe.empty() ? "(every test)" : markdown_code(g.universe)};
    for (const auto& e : g.expressions) row.push_back(markdown_code(e));
    selections.push_back(std::move(row));
  }
  std::vector<std::string> selection_header{"context", "collected without a leg"};
  for (const auto& leg : selection.legs) selection_header.push_back("leg " + leg.name + " (-m)");
  md += "<details><summary>The expressions (from " + html_text(selection.origin) + ")</summary>\n\n" +
        markdown_table(selection_header, selections) + "\n</details>\n\n";
  for (const auto& r : results) {
    if (!r.in_no_leg.empty())
      md += "### In no leg (" + r.label + ")\n\nNo CI job runs these tests in this context: give each a marker "
            "that one leg selects.\n\n" + markdown_id_list(r.in_no_leg) + "\n";
    if (!r.in_two_legs.empty()) {
      std::vector<std::string> lines;
      for (const auto& o : r.in_two_legs) lines.push_back(o.node_id + "  <-  " + join(o.legs, " and "));
      md += "### In two legs (" + r.label + ")\n\nThese tests run twice: make the legs' expressions exclusive.\n\n" +
            markdown_id_list(lines) + "\n";
    }
    if (!r.outside.empty())
      md += "### Selected by a leg but not collected without -m (" + r.label + ")\n\n" + markdown_id_list(r.outside) + "\n";
  }
  return md;
}

}  // namespace

ExitCode run_partition(const PartitionOptions& options, Context& context) {
  const auto started = context.clock.monotonic();
  const Selection selection = load_selection(options, context.files);
  // A docs variant that is none of the matrix's values: a documentation-only change would run
  // the docs tests on no job, and every job would pass.
  if (auto problem = docs_variant_problem(selection, matrix_values(options)); !problem.empty()) fail_bad_input(problem);
  const auto groups = group_contexts(selection, requested_contexts(options));
  CollectSpec spec;
  spec.python = options.python;
  spec.root = options.root;
  spec.paths = selection.paths;
  spec.timeout = std::chrono::seconds(options.collect_timeout_s);
  Collections collections(context, spec);

  std::vector<std::string> leg_names;
  for (const auto& leg : selection.legs) leg_names.push_back(leg.name);
  std::vector<PartitionResult> results;
  for (const auto& group : groups) {
    const auto& universe = collections.of(group.universe);
    std::vector<const std::vector<std::string>*> legs;
    for (const auto& expression : group.expressions) legs.push_back(&collections.of(expression));
    results.push_back(decide_partition(group.label(), universe, leg_names, legs));
  }

  bool ok = true;
  for (const auto& r : results) {
    ok = ok && r.ok();
    log_problems(context.workflow, r);
    context.workflow.log("[" + r.label + "] " + std::to_string(r.universe) + " tests: " +
                         (r.ok() ? "every one in exactly one leg"
                                 : std::to_string(r.in_no_leg.size()) + " in no leg, " +
                                       std::to_string(r.in_two_legs.size()) + " in two legs"));
  }
  annotate_first(context.workflow, Severity::error, "suite-report partition", annotations(results));
  context.workflow.append_summary(summary(selection, groups, results));
  context.workflow.set_output("result", ok ? "pass" : "fail");
  const auto own = std::chrono::duration_cast<milliseconds>(context.clock.monotonic() - started) - collections.pytest_time();
  context.workflow.log("timing: " + std::to_string(collections.runs()) + " pytest collections took " +
                       std::to_string(collections.pytest_time().count()) + " ms; suite-report's own work took " +
                       std::to_string(own.count()) + " ms");
  return ok ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::suite_report
