// gpu-gate status [REV] [--json]: the status REV would get, and whether this machine's
// result for its tree has reached the remote.
#include "status.hpp"

#include "common.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/json.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "git_command.hpp"
#include "gpu-gate.hpp"

namespace gatekit::gpu_gate {
namespace {

// The base for "no code change": the option, else the remote's default branch when the
// clone knows it (refs/remotes/<remote>/HEAD), else none.
std::string resolve_base(const Git& git, const std::string& option, const std::string& remote) {
  if (!option.empty()) return option;
  auto out = git_exec(git, GitCall{{"symbolic-ref", "-q", "--end-of-options", "refs/remotes/" + remote + "/HEAD"},
                                   std::nullopt, {}, {}});
  if (!out || !out->succeeded()) return "";
  return trim(out->out);
}

// This machine's newest record of the tree, if any.
const GateRecord* mine_for(const StatusInput& input, const std::string& tree, const std::string& machine) {
  const GateRecord* best = nullptr;
  for (const auto& r : input.records)
    if (r.half == RefHalf::mine && r.tree == tree && r.machine == machine && (best == nullptr || r.time > best->time)) best = &r;
  return best;
}

// Whether the remote holds this record under the published name: one ls-remote.
std::optional<bool> on_remote(const Git& git, const std::string& remote, const std::string& ns, const GateRecord& mine) {
  const std::string ref = published_name(ns, mine.ref);
  auto out = git_exec(git, GitCall{{"ls-remote", "--refs", "--end-of-options", remote, ref}, std::nullopt, {}, {}});
  if (!out || !out->succeeded()) return std::nullopt;
  for (const auto& line : split_lines(out->out))
    if (line == mine.record_commit + "\t" + ref) return true;
  return false;
}

std::string json_of(const GateStatus& s, const std::string& commit, const std::optional<bool>& published,
                    bool has_mine, const std::vector<std::string>& ignored) {
  boost::json::object o;
  o["state"] = std::string(to_string(s.state));
  o["description"] = s.description;
  o["commit"] = commit;
  o["tree"] = s.tree;
  o["source"] = s.source;
  o["source_kind"] = std::string(to_string(s.source_kind));
  if (has_mine && published) o["published"] = *published;
  else o["published"] = nullptr;
  boost::json::array ignored_refs;
  for (const auto& line : ignored) ignored_refs.emplace_back(line);
  o["ignored"] = std::move(ignored_refs);
  if (s.record) {
    boost::json::object r;
    r["verdict"] = std::string(to_string(s.record->verdict));
    r["machine"] = s.record->machine;
    r["time"] = format_utc(s.record->time);
    r["duration_ms"] = s.record->duration.count();
    r["ref"] = s.record->ref;
    r["tree"] = s.record->tree;
    o["result"] = std::move(r);
  }
  return inert_json(boost::json::serialize(o));
}

std::string published_text(const std::optional<bool>& published, bool has_mine, const std::string& remote,
                           const std::string& ns) {
  if (!has_mine) return "this machine has no result for this tree";
  if (!published) return "unknown: " + remote + " could not be asked";
  if (*published) return "yes, on " + remote;
  return "not yet: run `git push` (after gpu-gate setup), or git push " + remote + " '+refs/" + ns + "-mine/*:refs/" + ns + "/*'";
}

}  // namespace

ExitCode run_status(const StatusOptions& options, Context& context) {
  check_remote(options.remote);
  const Config config = load_gate_config(context, options.repo_dir, options.config);
  const std::string machine = resolve_machine(context, options.machine);
  Git git(context.processes, options.repo_dir);
  StatusQuery query;
  query.rev = options.rev;
  query.base = resolve_base(git, options.base, options.remote);
  query.now = std::chrono::duration_cast<std::chrono::seconds>(context.clock.now().time_since_epoch()).count();
  auto gathered = value_or_throw(gather_status_input(git, config, query));
  const GateStatus status = decide_status(gathered.input);
  std::vector<std::string> ignored = gathered.rejected;  // refs that do not read, then results that do not count
  ignored.insert(ignored.end(), status.ignored.begin(), status.ignored.end());
  const GateRecord* mine = mine_for(gathered.input, status.tree, machine);
  const std::optional<bool> published = mine != nullptr ? on_remote(git, options.remote, config.namespace_, *mine) : std::nullopt;
  if (options.json) {
    context.out << json_of(status, gathered.commit, published, mine != nullptr, ignored) << '\n';
    return ExitCode::pass;
  }
  for (const auto& line : ignored) context.workflow.log("ignored result ref " + line);
  std::vector<std::vector<std::string>> rows{
      {"commit", markdown_code(gathered.commit)},
      {"tree", markdown_code(status.tree)},
      {"state", std::string(to_string(status.state))},
      {"description", markdown_text(status.description)},
      {"source", status.source.empty() ? "-" : markdown_code(status.source)},
  };
  if (status.record)
    rows.push_back({"result", markdown_text(std::string(to_string(status.record->verdict)) + " on " + status.record->machine +
                                             " at " + format_utc(status.record->time))});
  rows.push_back({"published", markdown_text(published_text(published, mine != nullptr, options.remote, config.namespace_))});
  context.workflow.log("gate/gpu for " + short_commit(gathered.commit) + ": " + std::string(to_string(status.state)) + " \"" +
                       status.description + "\"");
  if (status.record) context.workflow.log("  counted result: " + status.record->ref);
  context.workflow.log("  this machine (" + machine + "): " + published_text(published, mine != nullptr, options.remote, config.namespace_));
  context.workflow.append_summary("## gpu-gate status\n\n" + markdown_table({"", ""}, rows));
  return ExitCode::pass;
}

}  // namespace gatekit::gpu_gate
