#pragma once
// Asking pytest which tests an expression selects: `pytest --collect-only -q` with the
// project's addopts switched off, --strict-markers, no cache and no colour. Arguments are argv
// elements, never shell text; the expression is the value of -m (checked not to start with
// '-'), and a path that starts with '-' is given as ./-path (pytest does not honour `--`).
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/clock.hpp"
#include "gatekit/process.hpp"
#include "gatekit/result.hpp"

namespace gatekit::suite_report {

struct CollectSpec {
  std::string python = "python3";
  std::string root = ".";
  std::vector<std::string> paths;  // what to collect; empty: pytest's testpaths
  std::chrono::seconds timeout{900};
};

struct Collection {
  std::vector<std::string> node_ids;  // in pytest's order
  std::chrono::milliseconds pytest_time{0};  // wall time of the pytest process, by the clock
};

// The argv (pure). An empty expression collects every test.
std::vector<std::string> collect_argv(const CollectSpec& spec, const std::string& expression);
ProcessSpec collect_process(const CollectSpec& spec, const std::string& expression);

// The node ids of `pytest --collect-only -q` output: the lines before the first blank line.
std::vector<std::string> parse_collect_output(std::string_view output);

// Runs the collection. pytest's exit 0 and 5 (nothing selected) are answers; 4 (it refused
// the command line, e.g. an unknown marker under --strict-markers) is a usage error; any
// other outcome could not be evaluated. Errors quote the end of pytest's output.
Result<Collection> collect(ProcessRunner& runner, Clock& clock, const CollectSpec& spec, const std::string& expression);

// "-m 'gpu or rocm'" or "(every test)", for messages.
std::string describe_expression(const std::string& expression);

}  // namespace gatekit::suite_report
