#include "common.hpp"

#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/test_run.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "run/markers.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {

Config load_gate_config(Context& context, const std::string& repo_dir, const std::string& config) {
  const bool explicit_path = !config.empty();
  const std::filesystem::path path =
      explicit_path ? std::filesystem::path(config) : std::filesystem::path(repo_dir) / default_config_path;
  auto loaded = value_or_throw(load_config(context.files, path, explicit_path));
  if (loaded.workers == 0) loaded.workers = default_workers(context.env);
  test_run::CommandTemplate command{loaded.command, loaded.old_spellings};
  test_run::warn_old_spellings(context.workflow, command,
                               (loaded.source.empty() ? std::string(default_config_path) : loaded.source.string()) +
                                   ": command");
  return loaded;
}

void use_selection(Context& context, const std::filesystem::path& checkout, Config& config, bool full) {
  const auto path = checkout / config.selection;
  std::optional<selection::Selection> selection;
  if (!config.selection_at.empty() && !context.files.exists(path))
    fail_bad_input(config.selection_at + ": selection: the tested commit has no file " + quote_for_message(config.selection));
  if (context.files.exists(path)) {
    // Read from the tested checkout; errors name it as the repository does.
    auto text = value_or_throw(as_bad_input(context.files.read(path)));
    selection = value_or_throw(selection::load_selection_text(text, config.selection));
  }
  const auto markers = value_or_throw(pass_markers(config, selection ? &*selection : nullptr, full));
  bool reached = false;
  config.command = apply_markers(config.command, markers.expression, &reached);
  context.workflow.log("markers: " + markers.expression + ": " + markers.why);
  if (!reached && markers.leaves_out)
    context.workflow.annotate({Severity::warning,
                               "the test command is not pytest and holds no {markers}: it runs the nightly tests, "
                               "which this pass would leave out (-m " + markers.expression + ")",
                               "gpu-gate: markers"});
}

std::string resolve_machine(const Context& context, const std::string& option) {
  std::string machine = option;
  if (machine.empty()) machine = context.env.get_nonempty("GATEKIT_GATE_MACHINE").value_or("");
  if (machine.empty()) return machine_id_from_host(context.env.host_name());
  throw_if_error(valid_machine(machine));
  return machine;
}

void check_remote(const std::string& remote) {
  bool ok = !remote.empty() && remote.size() <= 100 && remote.front() != '-' && remote.front() != '.';
  for (char c : remote)
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-');
  if (!ok) fail_bad_input("the remote " + quote_for_message(remote) + " is not a remote name (letters, digits, '.', '_', '-')");
}

Result<std::vector<std::string>> config_values(const Git& git, const std::string& key) {
  auto result = git.exec(GitCommand{"config", "--get-all"}.argument("the config key", key));
  if (!result) return result.error();
  if (result->exit_code == 1 && result->signal == 0) return std::vector<std::string>{};  // unset
  if (!result->succeeded()) return could_not_evaluate("git config --get-all " + key + " failed: " + trim(result->err));
  return split_lines(result->out);
}

std::vector<std::string> split_nul(std::string_view text) {
  std::vector<std::string> items;
  for (std::size_t start = 0; start < text.size();) {
    auto end = text.find('\0', start);
    if (end == std::string_view::npos) end = text.size();
    items.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

}  // namespace gatekit::gpu_gate
