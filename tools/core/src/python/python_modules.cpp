// The module index, the import graph and its closures: see gatekit/python_modules.hpp.
#include "gatekit/python_modules.hpp"

#include <algorithm>
#include <deque>
#include <set>
#include <utility>

#include "gatekit/git.hpp"

namespace gatekit::python {

namespace {

std::string folder_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::vector<std::string> package_folders(const std::vector<SourceFile>& files) {
  std::vector<std::string> packages;
  for (const auto& file : files) {
    const auto name = file.path.substr(file.path.rfind('/') == std::string::npos ? 0 : file.path.rfind('/') + 1);
    if (name == "__init__.py") packages.push_back(folder_of(file.path));
  }
  std::sort(packages.begin(), packages.end());
  return packages;
}

using Index = std::map<std::string, std::vector<std::string>>;

Index index_modules(const std::vector<SourceFile>& files, Naming naming) {
  const auto packages = naming == Naming::packages ? package_folders(files) : std::vector<std::string>{};
  Index index;
  for (const auto& file : files) {
    if (!file.path.ends_with(".py")) continue;
    for (auto& name : dotted_names(file.path, naming, packages)) index[name].push_back(file.path);
  }
  return index;
}

}  // namespace

std::vector<std::string> dotted_names(std::string_view path, Naming naming, const std::vector<std::string>& packages) {
  if (!path.ends_with(".py")) return {};
  std::string stem(path.substr(0, path.size() - 3));
  if (stem == "__init__") return {};
  if (stem.size() > 9 && stem.ends_with("/__init__")) stem.resize(stem.size() - 9);
  std::vector<std::string> names;
  for (std::size_t start = 0;;) {
    std::string name = stem.substr(start);
    std::replace(name.begin(), name.end(), '/', '.');
    names.push_back(std::move(name));
    const auto slash = stem.find('/', start);
    if (slash == std::string::npos) return names;
    // Dropping the folder stem[0, slash) makes the next name; under Naming::packages only
    // when that folder is not a package (Python reaches a package's module through it).
    if (naming == Naming::packages && std::binary_search(packages.begin(), packages.end(), stem.substr(0, slash)))
      return names;
    start = slash + 1;
  }
}

std::vector<std::string> loaded_names(const Import& import) {
  std::vector<std::string> names;
  for (std::string name = import.module; !name.empty();) {
    names.push_back(name);
    const auto dot = name.rfind('.');
    name = dot == std::string::npos ? "" : name.substr(0, dot);
  }
  if (import.kind == ImportKind::from || import.kind == ImportKind::relative) {
    for (const auto& n : import.names) names.push_back(import.module.empty() ? n : import.module + "." + n);
  }
  return names;
}

ImportGraph import_graph(const std::vector<SourceFile>& files, Naming naming) {
  const auto index = index_modules(files, naming);
  ImportGraph graph;
  for (const auto& file : files) {
    auto& edges = graph[file.path];
    std::set<std::string> seen{file.path};
    for (const auto& import : file.imports) {
      for (const auto& name : loaded_names(import)) {
        auto found = index.find(name);
        if (found == index.end()) continue;
        for (const auto& target : found->second)
          if (seen.insert(target).second) edges.push_back({target, import.line, import.where});
      }
    }
  }
  return graph;
}

std::map<std::string, Via> loaded_closure(const ImportGraph& graph, const std::vector<std::string>& roots) {
  std::map<std::string, Via> closure;
  std::deque<std::string> todo;
  for (const auto& root : roots)
    if (closure.emplace(root, Via{"", 0, root}).second) todo.push_back(root);
  while (!todo.empty()) {
    const std::string current = std::move(todo.front());
    todo.pop_front();
    auto edges = graph.find(current);
    if (edges == graph.end()) continue;
    const std::string root = closure.at(current).root;
    for (const auto& edge : edges->second)
      if (closure.emplace(edge.to, Via{current, edge.line, root}).second) todo.push_back(edge.to);
  }
  return closure;
}

std::map<std::string, Via> importer_closure(const ImportGraph& graph, const std::vector<std::string>& targets) {
  // The graph reversed: for each file, the files that load it.
  std::map<std::string, std::vector<std::pair<std::string, int>>> importers;
  for (const auto& [file, edges] : graph)
    for (const auto& edge : edges) importers[edge.to].emplace_back(file, edge.line);
  std::map<std::string, Via> closure;
  std::deque<std::string> todo;
  for (const auto& target : targets)
    if (closure.emplace(target, Via{"", 0, target}).second) todo.push_back(target);
  while (!todo.empty()) {
    const std::string current = std::move(todo.front());
    todo.pop_front();
    auto found = importers.find(current);
    if (found == importers.end()) continue;
    const std::string root = closure.at(current).root;
    for (const auto& [importer, line] : found->second)
      if (closure.emplace(importer, Via{current, line, root}).second) todo.push_back(importer);
  }
  return closure;
}

std::string describe_chain(const std::map<std::string, Via>& closure, const std::string& path) {
  std::vector<std::pair<std::string, int>> steps;  // path back to the root, each with the line loading it
  std::set<std::string> seen;
  for (std::string current = path; seen.insert(current).second;) {
    auto via = closure.find(current);
    if (via == closure.end() || via->second.from.empty()) {
      steps.emplace_back(current, 0);
      break;
    }
    steps.emplace_back(current, via->second.line);
    current = via->second.from;
  }
  std::reverse(steps.begin(), steps.end());
  std::string text = steps.front().first;
  for (std::size_t i = 1; i < steps.size(); ++i)
    text += (i == 1 ? " imports " : ", which imports ") + steps[i].first + " (line " + std::to_string(steps[i].second) + ")";
  return text;
}

Result<std::vector<std::string>> list_python_files(ProcessRunner& processes, const Files& files,
                                                   const std::filesystem::path& repo_dir) {
  Git git(processes, repo_dir);
  auto paths = git.list_files("*.py");
  if (!paths) return paths.error();
  std::erase_if(*paths, [&](const std::string& p) { return !files.exists(repo_dir / p); });
  return paths;
}

}  // namespace gatekit::python
