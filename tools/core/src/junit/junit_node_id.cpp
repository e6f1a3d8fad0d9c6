// pytest node ids from JUnit classnames. pytest's junitxml writes a node id
// `dir/test_mod.py::TestA::TestB::test_x[p]` as classname `dir.test_mod.TestA.TestB` (with
// `--junit-prefix P`: `P.dir.test_mod.TestA.TestB`) and name `test_x[p]`, plus `file` and
// `line` attributes in the xunit1 family only: those name where the test function is defined,
// which for a method inherited from a mixin (tests/common.py) is not the test's module. The
// classname always names the test's module and classes; `file` only says where the module
// ends, and only when its module path starts the classname. Without it, the module is the
// last segment named like pytest's default python_files (test_*.py, *_test.py); failing that,
// classes are the segments from the first capitalised one on (python_classes = Test*).
#include <optional>
#include <vector>

#include "gatekit/junit_reader.hpp"
#include "junit_node_id.hpp"

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

// A segment pytest could have written: a path part or a class name. Anything else would let
// two classnames meet in one node id ("a/b.test_c" and "a.b.test_c").
bool plain_segment(std::string_view segment) {
  return !segment.empty() && segment.find_first_of("/:[") == std::string_view::npos;
}

// A test name pytest could have written: no "::" before its parameters.
bool plain_name(std::string_view name) {
  return !name.empty() && name.substr(0, name.find('[')).find("::") == std::string_view::npos;
}

std::string join(const std::vector<std::string_view>& parts, std::size_t from, std::size_t to, std::string_view sep) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += sep;
    out += parts[i];
  }
  return out;
}

// The classes after the module that `file` names (tests/a/test_b.py: module tests.a.test_b),
// or nullopt when the classname does not start with that module. A file that pytest could
// not have written (':' or '[' in it) is not used.
std::optional<std::vector<std::string_view>> classes_after_file(std::string_view classname, std::string_view file) {
  if (file.empty() || file.find_first_of(":[") != std::string_view::npos) return std::nullopt;
  std::string module(file.ends_with(".py") ? file.substr(0, file.size() - 3) : file);
  for (char& c : module)
    if (c == '/') c = '.';
  if (classname == module) return std::vector<std::string_view>{};
  if (classname.size() <= module.size() || !classname.starts_with(module) || classname[module.size()] != '.')
    return std::nullopt;
  return split_dots(classname.substr(module.size() + 1));
}

// How many leading segments are the module, from the names alone; 0 when it cannot be told.
std::size_t module_from_names(const std::vector<std::string_view>& parts) {
  for (std::size_t i = parts.size(); i-- > 0;)
    if (module_like(parts[i])) return i + 1;
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (class_like(parts[i])) return i;
  return 0;
}

}  // namespace

std::string pytest_node_id_head(std::string_view classname, std::string_view file, std::string_view prefix) {
  if (!prefix.empty() && classname.size() > prefix.size() && classname.starts_with(prefix) &&
      classname[prefix.size()] == '.')
    classname.remove_prefix(prefix.size() + 1);
  if (classname.empty()) return {};
  std::string id;
  std::vector<std::string_view> classes;
  if (auto after = classes_after_file(classname, file)) {
    id = file;  // as written: also a doctest's text file (tests/guide.txt)
    classes = std::move(*after);
  } else {
    const auto parts = split_dots(classname);
    const std::size_t module = module_from_names(parts);
    if (module == 0) return {};
    for (std::size_t i = 0; i < module; ++i)
      if (!plain_segment(parts[i])) return {};
    id = join(parts, 0, module, "/") + ".py";
    classes.assign(parts.begin() + static_cast<std::ptrdiff_t>(module), parts.end());
  }
  for (const auto& c : classes)
    if (!plain_segment(c)) return {};
  if (!classes.empty()) id += "::" + join(classes, 0, classes.size(), "::");
  return id;
}

bool pytest_plain_name(std::string_view name) { return plain_name(name); }

std::string pytest_node_id(std::string_view classname, std::string_view name, std::string_view file,
                           std::string_view prefix) {
  if (!plain_name(name)) return {};
  std::string id = pytest_node_id_head(classname, file, prefix);
  if (id.empty()) return {};
  return id + "::" + std::string(name);
}

}  // namespace gatekit::junit
