#pragma once
// `suite-report gpu-filter`: every file the GPU legs read must be relevant to the path
// gate's GPU filter, or a pull request that changes it never runs the GPU jobs. The files:
// the test files each GPU leg selects (pytest's collection, as `partition` does it), the
// conftest.py and __init__.py files of their folders, and every repository module they
// import, transitively (the core's import analysis). Which filter a path is relevant to is
// path-classifier's answer (`--match-batch --rules`), so the rules are read by their owner.
// Pure here: node ids, closures and answers in, escapes out.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/python_modules.hpp"
#include "gatekit/result.hpp"

namespace gatekit::suite_report {

// The roots of the GPU legs' reading: each selected test file, and for each, the conftest.py
// and __init__.py of its folder and of every folder above it that `python_files` holds.
// Sorted, unique.
std::vector<std::string> gpu_roots(const std::vector<std::string>& test_files,
                                   const std::vector<std::string>& python_files);

// path-classifier --match-batch --rules output for `count` paths: whether `filter` is
// relevant to each. A filter the rules lack is bad_input naming the rules file and its
// filters; output of another shape is could_not_evaluate.
Result<std::vector<bool>> parse_filter_answers(std::string_view output, std::size_t count, const std::string& filter,
                                               const std::string& rules);

// The pattern that makes `path` relevant: its folder's glob (`src/pkg/util/**`) when the
// folder is at least two levels deep, else the path itself (`tests/test_a.py`, `setup.py`),
// so that no suggestion takes in a whole top-level folder.
std::string suggested_pattern(std::string_view path);

struct Escape {
  std::string file;       // read by a GPU leg, not relevant to the filter
  std::string test_file;  // the GPU leg's file whose imports reach it (itself for a root)
  std::string chain;      // "tests/gpu/test_a.py imports src/pkg/util.py (line 3)", or the file alone
  std::string importer;   // the file whose import loads it ("" for a root)
  int line = 0;           // that import's line
  std::string pattern;    // suggested_pattern(file)
};

struct GpuFilterResult {
  std::size_t checked = 0;     // files read by the GPU legs
  std::vector<Escape> escapes;  // sorted by file
  bool ok() const { return escapes.empty(); }
};

// `closure`: python::loaded_closure of the roots; `relevant`: the filter's answer per path of
// the closure (a path without an answer counts as relevant: nothing was asked about it).
GpuFilterResult decide_gpu_filter(const std::map<std::string, python::Via>& closure,
                                  const std::map<std::string, bool>& relevant);

}  // namespace gatekit::suite_report
