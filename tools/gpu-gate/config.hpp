#pragma once
// The GPU gate's configuration: one YAML file in the repository (default
// `.github/gatekit/gpu-gate.yml`), strict keys, every error located (file:line:col, field).
// Schema documented in docs/gpu-gate.md. Loaded by config.cpp; nothing here includes YAML.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

inline constexpr const char* default_config_path = ".github/gatekit/gpu-gate.yml";
inline constexpr const char* default_selection_path = ".github/gatekit/suite.yml";
inline constexpr const char* default_rules_path = ".github/gatekit/filters.yml";

// Where the gate finds the path gate's GPU filter (docs/gpu-gate.md, "What needs a GPU
// result"): the rules file the path gate reads and the filter whose relevance runs the GPU
// suites. A change none of whose paths needs a GPU result by that filter (and the gate's own
// safeties) needs no run. Read from the trusted base like the rest of the configuration.
struct GpuFilterSetting {
  bool enabled = true;                     // `gpu_filter: false`: every change outside the docs needs a result
  std::string rules = default_rules_path;  // the rules file, a path in the repository
  std::string filter = "gpu";              // the filter's name in it
  // The path gate's `dialect` and `predicate-quantifier` inputs, when its step sets them: they
  // override the rules' own keys there, so they must here too ("" = the rules' own).
  std::string dialect;
  std::string quantifier;
  // "file:line:col" where gpu_filter is set; "" = the default, where a rules file the base
  // lacks means no filter (named, it is an error).
  std::string at;
};

struct Config {
  // The test command, as argv (never a shell string), in test_run.hpp's template language:
  // {workers} -> worker count, {tests} -> the selected test paths (several argv entries),
  // {junit} -> the JUnit report path the gate reads, {markers} -> the pass's -m expression
  // (markers.hpp; without {markers} a pytest command gets `-m EXPR` appended). Default:
  // python -m pytest -n {workers} --junitxml={junit} {tests}. Held in the current spelling.
  std::vector<std::string> command;
  std::vector<std::string> old_spellings;  // the command's old placeholder spellings ({paths})
  // Test workers; 0 when the file does not set them: load_gate_config (common.hpp) then puts in
  // default_workers, the machine's CPUs.
  int workers = 0;
  std::vector<std::string> scope_folders;  // tests under these folders are device-dependent
  std::vector<std::string> modules;        // importing one of these makes a test file device-dependent
  std::vector<std::string> extras;         // further test files (globs) in scope
  std::string nightly_marker = "nightly";  // pytest marker of the nightly tests, without a selection file
  std::string nightly_marker_at;           // "file:line:col" where nightly_marker is set ("" = default)
  // The selection file (gatekit/selection.hpp), in the tested tree: its nightly rule in
  // contexts gate / gate-full decides what run / run --full leave out. Missing at the default
  // path: no selection file; missing when named here: an error.
  std::string selection = default_selection_path;
  std::string selection_at;  // "file:line:col" where `selection` is set ("" = the default)
  std::string namespace_ = "gatekit-gate"; // refs/<namespace>/<tree>/<machine>
  std::chrono::hours expiry{24 * 28};      // results older than this are ignored (and pruned)
  // How far a result's time may lie ahead of the reader's clock, and how far its record
  // commit's committer date may differ from its time, before the result is ignored.
  std::chrono::minutes clock_skew{5};
  // A CPU machine may gate: results recorded without a GPU are published and count (the
  // status description says so). Off: such results stay local (refs/<ns>-nogpu/) and never count.
  bool cpu_gate = false;
  // Docs-only deltas inherit a result: the path classifier's `docs` category (core default
  // patterns unless given here).
  std::vector<std::string> docs_patterns;
  GpuFilterSetting gpu_filter;
  std::vector<std::string> concurrency_patterns;  // a change touching these runs the stress pass
  int stress_repeats = 3;
  bool sign = false;  // sign result commits with git's SSH signing (user.signingkey)
  std::string allowed_signers;  // path in the repository of the allowed-signers file ("" = none)
  std::string revoked_keys;     // path in the repository of revoked keys (a KRL or public keys; "" = none)
  // Branches besides the default branch whose own configuration and allowed signers CI trusts
  // for a pull request or merge queue into them (docs/gpu-gate.md, "Trust model"). Read from
  // the DEFAULT branch's configuration only; a base branch's own list means nothing.
  std::vector<std::string> trusted_bases;
  // The test map, written by run --full, read by affected and the stress pass: "" (the default)
  // keeps it as this machine's state under the git directory (test_map_place.hpp); a path
  // puts it there in the checkout.
  std::string test_map;
  std::filesystem::path source;  // the file it was read from ("" = defaults)
};

// The workers of a run whose options and configuration name none: the CPUs this process may
// run on (Environment::cpu_count, as `nproc` counts them), 1..1024. More workers than CPUs
// only queue for them (8 workers on 2 CPUs ran a suite in 16.9 s, 2 in 6.2 s).
int default_workers(const Environment& env);

// The digest of what decides which tests the gate runs, and how: the command, the scope
// (folders, modules, extras), the nightly marker, the selection file's path and text
// (`selection_text`: the file as read with the configuration; nullopt: none), the concurrency
// patterns and stress_repeats. Not the workers, the namespace, the expiry or the signing
// settings, which decide nothing about what runs. "sha256:<64 hex digits>". A run records it
// (record.hpp, `config`); a reader counts a result only when it equals the digest of the
// trusted base's configuration, so a pull request that narrows the gate in its own tree gains
// nothing (docs/gpu-gate.md, "Where the configuration comes from"). Pure.
std::string config_digest(const Config& config, const std::optional<std::string>& selection_text);

// The defaults (no file): the command above, core docs and concurrency patterns.
Config default_config();

// Reads and validates the file (all errors together, kind bad_input); a missing file at the
// default path gives the defaults, a missing file named explicitly is an error.
Result<Config> load_config(Files& files, const std::filesystem::path& path, bool explicit_path);
Result<Config> parse_config(std::string_view yaml_text, const std::string& file_name);

}  // namespace gatekit::gpu_gate
