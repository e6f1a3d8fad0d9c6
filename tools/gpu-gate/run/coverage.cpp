// Reading coverage per test through coverage.py (see coverage.hpp).
#include "run/coverage.hpp"

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

namespace {

constexpr std::string_view kScript =
#include "coverage.py.inc"
    ;

constexpr std::size_t kMaxReportBytes = std::size_t{256} << 20;

Error bad_report(std::string_view what) {
  return could_not_evaluate("the coverage reader printed unexpected output: " + std::string(what));
}

}  // namespace

std::vector<std::string> coverage_arguments() { return {"--cov=.", "--cov-context=test", "--cov-report="}; }

std::filesystem::path coverage_data_file(const std::filesystem::path& scratch) { return scratch / ".coverage"; }

Result<std::map<std::string, std::vector<std::string>>> parse_coverage_report(std::string_view json) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(json, ec);
  if (ec) return bad_report("not JSON (" + ec.message() + ")");
  const auto* root = value.if_object();
  const auto* tests = root == nullptr ? nullptr : json_find(*root, "tests");
  if (tests == nullptr || !tests->is_object()) return bad_report("no `tests` object");
  std::map<std::string, std::vector<std::string>> result;
  for (const auto& entry : tests->get_object()) {
    if (!entry.value().is_array()) return bad_report("the files of a test are not a list");
    auto& files = result[std::string(entry.key())];
    for (const auto& file : entry.value().get_array()) {
      if (!file.is_string()) return bad_report("a file is not a string");
      files.emplace_back(file.get_string());
    }
  }
  return result;
}

Result<std::map<std::string, std::vector<std::string>>> read_coverage(ProcessRunner& processes,
                                                                      const std::string& python,
                                                                      const std::filesystem::path& data_file,
                                                                      const std::filesystem::path& root) {
  ProcessSpec spec;
  // Not -I: coverage may live in the user's site-packages or on PYTHONPATH, as for the test
  // command. The working folder (first on sys.path under -c) is the data file's own.
  spec.argv = {python, "-c", std::string(kScript)};
  spec.cwd = data_file.parent_path();
  spec.stdin_data = boost::json::serialize(
      boost::json::object{{"data_file", data_file.string()}, {"root", root.string()}});
  spec.capture_limit = kMaxReportBytes;
  auto ran = processes.run(spec);
  if (!ran) return could_not_evaluate("cannot read the coverage data: " + ran.error().message);
  if (!ran->succeeded()) {
    return could_not_evaluate("cannot read the coverage data: " + python + " " + ran->describe() + ": " +
                              visible_controls(trim(ran->err)));
  }
  if (ran->out_bytes > ran->out.size()) return bad_report("more than " + std::to_string(kMaxReportBytes) + " bytes");
  return parse_coverage_report(ran->out);
}

}  // namespace gatekit::gpu_gate
