#include "common.hpp"

#include <charconv>

#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/repo_path.hpp"
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

namespace {

// The selection file a configuration names: a missing file at the default path is none, a
// named one the commit lacks is a bad_input Failure.
std::optional<std::string> selection_of(const Git& git, const std::string& rev, const std::string& shown_rev,
                                        const Config& config, const CommitFiles& read) {
  std::optional<std::string> text;
  if (config.selection == default_selection_path) text = read.files.at(1);
  else text = read_at(git, rev, {config.selection}).files.at(0);
  if (!text && !config.selection_at.empty())
    fail_bad_input(config.selection_at + ": selection: " + shown_rev + " has no file " + quote_for_message(config.selection));
  return text;
}

}  // namespace

std::vector<CommitFiles> read_at(const Git& git, const std::vector<std::string>& revs,
                                 const std::vector<std::string>& paths) {
  std::string input;
  std::vector<std::string> names;
  for (const auto& rev : revs) {
    if (auto ok = check_revision(rev); !ok) fail(ok.error());
    names.push_back(rev + "^{commit}");
    for (const auto& path : paths) {
      if (repository_path_problem(path) != PathProblem::none) fail_bad_input("not a path in the repository: " + quote_for_message(path));
      names.push_back(rev + ":" + path);
    }
  }
  for (const auto& name : names) input += name + "\n";
  const std::string out = value_or_throw(git.run(GitCommand{"cat-file", "--batch"}.input(input)));
  // "<object> <type> <size>\n<content>\n", or "<name> missing\n", per line of input.
  std::vector<CommitFiles> reads(revs.size());
  std::string_view rest = out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto& read = reads[i / (paths.size() + 1)];
    const bool commit = i % (paths.size() + 1) == 0;
    const auto eol = rest.find('\n');
    if (eol == std::string_view::npos) fail_could_not_evaluate("git cat-file --batch ended early at " + quote_for_message(names[i]));
    const std::string header(rest.substr(0, eol));
    rest.remove_prefix(eol + 1);
    if (header.ends_with(" missing") || header.ends_with(" ambiguous")) {
      if (!commit) read.files.emplace_back();
      continue;
    }
    const auto first = header.find(' ');
    const auto second = header.rfind(' ');
    std::size_t size = 0;
    if (first == std::string::npos || first == second ||
        std::from_chars(header.data() + second + 1, header.data() + header.size(), size).ec != std::errc() ||
        rest.size() < size + 1)
      fail_could_not_evaluate("unexpected git cat-file --batch header for " + quote_for_message(names[i]) + ": " +
                              quote_for_message(header));
    const std::string type = header.substr(first + 1, second - first - 1);
    if (commit) read.commit = header.substr(0, first);
    else if (type != "blob") fail_bad_input(names[i] + " is not a file");
    else read.files.emplace_back(std::string(rest.substr(0, size)));
    rest.remove_prefix(size + 1);
  }
  return reads;
}

CommitFiles read_at(const Git& git, const std::string& rev, const std::vector<std::string>& paths) {
  auto read = std::move(read_at(git, std::vector<std::string>{rev}, paths).front());
  if (read.commit.empty()) fail_bad_input(quote_for_message(rev) + " is not a commit in this clone");
  return read;
}

std::string trusted_config_digest(const Git& git, const std::string& rev, const Config& config) {
  const auto read = read_at(git, rev, {default_config_path, default_selection_path});
  return config_digest(config, selection_of(git, rev, rev, config, read));
}

GateConfig read_gate_config(Context& context, const Git& git, const std::string& repo_dir, const std::string& config_option,
                            const std::string& remote) {
  GateConfig out;
  // One git process for the remote's default branch and HEAD: each commit, its configuration
  // and its default selection file (a clone that does not know the branch answers "missing").
  const std::string base = "refs/remotes/" + remote + "/HEAD";
  const auto reads = read_at(git, {base, "HEAD"}, {default_config_path, default_selection_path, default_rules_path});
  out.trusted = config_option.empty() && !reads[0].commit.empty();
  if (out.trusted) {
    const std::string shown = remote + "/HEAD";
    const std::string origin = shown + ":" + default_config_path;
    const auto& read = reads[0];
    out.config = read.files.at(0) ? value_or_throw(parse_config(*read.files.at(0), origin)) : default_config();
    test_run::warn_old_spellings(context.workflow, {out.config.command, out.config.old_spellings}, origin + ": command");
    out.from = shown + " (" + read.commit.substr(0, 12) + ")";
    out.base_rev = base;
    out.selection_text = selection_of(git, base, shown, out.config, read);
    out.selection_origin = shown + ":" + out.config.selection;
    out.files_rev = base;
    out.files_rev_name = shown;
    out.default_rules_text = read.files.at(2);
  } else {
    // This checkout: the file on disk (the tree is clean, or run refuses it), the selection
    // file of the commit it tests.
    const auto& read = reads[1];
    if (read.commit.empty()) fail_bad_input("HEAD is not a commit in this clone");
    out.config = load_gate_config(context, repo_dir, config_option);
    out.from = config_option.empty() ? "this checkout (" + read.commit.substr(0, 12) + ")" : "--config " + config_option;
    out.selection_text = selection_of(git, "HEAD", "the tested commit", out.config, read);
    out.selection_origin = out.config.selection;
    out.files_rev = "HEAD";
    out.files_rev_name = "HEAD";
    out.default_rules_text = read.files.at(2);
  }
  out.digest = config_digest(out.config, out.selection_text);
  return out;
}

void announce_config(Context& context, const GateConfig& out, const std::string& config_option,
                     const std::string& remote) {
  context.workflow.log("configuration: " + std::string(config_option.empty() ? default_config_path : config_option) +
                       " and " + out.config.selection + " of " + out.from + " (digest " + out.digest.substr(0, 19) + ")");
  if (!out.trusted)
    context.workflow.annotate({Severity::warning,
                               (config_option.empty()
                                    ? "this clone does not know " + remote + "'s default branch (refs/remotes/" + remote +
                                          "/HEAD; `git remote set-head " + remote + " --auto` sets it)"
                                    : std::string("--config names the configuration")) +
                                   ": the gate's configuration is read from " + out.from +
                                   ", not from the base branch CI trusts; the result counts there only if the two agree",
                               "gpu-gate: configuration"});
}

std::string use_selection(Context& context, const std::optional<std::string>& text, const std::string& origin,
                          Config& config, bool full) {
  std::optional<selection::Selection> selection;
  if (text) selection = value_or_throw(selection::load_selection_text(*text, origin));
  const auto markers = value_or_throw(pass_markers(config, selection ? &*selection : nullptr, full));
  bool reached = false;
  config.command = apply_markers(config.command, markers.expression, &reached);
  context.workflow.log("markers: " + markers.expression + ": " + markers.why);
  if (!reached && markers.leaves_out)
    context.workflow.annotate({Severity::warning,
                               "the test command is not pytest and holds no {markers}: it runs the nightly tests, "
                               "which this pass would leave out (-m " + markers.expression + ")",
                               "gpu-gate: markers"});
  std::vector<std::string> legs;
  if (selection)
    for (const auto& leg : selection->legs)
      if (leg.device == selection::Device::gpu) legs.push_back("(" + leg.markers + ")");
  return join(legs, " or ");
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
