#pragma once
// git commands the core wrapper (gatekit/git.hpp) does not cover, run the same way: through
// the Git's process runner, `git -C <repo>`, no prompts, C locale. The contract of git.hpp
// holds here too: callers check revisions (check_revision) and other values
// (check_argument) and put `--end-of-options` before them.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/git.hpp"
#include "gatekit/process.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

struct GitCall {
  std::vector<std::string> args;
  std::optional<std::string> stdin_data;
  std::map<std::string, std::string> env;  // added to git's environment
  std::filesystem::path dir;                 // "" = the Git's repository
};

// The process's result, whatever its exit code.
Result<ProcessResult> git_exec(const Git& git, const GitCall& call);
// Success required; the Result holds stdout. The error quotes git's stderr.
Result<std::string> git_output(const Git& git, const GitCall& call);
Result<std::string> git_output(const Git& git, std::vector<std::string> args);

}  // namespace gatekit::gpu_gate
