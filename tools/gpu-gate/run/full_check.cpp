// The full run's pure parts: the scope check, its message, the command of each pass.
#include <algorithm>
#include <cctype>
#include <set>

#include "run/coverage.hpp"
#include "run/full.hpp"
#include "run/run_pass.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

namespace {

bool ran(const PassCases& cases, const std::string& id) {
  auto it = cases.find(id);
  return it != cases.end() && it->second.ran;
}

bool plain_yaml(std::string_view text) {
  if (text.empty() || text.front() == '-' || text.front() == '.') return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '/' || c == '-';
  });
}

std::string shown(const std::vector<std::string>& tests) {
  constexpr std::size_t kShown = 3;
  std::vector<std::string> head(tests.begin(), tests.begin() + static_cast<std::ptrdiff_t>(std::min(kShown, tests.size())));
  std::string text = join(head, ", ");
  if (tests.size() > kShown) text += " and " + std::to_string(tests.size() - kShown) + " more";
  return text;
}

}  // namespace

std::string_view to_string(Device device) { return device == Device::gpu ? "gpu" : "cpu"; }
std::string_view display_name(Device device) { return device == Device::gpu ? "GPU" : "CPU"; }

std::vector<ScopeViolation> check_scope(const Scope& scope, const PassCases& gpu, const PassCases& cpu) {
  std::map<std::string, ScopeViolation> by_file;
  std::set<std::string> ids;
  for (const auto& [id, c] : gpu) ids.insert(id);
  for (const auto& [id, c] : cpu) ids.insert(id);
  for (const auto& id : ids) {
    const bool on_gpu = ran(gpu, id);
    const bool on_cpu = ran(cpu, id);
    if (on_gpu == on_cpu) continue;
    const auto& file = (gpu.count(id) != 0 ? gpu.at(id) : cpu.at(id)).file;
    if (file.empty() || scope.find(file) != nullptr) continue;
    auto& violation = by_file[file];
    violation.file = file;
    (on_gpu ? violation.gpu_only : violation.cpu_only).push_back(id);
  }
  std::vector<ScopeViolation> result;
  for (auto& [file, violation] : by_file) result.push_back(std::move(violation));
  return result;
}

std::string extras_line(std::string_view file) {
  if (plain_yaml(file)) return "- " + std::string(file);
  const std::string quoted = replace_all(std::string(file), "'", "''");
  return "- '" + visible_controls(quoted) + "'";
}

std::string describe(const ScopeViolation& violation, const std::string& config_file) {
  std::string text = violation.file + " is outside the scope, but ";
  if (!violation.gpu_only.empty()) {
    text += std::to_string(violation.gpu_only.size()) + " of its tests run on the GPU and not on the CPU (" +
            shown(violation.gpu_only) + ")";
  }
  if (!violation.cpu_only.empty()) {
    text += std::string(violation.gpu_only.empty() ? "" : ", and ") + std::to_string(violation.cpu_only.size()) +
            " run on the CPU and not on the GPU (" + shown(violation.cpu_only) + ")";
  }
  return text + "; add `" + extras_line(violation.file) + "` to scope.extras in " + config_file;
}

bool is_pytest_command(const std::vector<std::string>& argv) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const auto slash = argv[i].rfind('/');
    const std::string name = slash == std::string::npos ? argv[i] : argv[i].substr(slash + 1);
    if (name == "pytest" || name == "py.test") return true;
    if (argv[i] == "-m" && i + 1 < argv.size() && argv[i + 1] == "pytest") return true;
  }
  return false;
}

std::string display_command(const std::vector<std::string>& argv) {
  std::vector<std::string> shown_args;
  for (const auto& arg : argv) {
    const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("-_./=:,{}@+%").find(c) != std::string_view::npos;
    });
    const std::string quoted = replace_all(arg, "'", "'\\''");
    shown_args.push_back(plain ? arg : "'" + quoted + "'");
  }
  return join(shown_args, " ");
}

PassSpec full_pass(const Config& config, Device device, int workers) {
  PassSpec pass;
  pass.name = std::string(display_name(device));
  pass.workers = workers;
  pass.every_test = true;
  pass.env = {{"GATEKIT_DEVICE", std::string(to_string(device))}, {"GATEKIT_NIGHTLY", "1"}};
  pass.coverage = device == Device::gpu;
  pass.gpu_pass = device == Device::gpu;  // the full run's GPU pass must show GPU tests that ran
  pass.context = "gate-full";
  if (device == Device::gpu && is_pytest_command(config.command)) {
    pass.extra_args = coverage_arguments();
    pass.usage_hint = "pytest refused its arguments: the GPU pass adds pytest-cov's --cov options, is pytest-cov installed?";
  }
  return pass;
}

std::vector<std::string> full_command(const Config& config, int workers, const std::string& junit, Device device) {
  return pass_command(config, junit, full_pass(config, device, workers));
}

}  // namespace gatekit::gpu_gate
