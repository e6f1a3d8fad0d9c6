// What a test pass proves (evidence.hpp): the plugin, its environment, and the decisions.
#include "run/evidence.hpp"

#include <algorithm>
#include <set>

#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/git.hpp"
#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::string_view kPlugin =
#include "evidence.py.inc"
    ;
constexpr std::string_view kPluginModule = "_gatekit_gate_evidence";

Error bad_line(std::string_view origin, int number, std::string_view what) {
  return could_not_evaluate(std::string(origin) + ":" + std::to_string(number) +
                            ": not what gpu-gate's pytest plugin writes: " + std::string(what));
}

std::string top_level(std::string_view module) { return std::string(module.substr(0, module.find('.'))); }

}  // namespace

Result<Evidence> parse_evidence(std::string_view lines, std::string_view origin) {
  Evidence evidence;
  int number = 0;
  for (const auto& line : split_lines(lines)) {
    ++number;
    if (line.empty()) continue;
    boost::system::error_code ec;
    const auto value = boost::json::parse(line, ec);
    const auto* object = ec ? nullptr : value.if_object();
    if (object == nullptr) return bad_line(origin, number, "not a JSON object");
    if (json_int_at(*object, "version") != 1) return bad_line(origin, number, "no version 1");
    const auto* tests = json_find(*object, "tests");
    const auto* modules = json_find(*object, "modules");
    const auto error = json_string_at(*object, "error");
    if (tests == nullptr || !tests->is_object() || modules == nullptr || !modules->is_array() || !error)
      return bad_line(origin, number, "no tests, modules or error");
    ++evidence.processes;
    if (!error->empty()) evidence.errors.push_back(*error);
    for (const auto& [id, entry] : tests->get_object()) {
      const auto* fields = entry.if_array();
      if (fields == nullptr || fields->size() != 3 || !(*fields)[0].is_bool() || !(*fields)[1].is_string() ||
          !(*fields)[2].is_string())
        return bad_line(origin, number, "a test that is not [gpu, outcome, skip reason]");
      auto& test = evidence.tests[std::string(id)];
      test.gpu = test.gpu || (*fields)[0].get_bool();
      test.outcome = std::string((*fields)[1].get_string());
      test.skip_reason = std::string((*fields)[2].get_string());
    }
    for (const auto& entry : modules->get_array()) {
      const auto* pair = entry.if_array();
      if (pair == nullptr || pair->size() != 2 || !(*pair)[0].is_string() || !(*pair)[1].is_string())
        return bad_line(origin, number, "a module that is not [name, file]");
      evidence.modules.emplace(std::string((*pair)[0].get_string()), std::string((*pair)[1].get_string()));
    }
  }
  return evidence;
}

std::vector<std::string> repository_packages(const std::vector<std::string>& files) {
  const std::set<std::string> present(files.begin(), files.end());
  const bool src_is_a_root = present.count("src/__init__.py") == 0;  // else src is a package of the root
  std::set<std::string> names;
  for (const auto& file : files) {
    std::string_view rest = file;
    if (src_is_a_root && rest.starts_with("src/")) rest.remove_prefix(4);
    const auto slash = rest.find('/');
    if (slash == std::string_view::npos) {
      if (rest.ends_with(".py") && rest != "setup.py" && rest != "conftest.py" && rest != "__init__.py")
        names.insert(std::string(rest.substr(0, rest.size() - 3)));
      continue;
    }
    // A package at the root: its folder holds an __init__.py, and the folder above it (the root
    // or src/) is no package.
    const std::string folder(file.substr(0, file.size() - rest.size() + slash));
    if (present.count(folder + "/__init__.py") > 0) names.insert(std::string(rest.substr(0, slash)));
  }
  return {names.begin(), names.end()};
}

std::string foreign_import(const Evidence& evidence, const std::filesystem::path& worktree) {
  const std::string root = worktree.lexically_normal().string();
  const std::string prefix = root.ends_with('/') ? root : root + "/";
  for (const auto& [module, file] : evidence.modules) {
    if (file.starts_with(prefix)) continue;
    return top_level(module) + " was imported from " + quote_for_message(file, 200) + " (module " + module +
           "), not from the tested tree";
  }
  return "";
}

GpuEvidence gpu_evidence(const Evidence& evidence, std::string_view legs, const std::string& context) {
  RanFacts facts;
  facts.noun = "GPU tests";
  facts.selector = "the gate pass";
  facts.empty_is_evidence = false;
  std::vector<std::string> reasons;
  for (const auto& [id, test] : evidence.tests) {
    if (!test.gpu) continue;
    ++facts.cases;
    if (test.outcome != "skipped") ++facts.ran;
    else reasons.push_back(test.skip_reason);
  }
  GpuEvidence out{decide_ran(facts, context), group_skip_reasons(reasons, 5)};
  if (!legs.empty()) out.verdict.headline += " (the GPU legs' tests: -m " + std::string(legs) + ")";
  return out;
}

Result<EvidencePlan> plan_evidence(Files& files, const std::filesystem::path& scratch, std::string_view pass,
                                   const std::vector<std::string>& packages, const std::string& gpu_markers,
                                   const Environment& existing) {
  const auto folder = scratch / "evidence-plugin";
  if (auto made = files.make_directories(folder); !made) return made.error();
  if (auto written = files.replace(folder / (std::string(kPluginModule) + ".py"), kPlugin); !written) return written.error();
  EvidencePlan plan;
  std::string name(pass);
  for (char& c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '-';
  plan.file = scratch / ("evidence-" + name + ".jsonl");
  if (auto removed = files.remove(plan.file); !removed) return removed.error();
  const auto path = existing.get_nonempty("PYTHONPATH");
  const auto plugins = existing.get_nonempty("PYTEST_PLUGINS");
  plan.env = {{"PYTHONPATH", folder.string() + (path ? ":" + *path : "")},
              {"PYTEST_PLUGINS", std::string(kPluginModule) + (plugins ? "," + *plugins : "")},
              {"GATEKIT_GATE_EVIDENCE", plan.file.string()},
              {"GATEKIT_GATE_PACKAGES", join(packages, ",")},
              {"GATEKIT_GATE_GPU_MARKERS", gpu_markers}};
  return plan;
}

}  // namespace gatekit::gpu_gate
