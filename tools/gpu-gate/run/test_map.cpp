// The test map's JSON form: writer and strict reader (see test_map.hpp).
#include "run/test_map.hpp"

#include <algorithm>
#include <set>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

namespace {

Error bad_map(const std::string& origin, std::string_view field, std::string_view message) {
  return bad_input(origin + ": " + std::string(field) + ": " + std::string(message));
}

Status check_keys(const boost::json::object& root, const std::string& origin) {
  static const std::set<std::string_view> known{"format", "version", "created", "commit", "files", "tests"};
  for (const auto& entry : root) {
    if (known.count(entry.key()) == 0) {
      return bad_map(origin, visible_controls(entry.key()), "unknown key (expected format, version, created, commit, files, tests)");
    }
  }
  if (json_string_at(root, "format") != std::string(kTestMapFormat)) {
    return bad_map(origin, "format", "expected \"gatekit-test-map\"");
  }
  if (json_int_at(root, "version") != kTestMapVersion) {
    return bad_map(origin, "version", "expected " + std::to_string(kTestMapVersion) + " (written by another gatekit)");
  }
  return {};
}

Result<std::vector<std::string>> read_files(const boost::json::object& root, const std::string& origin) {
  const auto* files = json_find(root, "files");
  if (files == nullptr || !files->is_array()) return bad_map(origin, "files", "expected a list of paths");
  std::vector<std::string> result;
  for (std::size_t i = 0; i < files->get_array().size(); ++i) {
    const auto& item = files->get_array()[i];
    if (!item.is_string()) return bad_map(origin, "files[" + std::to_string(i) + "]", "expected a path");
    result.emplace_back(item.get_string());
  }
  if (!std::is_sorted(result.begin(), result.end()) || std::adjacent_find(result.begin(), result.end()) != result.end()) {
    return bad_map(origin, "files", "expected sorted, unique paths");
  }
  return result;
}

Result<std::vector<std::size_t>> read_indices(const boost::json::value& value, std::size_t file_count,
                                              const std::string& origin, const std::string& field) {
  if (!value.is_array()) return bad_map(origin, field, "expected a list of indices into files");
  std::vector<std::size_t> indices;
  for (const auto& item : value.get_array()) {
    const bool ok = (item.is_int64() && item.get_int64() >= 0 && static_cast<std::uint64_t>(item.get_int64()) < file_count) ||
                    (item.is_uint64() && item.get_uint64() < file_count);
    if (!ok) return bad_map(origin, field, "an index is not one of files (0.." + std::to_string(file_count) + ")");
    indices.push_back(item.is_int64() ? static_cast<std::size_t>(item.get_int64()) : item.get_uint64());
  }
  return indices;
}

}  // namespace

TestMap TestMap::from(std::int64_t created, std::string commit,
                      const std::map<std::string, std::vector<std::string>>& files_by_test) {
  TestMap map;
  map.created = created;
  map.commit = std::move(commit);
  std::set<std::string> all;
  for (const auto& [test, files] : files_by_test) all.insert(files.begin(), files.end());
  map.files.assign(all.begin(), all.end());
  for (const auto& [test, files] : files_by_test) {
    std::set<std::size_t> indices;
    for (const auto& file : files) {
      indices.insert(static_cast<std::size_t>(std::lower_bound(map.files.begin(), map.files.end(), file) - map.files.begin()));
    }
    map.tests[test].assign(indices.begin(), indices.end());
  }
  return map;
}

std::string format_test_map(const TestMap& map) {
  boost::json::object tests;
  for (const auto& [test, indices] : map.tests) tests[test] = boost::json::array(indices.begin(), indices.end());
  boost::json::object root{{"format", kTestMapFormat},
                           {"version", kTestMapVersion},
                           {"created", map.created},
                           {"commit", map.commit},
                           {"files", boost::json::array(map.files.begin(), map.files.end())},
                           {"tests", std::move(tests)}};
  return boost::json::serialize(root) + "\n";
}

Result<TestMap> parse_test_map(std::string_view json, const std::string& origin) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(json, ec);
  if (ec) return bad_input(origin + ": not JSON (" + ec.message() + ")");
  const auto* root = value.if_object();
  if (root == nullptr) return bad_input(origin + ": expected a JSON object");
  if (auto keys = check_keys(*root, origin); !keys) return keys.error();
  TestMap map;
  const auto created = json_int_at(*root, "created");
  if (!created || *created < 0) return bad_map(origin, "created", "expected seconds since the epoch");
  map.created = *created;
  const auto commit = json_string_at(*root, "commit");
  if (!commit) return bad_map(origin, "commit", "expected the tested commit");
  map.commit = *commit;
  auto files = read_files(*root, origin);
  if (!files) return files.error();
  map.files = std::move(*files);
  const auto* tests = json_find(*root, "tests");
  if (tests == nullptr || !tests->is_object()) return bad_map(origin, "tests", "expected an object of test ids");
  for (const auto& entry : tests->get_object()) {
    const std::string id(entry.key());
    auto indices = read_indices(entry.value(), map.files.size(), origin, "tests." + visible_controls(id));
    if (!indices) return indices.error();
    map.tests[id] = std::move(*indices);
  }
  return map;
}

Result<TestMap> read_test_map(const Files& files, const std::filesystem::path& path) {
  auto text = files.read(path, kMaxTestMapBytes);
  if (!text) return text.error();
  return parse_test_map(*text, path.string());
}

std::int64_t age_in_days(const TestMap& map, Clock::time_point now) {
  const auto seconds = epoch_seconds_of(now) - map.created;
  return seconds < 0 ? 0 : seconds / 86400;
}

bool is_stale(const TestMap& map, Clock::time_point now) {
  const auto seconds = epoch_seconds_of(now) - map.created;
  return seconds > std::chrono::duration_cast<std::chrono::seconds>(kTestMapMaxAge).count();
}

}  // namespace gatekit::gpu_gate
