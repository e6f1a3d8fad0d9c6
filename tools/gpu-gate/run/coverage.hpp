#pragma once
// Coverage per test for the test map: the GPU pass of `run --full` runs pytest with
// pytest-cov (`--cov=. --cov-context=test`, COVERAGE_FILE in a temporary folder); this reads
// the data file back through coverage.py's own API (a script shipped in the tool, run by the
// project's Python), never by reading its SQLite file here.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/process.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

// The pytest-cov arguments the GPU pass appends to a pytest command.
std::vector<std::string> coverage_arguments();

// Where a pass with coverage leaves coverage's data file (COVERAGE_FILE): in the run's
// scratch folder, beside the JUnit reports, never in the tested checkout.
std::filesystem::path coverage_data_file(const std::filesystem::path& scratch);

// node id -> files it executed (relative to `root`), from coverage's data file.
Result<std::map<std::string, std::vector<std::string>>> read_coverage(ProcessRunner& processes,
                                                                      const std::string& python,
                                                                      const std::filesystem::path& data_file,
                                                                      const std::filesystem::path& root);
// Decodes the script's output (exposed for tests).
Result<std::map<std::string, std::vector<std::string>>> parse_coverage_report(std::string_view json);

}  // namespace gatekit::gpu_gate
