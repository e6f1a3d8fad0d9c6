#pragma once
// What every subcommand does first: the configuration, the machine id, the remote's name.
#include <filesystem>
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

// The tested checkout's selection file (config.selection) decides which tests a pass leaves
// out (markers.hpp): the expression is put into config.command and logged, with a warning
// when the command can take none. A missing file at the default path is no selection file;
// one named in the configuration that cannot be read, an invalid one, or a nightly marker
// that differs from the configuration's: a bad_input Failure naming the file.
void use_selection(Context& context, const std::filesystem::path& checkout, Config& config, bool full);

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
