// The GPU filter check's pure parts: see gpu_filter.hpp.
#include <algorithm>
#include <set>
#include <sstream>

#include "gatekit/git.hpp"
#include "gatekit/text.hpp"
#include "gpu_filter.hpp"

namespace gatekit::suite_report {

std::vector<std::string> gpu_roots(const std::vector<std::string>& test_files,
                                   const std::vector<std::string>& python_files) {
  const std::set<std::string> known(python_files.begin(), python_files.end());
  std::set<std::string> roots(test_files.begin(), test_files.end());
  for (const auto& test : test_files) {
    for (auto slash = test.rfind('/');; slash = test.rfind('/', slash - 1)) {
      const std::string folder = slash == std::string::npos ? "" : test.substr(0, slash + 1);
      for (const char* name : {"conftest.py", "__init__.py"})
        if (known.count(folder + name) != 0) roots.insert(folder + name);
      if (slash == std::string::npos || slash == 0) break;
    }
  }
  return {roots.begin(), roots.end()};
}

Result<std::vector<bool>> parse_filter_answers(std::string_view output, std::size_t count, const std::string& filter,
                                               const std::string& rules) {
  std::vector<bool> answers;
  std::istringstream lines{std::string(output)};
  const std::string yes = filter + "=1";
  const std::string no = filter + "=0";
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> names;
    bool found = false;
    for (std::string word; words >> word;) {
      if (word == yes || word == no) {
        answers.push_back(word == yes);
        found = true;
        break;
      }
      const auto eq = word.find('=');
      if (eq == std::string::npos || eq == 0) {
        return could_not_evaluate("path-classifier --match-batch printed an unexpected answer: " +
                                  quote_for_message(line));
      }
      names.push_back(word.substr(0, eq));
    }
    if (!found) {
      return bad_input(rules + " has no filter '" + filter + "' (filters: " +
                       (names.empty() ? std::string("none") : join(names, ", ")) + "); --filter names the GPU filter");
    }
  }
  if (answers.size() != count) {
    return could_not_evaluate("path-classifier --match-batch answered " + std::to_string(answers.size()) +
                              " paths of " + std::to_string(count));
  }
  return answers;
}

std::string suggested_pattern(std::string_view path) {
  const auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return std::string(path);
  const std::string_view folder = path.substr(0, slash);
  if (folder.find('/') == std::string_view::npos) return std::string(path);
  return std::string(folder) + "/**";
}

GpuFilterResult decide_gpu_filter(const std::map<std::string, python::Via>& closure,
                                  const std::map<std::string, bool>& relevant) {
  GpuFilterResult result;
  result.checked = closure.size();
  for (const auto& [file, via] : closure) {  // map order: sorted by file
    auto answer = relevant.find(file);
    if (answer == relevant.end() || answer->second) continue;
    result.escapes.push_back(
        {file, via.root, python::describe_chain(closure, file), via.from, via.line, suggested_pattern(file)});
  }
  return result;
}

}  // namespace gatekit::suite_report
