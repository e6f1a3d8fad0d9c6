#include "shard_record.hpp"

#include "gatekit/json.hpp"

namespace gatekit::suite_report {

namespace json = boost::json;

namespace {

constexpr std::string_view kFormat = "gatekit-shard-plan";
constexpr std::int64_t kMaxShards = 256;

bool is_digest(std::string_view text) {
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// The reading of one record: the first problem, named by its field.
class RecordReader {
 public:
  explicit RecordReader(const std::string& origin) : origin_(origin) {}

  std::int64_t count(const json::object& object, std::string_view key, const std::string& field,
                     std::int64_t max = std::int64_t{1} << 50) {
    const auto value = json_int_at(object, key);
    if (!value || *value < 0 || *value > max) fail(field, "is not a whole number from 0 to " + std::to_string(max));
    return value.value_or(0);
  }
  std::string text(const json::object& object, std::string_view key, const std::string& field) {
    auto value = json_string_at(object, key);
    if (!value) fail(field, "is missing or not a string");
    return value.value_or("");
  }
  std::string digest(const json::object& object, std::string_view key, const std::string& field) {
    auto value = text(object, key, field);
    if (problem_.empty() && !is_digest(value)) fail(field, "is not 64 lowercase hex digits");
    return value;
  }
  const json::object* object(const json::object& parent, std::string_view key, const std::string& field) {
    const auto* value = json_find(parent, key);
    if (value == nullptr || !value->is_object()) {
      fail(field, "is missing or not an object");
      return nullptr;
    }
    return &value->get_object();
  }
  void fail(const std::string& field, const std::string& why) {
    if (problem_.empty()) problem_ = origin_ + ": `" + field + "` " + why;
  }
  const std::string& problem() const { return problem_; }

 private:
  const std::string& origin_;
  std::string problem_;
};

}  // namespace

std::string record_json(const ShardRecord& record) {
  json::array lists;
  for (const auto& list : record.lists)
    lists.push_back(json::object{{"tests", list.tests}, {"sha256", list.sha256}, {"ms", list.tests_ms}});
  json::object root{{"format", kFormat},
                    {"version", 1},
                    {"leg", record.leg},
                    {"shards", record.shards},
                    {"index", record.index},
                    {"tests", json::object{{"count", record.tests}, {"sha256", record.tests_sha256}}},
                    {"split", record.split_sha256},
                    {"durations", json::object{{"from", record.durations}, {"recorded", record.recorded}}},
                    {"start_ms", record.start_ms},
                    {"lists", std::move(lists)}};
  return json::serialize(root) + "\n";
}

Result<ShardRecord> parse_record(std::string_view text, const std::string& origin) {
  boost::system::error_code ec;
  const json::value doc = json::parse(text, ec);
  if (ec || !doc.is_object()) return could_not_evaluate(origin + ": not a shard plan (not a JSON object)");
  const auto& root = doc.get_object();
  if (json_string_at(root, "format").value_or("") != kFormat)
    return could_not_evaluate(origin + ": not a shard plan (`format` is not \"" + std::string(kFormat) + "\")");
  if (json_int_at(root, "version").value_or(0) != 1)
    return could_not_evaluate(origin + ": unsupported shard plan version (this gatekit reads version 1)");
  RecordReader read(origin);
  ShardRecord record;
  record.leg = read.text(root, "leg", "leg");
  record.shards = static_cast<int>(read.count(root, "shards", "shards", kMaxShards));
  record.index = static_cast<int>(read.count(root, "index", "index", kMaxShards));
  if (const auto* tests = read.object(root, "tests", "tests")) {
    record.tests = static_cast<std::size_t>(read.count(*tests, "count", "tests.count"));
    record.tests_sha256 = read.digest(*tests, "sha256", "tests.sha256");
  }
  record.split_sha256 = read.digest(root, "split", "split");
  if (const auto* durations = read.object(root, "durations", "durations")) {
    record.durations = read.text(*durations, "from", "durations.from");
    record.recorded = static_cast<std::size_t>(read.count(*durations, "recorded", "durations.recorded"));
  }
  record.start_ms = read.count(root, "start_ms", "start_ms");
  const auto* lists = json_find(root, "lists");
  if (lists == nullptr || !lists->is_array()) {
    read.fail("lists", "is missing or not a list");
  } else {
    for (const auto& item : lists->get_array()) {
      const std::string field = "lists[" + std::to_string(record.lists.size()) + "]";
      if (!item.is_object()) {
        read.fail(field, "is not an object");
        break;
      }
      ShardListRecord list;
      list.tests = static_cast<std::size_t>(read.count(item.get_object(), "tests", field + ".tests"));
      list.sha256 = read.digest(item.get_object(), "sha256", field + ".sha256");
      list.tests_ms = read.count(item.get_object(), "ms", field + ".ms");
      record.lists.push_back(std::move(list));
    }
  }
  if (read.problem().empty() && (record.shards < 1 || record.lists.size() != static_cast<std::size_t>(record.shards)))
    read.fail("lists", "does not hold one entry per shard (" + std::to_string(record.shards) + ")");
  if (read.problem().empty() && record.index > record.shards)
    read.fail("index", "is more than `shards` (" + std::to_string(record.shards) + ")");
  if (!read.problem().empty()) return could_not_evaluate(read.problem());
  return record;
}

}  // namespace gatekit::suite_report
