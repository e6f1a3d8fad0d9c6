#include "run/run_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "common.hpp"
#include "gatekit/glob.hpp"
#include "run/full.hpp"

namespace gatekit::gpu_gate {
namespace {

glob::PatternList compile(const std::vector<std::string>& patterns) {
  std::vector<glob::Pattern> compiled;
  for (const auto& text : patterns) {
    auto p = glob::Pattern::compile(text, glob::Dialect::github);
    if (auto* pattern = std::get_if<glob::Pattern>(&p)) compiled.push_back(std::move(*pattern));
  }
  return glob::PatternList(std::move(compiled), glob::Dialect::github);
}

}  // namespace

bool touches(const std::vector<std::string>& patterns, const std::vector<FileChange>& changes, std::string* touched) {
  const auto list = compile(patterns);
  for (const auto& change : changes)
    for (const auto* path : {&change.path, &change.previous_path})
      if (!path->empty() && list.evaluate(*path).included) {
        if (touched != nullptr) *touched = *path;
        return true;
      }
  return false;
}

std::vector<std::string> touched_paths(const std::vector<std::string>& patterns, const std::vector<FileChange>& changes) {
  const auto list = compile(patterns);
  std::set<std::string> touched;
  for (const auto& change : changes)
    for (const auto* path : {&change.path, &change.previous_path})
      if (!path->empty() && list.evaluate(*path).included) touched.insert(*path);
  return {touched.begin(), touched.end()};
}

StressTargets stress_targets(const std::vector<std::string>& touched, const python::ImportGraph& imports,
                             const std::vector<std::string>& test_files, const TestMap* map,
                             const std::vector<std::string>& scope_paths) {
  std::map<std::string, std::string> found;  // test file -> reason
  const auto importers = python::importer_closure(imports, touched);
  for (const auto& [path, via] : importers) {
    if (!std::binary_search(test_files.begin(), test_files.end(), path)) continue;
    if (via.from.empty()) found.emplace(path, "changed");
    else if (via.from == via.root) found.emplace(path, "imports " + via.root);
    else found.emplace(path, "imports " + via.root + " through " + via.from);
  }
  if (map != nullptr) {
    for (const auto& [id, indices] : map->tests) {
      const std::string file = id.substr(0, id.find("::"));
      if (found.count(file) != 0 || !std::binary_search(test_files.begin(), test_files.end(), file)) continue;
      for (auto i : indices)
        if (std::binary_search(touched.begin(), touched.end(), map->files[i])) {
          found.emplace(file, "executed " + map->files[i] + " (test map)");
          break;
        }
    }
  }
  StressTargets targets{touched, {}, {}, found.empty()};
  if (found.empty()) {
    targets.tests = scope_paths;
    targets.reasons.assign(scope_paths.size(), "in the gate's scope");
    return targets;
  }
  for (auto& [path, reason] : found) {
    targets.tests.push_back(path);
    targets.reasons.push_back(std::move(reason));
  }
  return targets;
}

RunPlan plan_run(const RunOptions& options, const Config& config) {
  RunPlan plan;
  plan.full = options.full;
  plan.workers = options.workers > 0 ? options.workers : config.workers;
  if (plan.full) {
    plan.passes = {full_pass(config, Device::gpu, plan.workers), full_pass(config, Device::cpu, plan.workers)};
    plan.scope_check = true;
    plan.test_map = true;
    return plan;
  }
  PassSpec gate;  // on the scope's test files, once the scope is known
  gate.name = "gate";
  gate.workers = plan.workers;
  gate.env = {{"GATEKIT_DEVICE", "gpu"}};
  gate.gpu_pass = true;
  plan.passes = {gate};
  plan.stress = true;
  plan.needs_scope = true;
  plan.publish = options.publish;
  return plan;
}

Verdict verdict_of(const PassResult& gate, const std::vector<PassResult>& stress) {
  if (!gate.passed()) return Verdict::fail;
  for (const auto& pass : stress)
    if (!pass.passed()) return Verdict::fail;
  return Verdict::pass;
}

namespace {

// "tests/test_q.py", "2 test files: tests/a.py, tests/b.py", "9 test files: tests/a.py, +8 more",
// "the gate's 12 test files, none loads it".
std::string what_was_stressed(const StressTargets& targets, std::size_t budget) {
  const auto n = targets.tests.size();
  if (targets.fallback) return "the gate's " + std::to_string(n) + " test files, none loads it";
  if (n == 1) return targets.tests.front();
  std::string text = std::to_string(n) + " test files: ";
  for (std::size_t i = 0; i < n; ++i) {
    const std::string more = ", +" + std::to_string(n - i) + " more";
    const std::string& item = targets.tests[i];
    const bool last = i + 1 == n;
    // Room for this one, and then (unless it is the last) for the "+N more" that may follow.
    if (text.size() + item.size() + (last ? 0 : more.size() + 2) > budget) {
      text += i == 0 ? "+" + std::to_string(n) + " more" : more;
      return text;
    }
    text += (i == 0 ? "" : ", ") + item;
  }
  return text;
}

}  // namespace

std::string stress_text(bool needed, const std::string& touched, const StressTargets& targets,
                        const std::vector<PassResult>& stress, int repeats) {
  if (!needed) return "not needed (no concurrency change)";
  const std::string why = " (" + touched + ")";
  // The value is cut at kMaxFactBytes; the list of files gives way so that the rest fits.
  constexpr std::size_t kRoom = kMaxFactBytes - 40;
  const std::size_t budget = why.size() < kRoom / 2 ? kRoom - why.size() : kRoom / 2;
  const std::string on = " on " + what_was_stressed(targets, budget);
  for (std::size_t i = 0; i < stress.size(); ++i)
    if (!stress[i].passed())
      return "failed on repeat " + std::to_string(i + 1) + " of " + std::to_string(repeats) + on + why;
  if (static_cast<int>(stress.size()) < repeats) return "not run: the gate pass failed" + why;
  return "passed " + std::to_string(repeats) + "x" + on + why;
}

}  // namespace gatekit::gpu_gate
