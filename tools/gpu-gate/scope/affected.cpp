// The affected-tests decision (pure): see affected.hpp.
#include "scope/affected.hpp"

#include <algorithm>
#include <set>

#include "scope/scope.hpp"

namespace gatekit::gpu_gate {

namespace {

// file index -> the tests that executed it
std::vector<std::vector<const std::string*>> tests_by_file(const TestMap& map) {
  std::vector<std::vector<const std::string*>> result(map.files.size());
  for (const auto& [test, indices] : map.tests) {
    for (auto i : indices) result[i].push_back(&test);
  }
  return result;
}

std::vector<std::string> changed_paths(const std::vector<FileChange>& changes) {
  std::set<std::string> paths;
  for (const auto& change : changes) {
    paths.insert(change.path);
    if (!change.previous_path.empty()) paths.insert(change.previous_path);
  }
  return {paths.begin(), paths.end()};
}

// Paths gone after the change: deleted, or the source of a rename (a later change may bring
// a path back; then it is not gone).
std::set<std::string> gone_paths(const std::vector<FileChange>& changes) {
  std::set<std::string> gone;
  for (const auto& change : changes) {
    if (change.status == 'D') gone.insert(change.path);
    if (change.status == 'R') gone.insert(change.previous_path);
  }
  for (const auto& change : changes) {
    if (change.status != 'D') gone.erase(change.path);
  }
  return gone;
}

// The map's tests in one test file ("tests/test_a.py::..."); their ids are sorted keys.
std::vector<std::string> tests_in_file(const TestMap& map, const std::string& path) {
  std::vector<std::string> tests;
  const std::string prefix = path + "::";
  for (auto it = map.tests.lower_bound(prefix); it != map.tests.end() && it->first.starts_with(prefix); ++it) {
    tests.push_back(it->first);
  }
  return tests;
}

}  // namespace

Affected decide_affected(const TestMap& map, const std::vector<FileChange>& changes, const DocsRule& docs) {
  const auto by_file = tests_by_file(map);
  const auto gone = gone_paths(changes);
  Affected affected;
  std::set<std::string> tests;
  for (const auto& path : changed_paths(changes)) {
    ++affected.changed;
    if (docs.is_docs(path)) {
      affected.docs.push_back(path);
      continue;
    }
    const auto known = std::lower_bound(map.files.begin(), map.files.end(), path);
    const bool in_map = known != map.files.end() && *known == path;
    if (in_map) {
      for (const auto* test : by_file[static_cast<std::size_t>(known - map.files.begin())]) tests.insert(*test);
    }
    if (is_test_file(path)) {
      if (gone.count(path) != 0) continue;  // its tests no longer exist
      auto own = tests_in_file(map, path);
      if (own.empty()) own.push_back(path);
      tests.insert(own.begin(), own.end());
    } else if (!in_map) {
      affected.unknown.push_back(path);
    }
  }
  for (const auto& path : gone) {  // tests of a file that is gone no longer exist
    std::erase_if(tests, [&](const std::string& id) { return id.starts_with(path + "::"); });
  }
  affected.all = !affected.unknown.empty();
  affected.tests.assign(tests.begin(), tests.end());
  return affected;
}

}  // namespace gatekit::gpu_gate
