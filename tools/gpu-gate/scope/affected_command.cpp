// `gpu-gate affected`: reads the change and the test map, prints the affected tests.
#include <ostream>

#include "scope/affected.hpp"
#include "common.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "run/test_map_place.hpp"

namespace gatekit::gpu_gate {

namespace {

constexpr std::size_t kSummaryRows = 200;

std::string default_base(const Git& git) {
  return git.rev_parse("refs/remotes/origin/HEAD") ? "origin/HEAD" : "main";
}

// Commits since the merge base, then uncommitted changes, then untracked files.
std::vector<FileChange> the_change(const Git& git, const std::string& base) {
  auto changes = value_or_throw(git.diff(base, "HEAD", /*three_dot=*/true));
  auto uncommitted = value_or_throw(git.run(GitCommand{"diff", "--name-status", "-z", "-M", "HEAD"}.paths({})));
  for (auto& change : value_or_throw(parse_name_status_z(uncommitted))) changes.push_back(std::move(change));
  auto untracked = value_or_throw(git.run(GitCommand{"ls-files", "-z", "--others", "--exclude-standard"}));
  for (std::size_t start = 0; start < untracked.size();) {
    auto end = untracked.find('\0', start);
    if (end == std::string::npos) end = untracked.size();
    if (end > start) changes.push_back({'A', untracked.substr(start, end - start), ""});
    start = end + 1;
  }
  return changes;
}

std::string json_of(const Affected& affected, const std::string& base, std::int64_t age_days, bool stale) {
  return boost::json::serialize(boost::json::object{
      {"base", base},
      {"all", affected.all},
      {"unknown", boost::json::array(affected.unknown.begin(), affected.unknown.end())},
      {"tests", boost::json::array(affected.tests.begin(), affected.tests.end())},
      {"docs", boost::json::array(affected.docs.begin(), affected.docs.end())},
      {"changed", affected.changed},
      {"map_age_days", age_days},
      {"stale", stale}});
}

std::string summary_of(const Affected& affected, const std::string& base, const std::string& map_note) {
  std::string md = "## Affected tests\n\nChange since the merge base with " + markdown_code(base) + ": " +
                   std::to_string(affected.changed) + " paths (" + std::to_string(affected.docs.size()) +
                   " docs).\n\n";
  if (!map_note.empty()) md += "> [!WARNING]\n> " + markdown_text(map_note) + "\n\n";
  if (affected.all) {
    md += "**All tests**: the change touches code the test map lacks:\n\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& path : affected.unknown) rows.push_back({markdown_code(path)});
    return md + markdown_table({"path"}, rows);
  }
  md += std::to_string(affected.tests.size()) + " tests affected.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& test : affected.tests) {
    if (rows.size() == kSummaryRows) break;
    rows.push_back({markdown_code(test)});
  }
  if (!rows.empty()) md += markdown_table({"test"}, rows);
  if (affected.tests.size() > kSummaryRows) md += "\n… and " + std::to_string(affected.tests.size() - kSummaryRows) + " more.\n";
  return md;
}

void report(const Affected& affected, const std::string& base, const AffectedOptions& options, Context& context,
            std::int64_t age_days, bool stale, const std::string& map_note) {
  if (!map_note.empty()) context.workflow.annotate({Severity::warning, map_note, "gpu-gate affected"});
  if (options.json) {  // stdout is the JSON alone (in a terminal, step outputs print there too)
    context.out << inert_json(json_of(affected, base, age_days, stale)) << "\n";
    context.workflow.append_summary(summary_of(affected, base, map_note));
    return;
  }
  context.workflow.set_output("all", affected.all ? "true" : "false");
  context.workflow.set_output("tests", boost::json::serialize(boost::json::array(affected.tests.begin(), affected.tests.end())));
  if (affected.all) {
    context.workflow.log("Affected: all tests (the test map lacks " + join(affected.unknown, ", ") + ")");
  } else {
    context.workflow.log("Affected: " + std::to_string(affected.tests.size()) +
                         (affected.tests.size() == 1 ? " test" : " tests"));
    for (const auto& test : affected.tests) context.workflow.log("  " + test);
  }
  context.workflow.append_summary(summary_of(affected, base, map_note));
}

}  // namespace

ExitCode run_affected(const AffectedOptions& options, Context& context) {
  const std::filesystem::path repo(options.repo_dir);
  const auto config = load_gate_config(context, options.repo_dir, options.config);
  Git git(context.processes, repo);
  const std::string base = options.base.empty() ? default_base(git) : options.base;
  // The branch by its full name: a tag named like it never stands for it.
  const std::string rev = value_or_throw(as_bad_input(git.branch_first(base)));
  if (!value_or_throw(git.has_commit(rev))) {
    fail_bad_input("the base " + quote_for_message(base) + " is not a commit in this clone (--base names the branch "
                   "the change is compared with)");
  }
  const auto changes = the_change(git, rev);
  const auto place = test_map_place(git, context.files, config, repo);
  const auto map_path = test_map_to_read(context, place);
  if (!map_path) {
    Affected all;
    all.all = true;
    all.changed = changes.size();
    all.unknown.push_back(place.shown);
    report(all, base, options, context, 0, false,
           "no test map at " + place.shown + ": every test is affected; `gpu-gate run --full` writes it");
    return ExitCode::pass;
  }
  const auto map = value_or_throw(as_bad_input(read_test_map(context.files, *map_path)));
  const auto docs = value_or_throw(docs_rule_for(git, config.docs_patterns, "HEAD"));
  const auto affected = decide_affected(map, changes, docs);
  const auto age = age_in_days(map, context.clock.now());
  const bool stale = is_stale(map, context.clock.now());
  const std::string note = stale ? "the test map is " + std::to_string(age) + " days old (written " +
                                       format_utc(map.created) + "); run `gpu-gate run --full` to refresh it"
                                 : "";
  report(affected, base, options, context, age, stale, note);
  return ExitCode::pass;
}

}  // namespace gatekit::gpu_gate
