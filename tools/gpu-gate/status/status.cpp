// gpu-gate status [REV] [--json]: the status REV would get, and whether this machine's
// result for its tree has reached the remote.
#include "status/status.hpp"

#include <map>
#include <set>

#include "common.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/json.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "gpu-gate.hpp"

namespace gatekit::gpu_gate {
namespace {

// The base for "no code change": the option, else the remote's default branch when the
// clone knows it (refs/remotes/<remote>/HEAD), else none.
std::string resolve_base(const Git& git, const std::string& option, const std::string& remote) {
  // The branch by its full name: a tag named like it never stands for it.
  if (!option.empty()) {
    auto full = git.branch_first(option, remote);
    return full ? *full : option;
  }
  auto out = git.exec(GitCommand{"symbolic-ref", "-q"}.argument("the ref", "refs/remotes/" + remote + "/HEAD"));
  if (!out || !out->succeeded()) return "";
  return trim(out->out);
}

// The path gate's GPU filter the configuration names, from the commit the configuration's
// files came from (the trusted base when the clone knows it): gpu_filter.hpp.
std::optional<GpuFilter> gate_gpu_filter(const Git& git, const GateConfig& gate_config) {
  const Config& config = gate_config.config;
  std::optional<std::string> text = gate_config.default_rules_text;
  if (config.gpu_filter.enabled && config.gpu_filter.rules != default_rules_path)
    text = read_at(git, gate_config.files_rev, {config.gpu_filter.rules}).files.at(0);
  return value_or_throw(gpu_filter_of(config, text, gate_config.files_rev_name));
}

std::string gpu_filter_text(const std::optional<GpuFilter>& filter) {
  if (!filter) return "none: every change outside the docs needs a result (gpu_filter)";
  return quote_for_message(filter->name()) + " of " + filter->origin;
}

// This machine's newest record of the tree, if any.
const GateRecord* mine_for(const StatusInput& input, const std::string& tree, const std::string& machine) {
  const GateRecord* best = nullptr;
  for (const auto& r : input.records)
    if (r.half == RefHalf::mine && r.tree == tree && r.machine == machine && (best == nullptr || r.time > best->time)) best = &r;
  return best;
}

// The remote's published results, ref name -> object: one ls-remote; nullopt when the remote
// cannot be asked (offline, no such remote). An ls-remote that ended because the run was
// cancelled says nothing of the remote: a Failure, and no status is shown.
std::optional<std::map<std::string, std::string>> remote_results(const Git& git, const std::string& remote,
                                                                 const std::string& ns) {
  auto out = git.exec(GitCommand{"ls-remote", "--refs"}.argument("the remote", remote).argument("the ref pattern", published_prefix(ns) + "*"));
  if (termination_signal() != 0)
    throw Failure(cancellation("gpu-gate", " while asking " + remote + " for its results; no status is shown"));
  if (!out || !out->succeeded()) return std::nullopt;
  std::map<std::string, std::string> refs;
  for (const auto& line : split_lines(out->out)) {
    const auto tab = line.find('\t');
    if (tab != std::string::npos) refs[line.substr(tab + 1)] = line.substr(0, tab);
  }
  return refs;
}

bool on(const std::map<std::string, std::string>& remote, const std::string& ref, const std::string& object) {
  const auto it = remote.find(ref);
  return it != remote.end() && it->second == object;
}

// Published results this clone still holds that the remote no longer has (a plain fetch does
// not prune): they do not count.
std::set<std::string> stale_refs(const std::vector<GateRecord>& records, const std::map<std::string, std::string>& remote) {
  std::set<std::string> stale;
  for (const auto& r : records)
    if (r.published() && !on(remote, r.ref, r.record_commit)) stale.insert(r.ref);
  return stale;
}

std::string json_of(const GateStatus& s, const std::string& commit, const std::optional<bool>& published,
                    bool has_mine, const std::vector<std::string>& ignored, const GateConfig& gate_config,
                    const std::optional<GpuFilter>& filter) {
  boost::json::object o;
  o["config"] = gate_config.digest;  // what a result must have been recorded with to count
  o["config_from"] = gate_config.from;
  if (filter) o["gpu_filter"] = boost::json::object{{"filter", filter->name()}, {"rules", filter->origin}};
  else o["gpu_filter"] = nullptr;
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
  boost::json::array outside;
  for (const auto& path : s.outside_filter) outside.emplace_back(path);
  o["outside_filter"] = std::move(outside);
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

// The paths a status lets go without a GPU result: the first few, and how many more.
std::string outside_text(const std::vector<std::string>& paths) {
  constexpr std::size_t kShown = 5;
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < paths.size() && i < kShown; ++i) shown.push_back(visible_controls(paths[i]));
  std::string text = join(shown, ", ");
  if (paths.size() > kShown) text += " (+" + std::to_string(paths.size() - kShown) + " more)";
  return text;
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
  Git git(context.processes, options.repo_dir);
  // As `run` reads it: the remote's default branch's configuration, whose digest a result must carry.
  const GateConfig gate_config = read_gate_config(context, git, options.repo_dir, options.config, options.remote);
  const Config& config = gate_config.config;
  const std::optional<GpuFilter> filter = gate_gpu_filter(git, gate_config);
  const std::string machine = resolve_machine(context, options.machine);
  StatusQuery query;
  query.config_digest = gate_config.digest;
  query.gpu_filter = filter ? &*filter : nullptr;
  query.rev = options.rev;
  // The base for "no code change": the option, else the remote's default branch, as read above.
  query.base = !options.base.empty() || !options.config.empty() ? resolve_base(git, options.base, options.remote)
                                                               : gate_config.base_rev;
  query.now = context.clock.epoch_seconds();
  auto gathered = value_or_throw(gather_status_input(git, config, query));
  const auto remote = remote_results(git, options.remote, config.namespace_);
  std::set<std::string> stale = remote ? stale_refs(gathered.input.records, *remote) : std::set<std::string>{};
  if (!stale.empty()) {
    // Gather every candidate again (an inherited result may count once the stale one is out).
    query.stop_at_exact = false;
    gathered = value_or_throw(gather_status_input(git, config, query));
    stale = stale_refs(gathered.input.records, *remote);
    std::erase_if(gathered.input.records, [&stale](const GateRecord& r) { return stale.count(r.ref) > 0; });
  }
  const GateStatus status = decide_status(gathered.input);
  std::vector<std::string> ignored = gathered.rejected;  // refs that do not read, then results that do not count
  for (const auto& ref : stale)
    ignored.push_back(quote_for_message(ref, kMaxRefShown) + ": no longer on " + options.remote +
                      " (git fetch --prune " + options.remote + " drops it)");
  ignored.insert(ignored.end(), status.ignored.begin(), status.ignored.end());
  const GateRecord* mine = mine_for(gathered.input, status.tree, machine);
  const std::optional<bool> published =
      mine != nullptr && remote ? std::optional<bool>(on(*remote, published_name(config.namespace_, mine->ref), mine->record_commit))
                                : std::nullopt;
  if (options.json) {
    context.out << json_of(status, gathered.commit, published, mine != nullptr, ignored, gate_config, filter) << '\n';
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
  if (!status.outside_filter.empty())
    rows.push_back({"outside the GPU filter", markdown_text(outside_text(status.outside_filter))});
  rows.push_back({"GPU filter", markdown_text(gpu_filter_text(filter))});
  rows.push_back({"published", markdown_text(published_text(published, mine != nullptr, options.remote, config.namespace_))});
  context.workflow.log("gate/gpu for " + short_commit(gathered.commit) + ": " + std::string(to_string(status.state)) + " \"" +
                       status.description + "\"");
  if (status.record) context.workflow.log("  counted result: " + status.record->ref);
  context.workflow.log("  this machine (" + machine + "): " + published_text(published, mine != nullptr, options.remote, config.namespace_));
  if (!status.outside_filter.empty())
    context.workflow.log("  outside the GPU filter: " + outside_text(status.outside_filter));
  context.workflow.log("  GPU filter: " + gpu_filter_text(filter));
  context.workflow.log("  configuration: " + gate_config.from + ", digest " + gate_config.digest.substr(0, 19));
  context.workflow.append_summary("## gpu-gate status\n\n" + markdown_table({"", ""}, rows));
  return ExitCode::pass;
}

}  // namespace gatekit::gpu_gate
