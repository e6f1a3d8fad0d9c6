// gather_status_input: the clone's facts for decide_status, one git process per kind of query.
#include <algorithm>
#include <set>

#include "scope/docs_rule.hpp"
#include "gatekit/text.hpp"
#include "status/status.hpp"

namespace gatekit::gpu_gate {
namespace {

struct ResolvedRevision {
  std::string commit;
  std::string tree;
};

Result<ResolvedRevision> resolve(Git& git, const std::string& rev) {
  if (auto ok = check_revision(rev); !ok) return as_bad_input(Result<ResolvedRevision>(ok.error()));
  auto out = git.run(GitCommand{"log", "-1", "--format=%H %T"}.revision(rev, "^{commit}").paths({}));
  if (!out) return bad_input("cannot resolve " + quote_for_message(rev) + " to a commit: " + out.error().message);
  const std::string line = trim(*out);
  if (line.size() != 81 || line[40] != ' ' || !is_object_name(line.substr(0, 40)) || !is_object_name(line.substr(41)))
    return could_not_evaluate("unexpected git log output for " + quote_for_message(rev));
  return ResolvedRevision{line.substr(0, 40), line.substr(41)};
}

std::vector<ResultRef> refs_of(const std::vector<ResultRef>& refs, const std::set<std::string>& trees) {
  std::vector<ResultRef> out;
  for (const auto& r : refs)
    if (trees.count(r.parts.tree) > 0) out.push_back(r);
  return out;
}

// What one step of the walk changed: whether some path is not docs only, whether some path
// needs a GPU result, and the paths that are not docs only.
struct StepChange {
  bool gpu = false;
  std::set<std::string> code;
};

void finish_step(HistoryCommit& commit, const StepChange& step) {
  commit.docs_only_step = step.code.empty() && !step.gpu;  // docs the GPU filter takes need a result
  if (!commit.docs_only_step && !step.gpu) commit.outside_filter.assign(step.code.begin(), step.code.end());
}

// Part of the first-parent walk from `commit` with the paths each step changed. Paths come
// C-quoted (core.quotePath), so no path can hold a line break or start a header line with
// \x01: a file name cannot forge a commit of the walk.
Status walk_part(Git& git, const std::string& commit, int skip, int count, const DocsRule& docs,
                 std::vector<HistoryCommit>& history) {
  auto out = git.run(GitCommand{"-c", "core.quotePath=true", "log", "--first-parent", "--diff-merges=first-parent", "--raw",
                                 "--no-renames", "--no-ext-diff", "--format=%x01%H %T"}
                         .option("--skip=", skip)
                         .option("--max-count=", count)
                         .revision(commit)
                         .paths({}));
  if (!out) return out.error();
  const std::size_t first = history.size();
  StepChange step;
  for (const auto& line : split_lines(*out)) {
    if (line.starts_with('\x01')) {
      const auto space = line.find(' ');
      if (space != 41 || !is_object_name(line.substr(1, 40)) || !is_object_name(line.substr(42)))
        return could_not_evaluate("unexpected git log line: " + quote_for_message(line));
      if (history.size() > first) finish_step(history.back(), step);
      step = {};
      history.push_back({line.substr(1, 40), line.substr(42), true});
      continue;
    }
    if (line.empty()) continue;
    if (history.size() == first) return could_not_evaluate("unexpected git log output before the first commit");
    auto change = parse_raw_line(line);
    if (!change) return change.error();
    if (!is_docs_change(docs, *change)) step.code.insert(change->path);
    if (needs_gpu_change(docs, *change)) step.gpu = true;
  }
  if (history.size() > first) finish_step(history.back(), step);
  return {};
}

bool all_lend(const std::vector<HistoryCommit>& history) {
  for (const auto& c : history)
    if (!c.needs_no_gpu()) return false;
  return true;
}

// The walk ends at the first step that needs a GPU result, usually within a few commits: a
// first short walk, and the rest (up to max_walk) only when no step of it needed one.
Result<std::vector<HistoryCommit>> walk(Git& git, const std::string& commit, int max_walk, const DocsRule& docs,
                                        int& processes) {
  constexpr int kFirst = 64;
  std::vector<HistoryCommit> history;
  const int first = std::min(kFirst, max_walk);
  if (auto ok = walk_part(git, commit, 0, first, docs, history); !ok) return ok.error();
  ++processes;
  if (static_cast<int>(history.size()) == first && max_walk > first && all_lend(history)) {
    if (auto ok = walk_part(git, commit, first, max_walk - first, docs, history); !ok) return ok.error();
    ++processes;
  }
  return history;
}

// The change since the merge base with `base`: whether it is docs-only and not empty, and when
// it needs no GPU result without being docs only, its paths and the merge base.
Status change_since_base(Git& git, const std::string& base, const std::string& commit, const DocsRule& docs,
                         StatusInput& input, int& processes) {
  if (base.empty()) return {};
  auto change = classify_change(git, docs, base, commit, /*three_dot=*/true);
  if (!change) return change.error();
  ++processes;
  input.change_docs_only = !change->empty && change->code.empty() && change->gpu.empty();
  if (change->code.empty() || !change->gpu.empty()) return {};
  auto merge_base = git.run(GitCommand{"merge-base"}.revision(base).revision(commit));
  if (!merge_base) return merge_base.error();
  ++processes;
  const std::string at = trim(*merge_base);
  if (!is_object_name(at)) return could_not_evaluate("unexpected git merge-base output: " + quote_for_message(at));
  input.merge_base = at;
  input.change_outside_filter = change->outside_filter();
  return {};
}

// The walk is cut after the first step that needs a GPU result: older commits lend nothing.
void cut_after_code_step(std::vector<HistoryCommit>& history) {
  for (std::size_t i = 0; i < history.size(); ++i)
    if (!history[i].needs_no_gpu()) {
      history.resize(i + 1);
      return;
    }
}

}  // namespace

Result<GatheredStatus> gather_status_input(Git& git, const Config& config, const StatusQuery& query) {
  GatheredStatus out;
  out.input.now = query.now;
  out.input.expiry = config.expiry;
  out.input.clock_skew = config.clock_skew;
  out.input.cpu_gate = config.cpu_gate;
  out.input.config_digest = query.config_digest;
  if (query.gpu_filter != nullptr) out.input.gpu_filter = query.gpu_filter->name();
  auto resolved = resolve(git, query.rev);
  if (!resolved) return resolved.error();
  out.commit = resolved->commit;
  auto listed = list_result_refs(git, config.namespace_, &out.rejected);
  if (!listed) return listed.error();
  out.git_processes = 2;
  std::set<std::string> trees;
  for (const auto& r : *listed) trees.insert(r.parts.tree);
  // The common case: results for the exact tree, no walk needed.
  std::set<std::string> wanted;
  out.input.history = {{resolved->commit, resolved->tree, false}};
  if (trees.count(resolved->tree) > 0) {
    auto records = read_listed_records(git, refs_of(*listed, {resolved->tree}), &out.rejected);
    if (!records) return records.error();
    out.git_processes += 2;
    out.input.records = std::move(*records);
    if (query.stop_at_exact && decide_status(out.input).source_kind == StatusSource::exact) return out;
  }
  // The rule holds the commit's symbolic links and test configuration (docs_rule.hpp): a
  // history that lends a result cannot change them, so they are every walked tree's.
  auto docs = docs_rule_for(git, config.docs_patterns, resolved->commit);
  if (!docs) return docs.error();
  ++out.git_processes;
  docs->set_gpu_filter(query.gpu_filter);
  auto history = walk(git, resolved->commit, query.max_walk, *docs, out.git_processes);
  if (!history) return history.error();
  cut_after_code_step(*history);
  out.input.history = std::move(*history);
  for (const auto& c : out.input.history)
    if (trees.count(c.tree) > 0 && c.tree != resolved->tree) wanted.insert(c.tree);
  if (!wanted.empty()) {
    auto records = read_listed_records(git, refs_of(*listed, wanted), &out.rejected);
    if (!records) return records.error();
    out.git_processes += 2;
    out.input.records.insert(out.input.records.end(), records->begin(), records->end());
  }
  if (query.stop_at_exact && decide_status(out.input).source_kind != StatusSource::none) return out;
  if (auto ok = change_since_base(git, query.base, resolved->commit, *docs, out.input, out.git_processes); !ok)
    return ok.error();
  return out;
}

}  // namespace gatekit::gpu_gate
