// Where the test map lives (test_map_place.hpp).
#include "run/test_map_place.hpp"

#include "gatekit/files.hpp"
#include "gatekit/repo_path.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {

TestMapPlace test_map_place_of(const Config& config, const std::filesystem::path& repo, const std::string& common_dir) {
  if (!config.test_map.empty()) return {repo / config.test_map, config.test_map, {}, true};
  const std::filesystem::path dir(common_dir);
  const auto relative = dir / "gatekit" / "test-map.json";
  return {dir.is_absolute() ? relative : repo / relative, relative.lexically_normal().generic_string(),
          repo / kOldTestMapPath, false};
}

TestMapPlace test_map_place(const Git& git, const Files& files, const Config& config, const std::filesystem::path& repo) {
  if (!config.test_map.empty()) {
    if (auto inside = check_inside_repository(files, repo, config.test_map); !inside)
      fail_bad_input((config.source.empty() ? std::string(default_config_path) : config.source.string()) + ": test_map: " +
                     inside.error().message);
    return test_map_place_of(config, repo, "");
  }
  const auto out = value_or_throw(git.run(GitCommand{"rev-parse", "--git-common-dir"}));
  const std::string dir = trim(out);
  if (dir.empty() || dir.find('\n') != std::string::npos)
    fail_could_not_evaluate("unexpected git rev-parse --git-common-dir output: " + quote_for_message(out));
  return test_map_place_of(config, repo, dir);
}

std::optional<std::filesystem::path> test_map_to_read(Context& context, const TestMapPlace& place) {
  if (context.files.exists(place.path)) return place.path;
  if (place.old.empty() || !context.files.exists(place.old)) return std::nullopt;
  context.workflow.log(std::string("test map: reading the old place ") + kOldTestMapPath + "; the next `gpu-gate run --full` writes " +
                       place.shown + " (then remove " + kOldTestMapPath + ")");
  return place.old;
}

}  // namespace gatekit::gpu_gate
