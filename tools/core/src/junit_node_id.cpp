// pytest node ids from JUnit classnames. pytest's junitxml writes a node id
// `dir/test_mod.py::TestA::TestB::test_x[p]` as classname `dir.test_mod.TestA.TestB` (with
// `--junit-prefix P`: `P.dir.test_mod.TestA.TestB`) and name `test_x[p]`, plus `file` and
// `line` attributes in the xunit1 family only. Without `file`, the module is the last
// segment named like pytest's default python_files (test_*.py, *_test.py); failing that,
// classes are the segments from the first capitalised one on (python_classes = Test*).
#include <vector>

#include "gatekit/junit_reader.hpp"

namespace gatekit::junit {

namespace {

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

bool module_like(std::string_view segment) {
  return segment.starts_with("test_") || (segment.size() > 5 && segment.ends_with("_test"));
}

bool class_like(std::string_view segment) { return !segment.empty() && segment[0] >= 'A' && segment[0] <= 'Z'; }

std::string join(const std::vector<std::string_view>& parts, std::size_t from, std::size_t to, std::string_view sep) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += sep;
    out += parts[i];
  }
  return out;
}

}  // namespace

std::string pytest_node_id(std::string_view classname, std::string_view name, std::string_view file,
                           std::string_view prefix) {
  if (name.empty()) return {};
  if (!prefix.empty() && classname.size() > prefix.size() && classname.starts_with(prefix) &&
      classname[prefix.size()] == '.')
    classname.remove_prefix(prefix.size() + 1);
  if (!file.empty()) {
    std::string module(file.ends_with(".py") ? file.substr(0, file.size() - 3) : file);
    for (char& c : module)
      if (c == '/') c = '.';
    std::string id(file);
    if (classname.size() > module.size() && classname.starts_with(module) && classname[module.size()] == '.') {
      auto classes = split_dots(classname.substr(module.size() + 1));
      id += "::" + join(classes, 0, classes.size(), "::");
    }
    return id + "::" + std::string(name);
  }
  if (classname.empty()) return {};
  const auto parts = split_dots(classname);
  std::size_t module = parts.size();
  for (std::size_t i = parts.size(); i-- > 0;) {
    if (module_like(parts[i])) {
      module = i;
      break;
    }
  }
  if (module == parts.size()) {
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (class_like(parts[i])) {
        module = i - 1;
        break;
      }
    }
  }
  if (module == parts.size()) return {};
  for (const auto& part : parts)
    if (part.empty()) return {};
  std::string id = join(parts, 0, module + 1, "/") + ".py";
  if (module + 1 < parts.size()) id += "::" + join(parts, module + 1, parts.size(), "::");
  return id + "::" + std::string(name);
}

}  // namespace gatekit::junit
