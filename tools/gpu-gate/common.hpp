#pragma once
// What every subcommand does first: the configuration, the machine id, the remote's name.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "gatekit/git.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

// `config` as given on the command line (relative to the working directory), else the
// default path inside repo_dir, which may be absent (defaults). `workers` not set there
// becomes default_workers (the CPUs, through the Environment seam). Throws a bad_input
// Failure with every configuration error.
Config load_gate_config(Context& context, const std::string& repo_dir, const std::string& config);

// The gate's configuration as `run` uses it, with the selection file read from the same
// commit, and where both come from.
struct GateConfig {
  Config config;
  std::optional<std::string> selection_text;  // the selection file (config.selection); nullopt: none
  std::string selection_origin;               // "refs/remotes/origin/main:.github/gatekit/suite.yml"
  std::string digest;                         // config_digest(config, selection_text)
  std::string from;                           // "origin/HEAD (3c787c61b44d)", "this checkout (...)"
  bool trusted = false;                       // read from the remote's default branch
  std::string base_rev;                       // then "refs/remotes/<remote>/HEAD", else ""
  // The commit the selection file (and the path gate's rules) were read from: base_rev, else
  // "HEAD"; and how messages name it ("origin/HEAD", "HEAD").
  std::string files_rev;
  std::string files_rev_name;
  // The path gate's rules at the default path (default_rules_path) of that commit, read in the
  // same git process (nullopt: none there); gpu_filter.hpp turns them into the GPU filter.
  std::optional<std::string> default_rules_text;
};

// Where the gate's scope comes from (docs/gpu-gate.md, "Where the configuration comes from"):
// the trusted base, the remote's default branch as this clone knows it
// (refs/remotes/<remote>/HEAD, named origin/HEAD in messages), never the tested tree, so a pull request that narrows the
// scope, the command or the selection in its own tree changes nothing until it merges. The
// configuration file and the selection file are read from that commit through git. When the
// clone has no such ref, or --config names a file, they are read from this checkout (HEAD),
// (announce_config warns: CI counts the result only if its digest matches the base branch's). A
// configuration that does not read, or names a selection file the commit lacks, is a
// bad_input Failure naming the file.
GateConfig read_gate_config(Context& context, const Git& git, const std::string& repo_dir, const std::string& config_option,
                            const std::string& remote);
// The log line saying where the configuration came from, and the warning when it is not the
// trusted base's.
void announce_config(Context& context, const GateConfig& config, const std::string& config_option,
                     const std::string& remote);

// The commit `rev` names and its files at `paths` (nullopt: no such path), in one `git
// cat-file --batch`. A path that is a folder, or a rev that is no commit here: bad_input.
struct CommitFiles {
  std::string commit;
  std::vector<std::optional<std::string>> files;
};
CommitFiles read_at(const Git& git, const std::string& rev, const std::vector<std::string>& paths);
// The same for several revisions in one process; a rev that is no commit here gets commit "".
std::vector<CommitFiles> read_at(const Git& git, const std::vector<std::string>& revs, const std::vector<std::string>& paths);

// The digest a result must carry to count (config_digest of `config`, with its selection file
// read from `rev`, the trusted base): for the readers, `status` and `ci-status`.
std::string trusted_config_digest(const Git& git, const std::string& rev, const Config& config);

// The selection file's nightly rule decides which tests a pass leaves out (markers.hpp): the
// expression is put into config.command and logged, with a warning when the command can take
// none. `text` is the file as read with the configuration (nullopt: none); an invalid one, or a
// nightly marker that differs from the configuration's: a bad_input Failure naming the file.
// Returns the expression of its GPU legs (`device: gpu`), which a GPU pass must show tests of
// (run/evidence.hpp): "(gpu or rocm)", one parenthesised expression per leg joined by `or`;
// "" when there is no selection file or no GPU leg (every test of the pass counts).
std::string use_selection(Context& context, const std::optional<std::string>& text, const std::string& origin, Config& config,
                   bool full);

// The option, else GATEKIT_GATE_MACHINE, else the host name made a valid id. A given id
// that is not valid is a bad_input Failure.
std::string resolve_machine(const Context& context, const std::string& option);

// A remote name gatekit passes to git: letters, digits, '.', '_', '-', not starting with '-'.
void check_remote(const std::string& remote);

// `git config` reads of one key: every value (empty when unset).
Result<std::vector<std::string>> config_values(const Git& git, const std::string& key);

// NUL-separated items (git's -z output); a trailing NUL ends the last item, it adds none.
std::vector<std::string> split_nul(std::string_view text);

}  // namespace gatekit::gpu_gate
