#include "run_plan.hpp"

#include "gatekit/glob.hpp"

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

std::string replace_all(std::string text, std::string_view from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

}  // namespace

std::vector<std::string> expand_command(const std::vector<std::string>& command, int workers,
                                        const std::string& junit, const std::vector<std::string>& paths) {
  std::vector<std::string> argv;
  for (const auto& arg : command) {
    if (arg == "{paths}") {
      // File names are outside data: one starting with '-' must not read as an option.
      for (const auto& path : paths) argv.push_back(path.starts_with('-') ? "./" + path : path);
      continue;
    }
    argv.push_back(replace_all(replace_all(arg, "{workers}", std::to_string(workers)), "{junit}", junit));
  }
  return argv;
}

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

std::vector<std::string> stress_paths(const std::vector<std::string>& concurrency_patterns,
                                      const std::vector<std::string>& scope_paths) {
  const auto list = compile(concurrency_patterns);
  std::vector<std::string> paths;
  for (const auto& path : scope_paths)
    if (list.evaluate(path).included) paths.push_back(path);
  return paths.empty() ? scope_paths : paths;
}

Verdict verdict_of(const PassResult& gate, const std::vector<PassResult>& stress) {
  if (!gate.passed()) return Verdict::fail;
  for (const auto& pass : stress)
    if (!pass.passed()) return Verdict::fail;
  return Verdict::pass;
}

std::string stress_text(bool needed, const std::string& touched, const std::vector<PassResult>& stress, int repeats) {
  if (!needed) return "not needed (no concurrency change)";
  const std::string why = " (" + touched + ")";
  for (std::size_t i = 0; i < stress.size(); ++i)
    if (!stress[i].passed())
      return "failed on repeat " + std::to_string(i + 1) + " of " + std::to_string(repeats) + why;
  if (static_cast<int>(stress.size()) < repeats) return "not run: the gate pass failed" + why;
  return "passed " + std::to_string(repeats) + "x" + why;
}

}  // namespace gatekit::gpu_gate
