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
  for (const auto& line : split_lines(*out)) {
    if (line.starts_with('\x01')) {
      const auto space = line.find(' ');
      if (space != 41 || !is_object_name(line.substr(1, 40)) || !is_object_name(line.substr(42)))
        return could_not_evaluate("unexpected git log line: " + quote_for_message(line));
      history.push_back({line.substr(1, 40), line.substr(42), true});
      continue;
    }
    if (line.empty()) continue;
    if (history.empty()) return could_not_evaluate("unexpected git log output before the first commit");
    auto change = parse_raw_line(line);
    if (!change) return change.error();
    if (!is_docs_change(docs, *change)) history.back().docs_only_step = false;
  }
  return {};
}

bool all_docs_only(const std::vector<HistoryCommit>& history) {
  for (const auto& c : history)
    if (!c.docs_only_step) return false;
  return true;
}

// The walk ends at the first code step, usually within a few commits: a first short walk,
// and the rest (up to max_walk) only when every step of it was docs-only.
Result<std::vector<HistoryCommit>> walk(Git& git, const std::string& commit, int max_walk, const DocsRule& docs,
                                        int& processes) {
  constexpr int kFirst = 64;
  std::vector<HistoryCommit> history;
  const int first = std::min(kFirst, max_walk);
  if (auto ok = walk_part(git, commit, 0, first, docs, history); !ok) return ok.error();
  ++processes;
  if (static_cast<int>(history.size()) == first && max_walk > first && all_docs_only(history)) {
    if (auto ok = walk_part(git, commit, first, max_walk - first, docs, history); !ok) return ok.error();
    ++processes;
  }
  return history;
}

// Whether the change since the merge base with `base` is docs-only and not empty.
Result<std::optional<bool>> change_docs_only(Git& git, const std::string& base, const std::string& commit,
                                             const DocsRule& docs) {
  if (base.empty()) return std::optional<bool>{};
  auto change = classify_change(git, docs, base, commit, /*three_dot=*/true);
  if (!change) return change.error();
  return std::optional<bool>(!change->empty && change->code.empty());
}

// The walk is cut after the first step that is not docs-only: older commits lend nothing.
void cut_after_code_step(std::vector<HistoryCommit>& history) {
  for (std::size_t i = 0; i < history.size(); ++i)
    if (!history[i].docs_only_step) {
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
  // The rule holds the commit's symbolic links (docs_rule.hpp): a docs-only history cannot
  // change one, so they are the links of every tree of the walk.
  auto docs = docs_rule_for(git, config.docs_patterns, resolved->commit);
  if (!docs) return docs.error();
  ++out.git_processes;
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
  auto docs_only = change_docs_only(git, query.base, resolved->commit, *docs);
  if (!docs_only) return docs_only.error();
  if (!query.base.empty()) ++out.git_processes;
  out.input.change_docs_only = *docs_only;
  return out;
}

}  // namespace gatekit::gpu_gate
