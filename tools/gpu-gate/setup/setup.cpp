// gpu-gate setup [--undo]: apply the plan of setup_plan.hpp to the clone's configuration
// and say exactly what changed.
#include "common.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "gpu-gate.hpp"
#include "setup/setup_plan.hpp"

namespace gatekit::gpu_gate {
namespace {

// What setup added is remembered here, so --undo removes exactly that.
std::string added_key(const std::string& remote) { return "gatekit-gpu-gate." + remote + ".added"; }

GitCommand config_add(const std::string& key, const std::string& value) {
  GitCommand command{"config", "--add"};
  command.argument("the config key", key).argument("the config value", value);
  return command;
}

GitCommand config_unset(const std::string& key, const std::string& value) {
  GitCommand command{"config", "--fixed-value", "--unset-all"};
  command.argument("the config key", key).argument("the config value", value);
  return command;
}

RemoteSettings read_settings(const Git& git, const std::string& remote) {
  auto url = config_values(git, "remote." + remote + ".url");
  if (!url) fail(url.error());
  if (url->empty()) fail_bad_input("the clone has no remote named " + quote_for_message(remote) + " (see git remote -v)");
  RemoteSettings settings;
  settings.push = value_or_throw(config_values(git, "remote." + remote + ".push"));
  settings.fetch = value_or_throw(config_values(git, "remote." + remote + ".fetch"));
  settings.added = value_or_throw(config_values(git, added_key(remote)));
  return settings;
}

void apply(const Git& git, const std::string& remote, const ConfigChange& change) {
  const std::string key = "remote." + remote + "." + change.key;
  const std::string marker = change.key + " " + change.value;
  if (change.add) {
    value_or_throw(git.run(config_add(key, change.value)));
    value_or_throw(git.run(config_add(added_key(remote), marker)));
    return;
  }
  // git unsets every copy of a value or none: all go, and the copies a person added come back.
  value_or_throw(git.run(config_unset(key, change.value)));
  for (int i = 0; i < change.keep; ++i)
    value_or_throw(git.run(config_add(key, change.value)));
  auto gone = git.exec(config_unset(added_key(remote), marker));
  if (!gone) fail(gone.error());
}

bool detached_head(const Git& git) {
  auto result = git.exec(GitCommand{"symbolic-ref", "-q", "HEAD"});
  return result && result->exit_code == 1 && result->signal == 0;
}

std::string summary_of(const SetupPlan& plan, const std::string& remote, bool undo) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : plan.changes)
    rows.push_back({c.add ? "added" : "removed", markdown_code("remote." + remote + "." + c.key + " " + c.value), markdown_text(c.why)});
  for (const auto& u : plan.unchanged) rows.push_back({"unchanged", markdown_code(u), ""});
  std::string md = std::string("## gpu-gate setup") + (undo ? " --undo" : "") + "\n\n";
  md += rows.empty() ? "Nothing to change.\n" : markdown_table({"change", "setting", "effect"}, rows);
  for (const auto& note : plan.notes) md += "\n" + markdown_text(note) + "\n";
  return md;
}

}  // namespace

ExitCode run_setup(const SetupOptions& options, Context& context) {
  check_remote(options.remote);
  const Config config = load_gate_config(context, options.repo_dir, options.config);
  Git git(context.processes, options.repo_dir);
  const RemoteSettings found = read_settings(git, options.remote);
  const SetupPlan plan = options.undo ? plan_undo(found, options.remote) : plan_setup(found, options.remote, config.namespace_);
  SetupPlan shown = plan;
  if (!options.undo && detached_head(git))
    shown.notes.insert(shown.notes.begin(), "HEAD is detached: a plain `git push` fails until you check out a branch");
  for (const auto& change : plan.changes) {
    apply(git, options.remote, change);
    context.workflow.log(std::string(change.add ? "added   " : "removed ") + "remote." + options.remote + "." + change.key +
                         " " + change.value + ": " + change.why);
  }
  for (const auto& line : plan.unchanged) context.workflow.log("kept    " + line);
  if (plan.changes.empty()) context.workflow.log("nothing changed");
  for (const auto& note : shown.notes) context.workflow.log("note: " + note);
  context.workflow.append_summary(summary_of(shown, options.remote, options.undo));
  return ExitCode::pass;
}

}  // namespace gatekit::gpu_gate
