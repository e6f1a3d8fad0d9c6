#pragma once
// Where the test map lives. It is this machine's state, not the project's: by default it is
// kept under the git directory, <git-common-dir>/gatekit/test-map.json (shared by the
// repository's worktrees, never part of a working tree), so writing it cannot make the tree
// dirty for the next `run`. A `test_map` path in the configuration puts it in the checkout
// instead (then the project ignores or commits it). The old default, .gatekit/test-map.json in
// the checkout, is read while the new file does not exist yet (migration).
#include <filesystem>
#include <optional>
#include <string>

#include "config.hpp"
#include "gatekit/context.hpp"
#include "gatekit/files.hpp"
#include "gatekit/git.hpp"

namespace gatekit::gpu_gate {

inline constexpr const char* kOldTestMapPath = ".gatekit/test-map.json";

struct TestMapPlace {
  std::filesystem::path path;    // where run --full writes it and readers look first
  std::string shown;             // for messages: ".git/gatekit/test-map.json", or the configured path
  std::filesystem::path old;     // the old default in the checkout, read while `path` is absent ("" = none)
  bool in_checkout = false;      // the configured path: in the working tree
};

// Pure. `common_dir`: `git rev-parse --git-common-dir`'s line (relative to `repo`, or absolute).
TestMapPlace test_map_place_of(const Config& config, const std::filesystem::path& repo, const std::string& common_dir);

// The place for the repository at `repo`, asking git for its common directory. A configured
// `test_map` must stay inside the repository (gatekit/repo_path.hpp: checked when the
// configuration is read, and here that it passes through no symbolic link of the checkout,
// which a write would follow): else a bad_input Failure naming the configuration's entry.
TestMapPlace test_map_place(const Git& git, const Files& files, const Config& config, const std::filesystem::path& repo);

// The file to read: `path` when it exists; else the old default when it exists (logged: the
// next `run --full` writes the new place); else none.
std::optional<std::filesystem::path> test_map_to_read(Context& context, const TestMapPlace& place);

}  // namespace gatekit::gpu_gate
