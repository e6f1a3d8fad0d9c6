#pragma once
// The smoke manifest (docs/smoke-manifest.md): loading and validation. The whole document is
// checked before anything runs and every problem is reported at once, with line and column.
#include <array>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit {
class Files;
}

namespace gatekit::smoke_runner {

using std::chrono::milliseconds;

inline constexpr milliseconds kDefaultTimeout{30 * 60 * 1000};
inline constexpr milliseconds kDefaultKillGrace{10 * 1000};

struct Smoke {
  std::string name;
  std::vector<std::string> command;  // argv; tokens are taken as text
  int min_gpus = 1;
  bool pr = false;
  milliseconds timeout = kDefaultTimeout;
  milliseconds kill_grace = kDefaultKillGrace;
  std::map<std::string, std::string> env;  // defaults.env overlaid by the entry's env
  std::string cwd;                         // empty: the runner's working directory
  int line = 0;                            // where the entry starts
};

struct Manifest {
  std::string path;
  std::vector<Smoke> smokes;
};

// Both return a usage_error listing every problem, "file:line:col: field: message" per line.
gatekit::Result<Manifest> load_manifest_text(const std::string& text, const std::string& path);
// The file is read through `files`; one that cannot be read is a usage error too.
gatekit::Result<Manifest> load_manifest_file(const Files& files, const std::string& path);

// "30s", "5m", "1h30m", "1.5s", "250ms"; nullopt when not of that form or not > 0.
std::optional<milliseconds> parse_duration_text(std::string_view text);

// Names are used in logs, report files and mermaid charts.
bool valid_smoke_name(std::string_view name);

}  // namespace gatekit::smoke_runner
