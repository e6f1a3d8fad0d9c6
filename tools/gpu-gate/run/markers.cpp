#include "run/markers.hpp"

#include <string_view>

#include "gatekit/text.hpp"
#include "run/full.hpp"

namespace gatekit::gpu_gate {
namespace {

std::string every_test(const std::string& marker) { return marker + " or not " + marker; }

bool is_pytest_program(const std::string& arg) {
  const auto slash = arg.rfind('/');
  const std::string name = slash == std::string::npos ? arg : arg.substr(slash + 1);
  return name == "pytest" || name == "py.test";
}

}  // namespace

Result<PassMarkers> pass_markers(const Config& config, const selection::Selection* selection, bool full) {
  const std::string context = full ? "gate-full" : "gate";
  if (selection == nullptr) {
    if (full) return PassMarkers{every_test(config.nightly_marker), false, "every test, nightly ones included (no selection file at " + config.selection + ")"};
    return PassMarkers{"not " + config.nightly_marker, true, "the nightly tests left out (no selection file at " + config.selection + ")"};
  }
  if (!config.nightly_marker_at.empty() && config.nightly_marker != selection->nightly_marker)
    return bad_input(config.nightly_marker_at + ": nightly_marker: '" + config.nightly_marker + "' differs from nightly-marker '" +
                     selection->nightly_marker + "' in " + selection->origin +
                     ", which gpu-gate reads too: remove nightly_marker (the selection file decides)");
  const std::string universe = selection::universe_expression(*selection, context);
  const std::string from = selection->origin + ", context " + context;
  if (universe.empty()) return PassMarkers{every_test(selection->nightly_marker), false, "every test, nightly ones included (" + from + ")"};
  return PassMarkers{universe, true, "the nightly tests left out (" + from + ")"};
}

std::vector<std::string> apply_markers(const std::vector<std::string>& command, const std::string& expression, bool* reached) {
  std::vector<std::string> argv;
  bool placeholder = false;
  for (const auto& arg : command) {
    placeholder = placeholder || arg.find("{markers}") != std::string::npos;
    argv.push_back(replace_all(arg, "{markers}", expression));
  }
  const bool pytest = is_pytest_command(command);
  if (!placeholder && pytest) argv.insert(argv.end(), {"-m", expression});
  if (reached != nullptr) *reached = placeholder || pytest;
  return argv;
}

std::size_t pytest_marker_option(const std::vector<std::string>& argv) {
  std::size_t i = 0;
  for (; i < argv.size(); ++i) {
    if (is_pytest_program(argv[i])) break;
    if (argv[i] == "-m" && i + 1 < argv.size() && argv[i + 1] == "pytest") {
      ++i;
      break;
    }
  }
  for (++i; i < argv.size(); ++i)
    if (argv[i].starts_with("-m")) return i;
  return std::string::npos;
}

}  // namespace gatekit::gpu_gate
