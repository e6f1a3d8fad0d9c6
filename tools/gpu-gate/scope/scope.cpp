// The scope decision (pure) and its explanation: see scope.hpp for the rules.
#include "scope/scope.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "gatekit/git.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/python_modules.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

namespace {

// The name after the last '/' (docs_rule.cpp, in the same unity unit, has a base_name of its own).
std::string last_component(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string folder_of(std::string_view configured) {
  std::string folder = glob::normalize_path(configured);
  while (!folder.empty() && folder.back() == '/') folder.pop_back();
  return folder == "." ? "" : folder;
}

bool under(std::string_view path, const std::string& folder) {
  if (folder.empty()) return true;
  return path.size() > folder.size() && path.substr(0, folder.size()) == folder && path[folder.size()] == '/';
}

std::map<std::string, Reach> direct_reaches(const Config& config, const std::vector<SourceFile>& files) {
  std::map<std::string, Reach> reaches;
  for (const auto& file : files) {
    for (const auto& import : file.imports) {
      auto module = std::find_if(config.modules.begin(), config.modules.end(),
                                 [&](const std::string& m) { return python::reaches(import, m); });
      if (module == config.modules.end()) continue;
      reaches.emplace(file.path, Reach{*module, import.line, import.where, ""});
      break;
    }
  }
  return reaches;
}

// The first import of `file` that loads a repository file already known to reach a module.
std::optional<Reach> reach_through(const std::vector<python::Edge>& edges, const std::map<std::string, Reach>& reaches) {
  for (const auto& edge : edges) {
    auto known = reaches.find(edge.to);
    if (known != reaches.end()) return Reach{known->second.module, edge.line, edge.where, edge.to};
  }
  return std::nullopt;
}

// Direct imports first, then through repository modules until nothing changes (cycles end).
std::map<std::string, Reach> all_reaches(const Config& config, const std::vector<SourceFile>& files,
                                         const python::ImportGraph& graph) {
  auto reaches = direct_reaches(config, files);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [path, edges] : graph) {
      if (reaches.count(path) != 0) continue;
      if (auto reach = reach_through(edges, reaches)) {
        reaches.emplace(path, std::move(*reach));
        changed = true;
      }
    }
  }
  return reaches;
}

std::optional<ScopeEntry> rule_for(const std::string& path, const Config& config,
                                   const std::map<std::string, Reach>& reaches, const glob::PatternList& extras) {
  if (auto folder = scope_folder_holding(path, config.scope_folders)) return ScopeEntry{path, ScopeRule::folder, folder_of(*folder)};
  if (auto reach = reaches.find(path); reach != reaches.end()) {
    return ScopeEntry{path, ScopeRule::import, reach->second.module};
  }
  const auto verdict = extras.evaluate(path);
  if (verdict.included) return ScopeEntry{path, ScopeRule::extra, config.extras[verdict.decisive]};
  return std::nullopt;
}

std::vector<std::string> unmatched(const glob::PatternList& extras, const std::vector<std::string>& tests) {
  std::vector<std::string> result;
  for (const auto& pattern : extras.patterns()) {
    if (pattern.negated()) continue;
    const bool any = std::any_of(tests.begin(), tests.end(), [&](const std::string& t) { return pattern.body_matches(t); });
    if (!any) result.push_back(pattern.text());
  }
  return result;
}

std::string place(const std::string& where) {
  if (where == "module" || where.empty()) return "";
  if (where == "child interpreter") return ", in code run by a child interpreter";
  if (where == "if" || where == "try" || where == "with" || where == "match") return ", under " + where;
  if (where == "loop") return ", inside a loop";
  return ", inside a " + where;
}

// "imports tests/helpers.py (line 2), which imports tinyml.gpu (line 5)"
std::string chain(const Scope& scope, const std::string& path) {
  std::string text;
  std::set<std::string> seen;
  for (std::string current = path; seen.insert(current).second;) {
    auto reach = scope.reaches.find(current);
    if (reach == scope.reaches.end()) break;
    const auto& r = reach->second;
    const std::string target = r.through.empty() ? r.module : r.through;
    text += (text.empty() ? "it imports " : ", which imports ") + target + " (line " + std::to_string(r.line) +
            place(r.where) + ")";
    if (r.through.empty()) break;
    current = r.through;
  }
  return text;
}

std::string listed(const std::vector<std::string>& items) {
  return items.empty() ? "none configured" : join(items, ", ");
}

}  // namespace

std::optional<std::string> scope_folder_holding(std::string_view path, const std::vector<std::string>& folders) {
  for (const auto& folder : folders)
    if (under(path, folder_of(folder))) return folder;
  return std::nullopt;
}

Result<glob::PatternList> compile_extras(const Config& config) {
  std::vector<glob::Pattern> patterns;
  for (const auto& text : config.extras) {
    auto compiled = glob::Pattern::compile(text, glob::Dialect::github);
    if (auto* error = std::get_if<glob::PatternError>(&compiled)) {
      const std::string file = config.source.empty() ? "the configuration" : config.source.string();
      return bad_input(file + ": scope.extras: " + quote_for_message(text) + ": " + error->message);
    }
    patterns.push_back(std::move(std::get<glob::Pattern>(compiled)));
  }
  return glob::PatternList(std::move(patterns), glob::Dialect::github);
}


std::string_view to_string(ScopeRule rule) {
  switch (rule) {
    case ScopeRule::folder: return "folder";
    case ScopeRule::import: return "import";
    case ScopeRule::extra: return "extra";
  }
  return "folder";
}

const ScopeEntry* Scope::find(std::string_view path) const {
  auto it = std::lower_bound(files.begin(), files.end(), path,
                             [](const ScopeEntry& e, std::string_view p) { return e.path < p; });
  return it != files.end() && it->path == path ? &*it : nullptr;
}

std::vector<std::string> Scope::paths() const {
  std::vector<std::string> result;
  for (const auto& entry : files) result.push_back(entry.path);
  return result;
}

bool is_test_file(std::string_view path) {
  const std::string name = last_component(path);
  if (!name.ends_with(".py")) return false;
  return (name.starts_with("test_") && name.size() > 8) || (name.ends_with("_test.py") && name.size() > 8);
}

Result<Scope> compute_scope(const Config& config, const std::vector<SourceFile>& python_files) {
  auto extras = compile_extras(config);
  if (!extras) return extras.error();
  Scope scope;
  scope.imports = python::import_graph(python_files);
  scope.reaches = all_reaches(config, python_files, scope.imports);
  std::vector<std::string> errors;
  for (const auto& file : python_files) {
    if (!file.error.empty()) {
      // A test file whose imports are unknown cannot be placed; a helper that does not parse
      // cannot be imported either, so it reaches nothing.
      if (is_test_file(file.path)) errors.push_back(file.error);
      else scope.notes.push_back(file.error + "; not followed");
      continue;
    }
    for (const auto& note : file.notes) {
      scope.notes.push_back(file.path + ":" + std::to_string(note.line) + ": " + note.message);
    }
    if (!is_test_file(file.path)) continue;
    scope.test_files.push_back(file.path);
    if (auto entry = rule_for(file.path, config, scope.reaches, *extras)) scope.files.push_back(std::move(*entry));
  }
  if (!errors.empty()) return bad_input(join(errors, "\n"));
  std::sort(scope.test_files.begin(), scope.test_files.end());
  std::sort(scope.files.begin(), scope.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  scope.unmatched_extras = unmatched(*extras, scope.test_files);
  return scope;
}

std::string explain(const Scope& scope, const Config& config, std::string_view raw_path) {
  const std::string path = glob::normalize_path(raw_path);
  if (const auto* entry = scope.find(path)) {
    switch (entry->rule) {
      case ScopeRule::folder: return path + " is in scope: it lies under the scope folder " + entry->reason + ".";
      case ScopeRule::import: return path + " is in scope: " + chain(scope, path) + ".";
      case ScopeRule::extra: return path + " is in scope: it matches the extras entry " + entry->reason + ".";
    }
  }
  if (std::binary_search(scope.test_files.begin(), scope.test_files.end(), path)) {
    return path + " is not in scope: it lies under no scope folder (" + listed(config.scope_folders) +
           "), imports none of the modules (" + listed(config.modules) + "), and matches no extras entry (" +
           listed(config.extras) + ").";
  }
  if (scope.reaches.count(path) != 0) {
    return path + " is not a test file (test_*.py or *_test.py), but " + chain(scope, path) +
           ": the test files that import it are in scope.";
  }
  return path + " is not a test file of the repository (test_*.py or *_test.py, tracked or not ignored by git).";
}

}  // namespace gatekit::gpu_gate
