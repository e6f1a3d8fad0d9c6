// list-files formats as dorny/paths-filter writes them, checked against hostile names; the
// outputs and the `filters` JSON entries.
#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/json.hpp"
#include "gatekit/utf8.hpp"
#include "list_files.hpp"

using namespace gatekit::path_classifier;

namespace {
// `names` as the files `f` matches: each appended to d.paths, and f.files indexing them.
void set_files(Decision& d, FilterDecision& f, const std::vector<std::string>& names) {
  f.files.clear();
  for (const auto& name : names) {
    f.files.push_back(d.paths.size());
    d.paths.push_back(name);
  }
}
}  // namespace

TEST_CASE("shell, escape and csv escapers: paths-filter's outputs for ordinary names") {
  struct Row {
    std::string name, shell, escape, csv;
  };
  const std::vector<Row> rows{
      {"src/a.ts", "src/a.ts", "src/a.ts", "src/a.ts"},
      {"a,b.txt", "a,b.txt", "a,b.txt", "\"a,b.txt\""},
      {"with space.md", "'with space.md'", "with\\ space.md", "\"with space.md\""},
      {"it's.md", "\"it's.md\"", "it\\'s.md", "\"it's.md\""},
      {"$(rm -rf).sh", "'$(rm -rf).sh'", "\\$\\(rm\\ -rf\\).sh", "\"$(rm -rf).sh\""},
      {"it's $(x)", "it\\''s $(x)'", "it\\'s\\ \\$\\(x\\)", "\"it's $(x)\""},
      {"q\"uote", "'q\"uote'", "q\\\"uote", "\"q\"\"uote\""},
      {"\xC3\xA4.cu", "'\xC3\xA4.cu'", "\\\xC3\xA4.cu", "\"\xC3\xA4.cu\""},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    CHECK(shell_escape(r.name) == r.shell);
    CHECK(backslash_escape(r.name) == r.escape);
    CHECK(csv_escape(r.name) == r.csv);
  }
}

TEST_CASE("escapers: a name with a line feed is quoted whole (paths-filter's /m regexes let it through)") {
  // paths-filter tests each line: `ok` is safe, so it printed this name bare.
  CHECK(shell_escape("ok\n$(touch PWNED)") == "'ok\n$(touch PWNED)'");
  CHECK(shell_escape("it's\n$(x)") == "it\\''s\n$(x)'");
  CHECK(backslash_escape("a\nb") == "a'\n'b");
  CHECK(csv_escape("ok\nb") == "\"ok\nb\"");
}

TEST_CASE("format_list: paths-filter's joins, and a leading '-' becomes ./- in the shell formats") {
  const std::vector<std::string> files{"-rf", "a b", "c"};
  CHECK(format_list(files, ListFormat::json) == R"(["-rf","a b","c"])");
  CHECK(format_list(files, ListFormat::csv) == "-rf,\"a b\",c");
  CHECK(format_list(files, ListFormat::shell) == "./-rf 'a b' c");
  CHECK(format_list(files, ListFormat::escape) == "./-rf a\\ b c");
  CHECK(format_list({"n\nl", "\x01", "bad\xFF"}, ListFormat::json) == "[\"n\\nl\",\"\\u0001\",\"bad\xEF\xBF\xBD\"]");
  CHECK(format_list({}, ListFormat::json) == "[]");
  CHECK(format_list({}, ListFormat::shell) == "");
  CHECK(parse_list_format("JSON") == ListFormat::json);
  CHECK_FALSE(parse_list_format("yaml"));
}

TEST_CASE("with_lists: count and files after each filter, entries in `filters`, long lists left out") {
  Decision d;
  FilterDecision cpu;
  cpu.filter = "cpu";
  set_files(d, cpu, {"src/a.c", "it's"});
  FilterDecision gpu;
  gpu.filter = "gpu";
  gpu.relevant = false;
  set_files(d, gpu, {std::string(kInlineListLimit + 1, 'x')});
  d.filters = {cpu, gpu};
  const auto plan = plan_lists(d, ListFormat::shell, true);
  const auto out = with_lists({{"cpu", "true"}, {"gpu", "false"}, {"changes", "[\"cpu\"]"},
                               {"filters", R"({"cpu":true,"gpu":false})"}},
                              plan);
  const std::vector<std::pair<std::string, std::string>> expected{
      {"cpu", "true"},
      {"cpu_count", "2"},
      {"cpu_files", "src/a.c \"it's\""},
      {"gpu", "false"},
      {"gpu_count", "1"},
      {"changes", "[\"cpu\"]"},
      {"filters", R"({"cpu":true,"cpu_count":2,"cpu_files":"src/a.c \"it's\"","gpu":false,"gpu_count":1})"},
      {"files-complete", "true"}};
  CHECK(out == expected);
  CHECK(list_warnings(plan, "/tmp/l.json") ==
        std::vector<std::string>{"the file list of filter 'gpu' (1 files, 65537 bytes) is too long for a step output, "
                                 "so `gpu_files` is not set; every list is in the file named by the `list-files-path` "
                                 "output"});
  d.fail_open = "truncated";
  CHECK_FALSE(plan_lists(d, ListFormat::none, true).complete);
  CHECK(lists_json(d) == "{\"cpu\":[\"src/a.c\",\"it's\"],\"gpu\":[\"" + std::string(kInlineListLimit + 1, 'x') + "\"]}");
  // The lists file holds valid UTF-8 whatever the names: a bad byte becomes U+FFFD, a valid
  // non-ASCII name is kept as it is.
  set_files(d, d.filters[0], {"bad\xFF.c", "caf\xC3\xA9.c"});
  CHECK(lists_json(d).starts_with("{\"cpu\":[\"bad\xEF\xBF\xBD.c\",\"caf\xC3\xA9.c\"],"));
}

TEST_CASE("lists_summary_markdown: counts, the first files as inert code spans, partial lists said") {
  Decision d;
  FilterDecision cpu;
  cpu.filter = "cpu";
  set_files(d, cpu, {"a|b\n::error ::x", "2", "3", "4", "5", "6", "7"});
  FilterDecision gpu;
  gpu.filter = "gpu";
  d.filters = {cpu, gpu};
  CHECK(lists_summary_markdown(d, plan_lists(d, ListFormat::none, true)) ==
        "#### Changed files per filter\n\n"
        "| Filter | Files | First files |\n"
        "| --- | --- | --- |\n"
        "| `cpu` | 7 | `a\\|b\\n::error ::x`, `2`, `3`, `4`, `5`, and 2 more |\n"
        "| `gpu` | 0 | — |\n");
  CHECK(lists_summary_markdown(d, plan_lists(d, ListFormat::none, false))
            .ends_with("\nThese lists are partial: the gate did not get a complete listing of the change (every "
                       "filter runs).\n"));
}

namespace {

// The reference: the lists as Boost.JSON serializes them (JSON.stringify's bytes).
std::string boost_list(const std::vector<std::string>& files) {
  boost::json::array array;
  for (const auto& f : files) array.emplace_back(gatekit::to_valid_utf8(f));
  return boost::json::serialize(array);
}

std::vector<std::string> random_names(std::mt19937& rng) {
  // Bytes that every JSON escape and repair path meets: quotes, backslashes, controls,
  // DEL, valid and broken UTF-8, and plain path bytes.
  static const std::vector<std::string> pieces{"a", "Z", "/", ".", " ", "\"", "\\", "\n", "\t", "\x01", "\x1f",
                                               "\x7f", "\xC3\xA9", "\xE2\x80\xA8", "\xFF", "\xC3", "-", "src/"};
  std::vector<std::string> names(rng() % 6);
  for (auto& name : names)
    for (std::size_t n = rng() % 12; n-- > 0;) name += pieces[rng() % pieces.size()];
  return names;
}

}  // namespace

TEST_CASE("format_list json: the bytes Boost.JSON writes, on random hostile names") {
  std::mt19937 rng(27);
  for (int round = 0; round < 5000; ++round) {
    const auto names = random_names(rng);
    INFO(boost_list(names));
    REQUIRE(format_list(names, ListFormat::json) == boost_list(names));
  }
}

TEST_CASE("format_list json: one byte to escape, at every place of a long plain name, is escaped") {
  // The plain-name check reads eight bytes at a time: a quote, a backslash, a control, DEL or
  // a non-ASCII byte in any lane of any word, or in the tail, sends the name to the serializer.
  for (const std::string odd : {"\"", "\\", "\x1f", "\x7f", "\n", "\xC3\xA9", "\xFF"}) {
    for (std::size_t length = 1; length <= 41; ++length) {
      for (std::size_t at = 0; at < length; ++at) {
        std::string name(length, 'a');
        name.replace(at, 1, odd);
        const std::vector<std::string> names{name, std::string(length, 'b')};
        INFO(boost_list(names));
        REQUIRE(format_list(names, ListFormat::json) == boost_list(names));
      }
    }
  }
}

TEST_CASE("lists_json with the plan: the lists file reuses the JSON lists, the same bytes as serializing anew") {
  std::mt19937 rng(2727);
  for (int round = 0; round < 1000; ++round) {
    Decision d;
    for (const char* name : {"cpu", "gpu \"x\"", "docs"}) {
      FilterDecision f;
      f.filter = name;
      set_files(d, f, random_names(rng));
      d.filters.push_back(f);
    }
    for (auto format : {ListFormat::json, ListFormat::shell, ListFormat::csv, ListFormat::none}) {
      const auto plan = plan_lists(d, format, true);
      REQUIRE(lists_json(d, plan) == lists_json(d));
    }
  }
  // Two filters with one name would be one key of an object: serialized anew, as before.
  Decision twice;
  FilterDecision a;
  a.filter = "same";
  set_files(twice, a, {"a"});
  FilterDecision b = a;
  set_files(twice, b, {"b"});
  twice.filters = {a, b};
  CHECK(lists_json(twice, plan_lists(twice, ListFormat::json, true)) == lists_json(twice));
  CHECK(lists_json(twice) == R"({"same":["b"]})");
}

namespace {
// The `filters` output as json::object merges it: each filter's count and inlined list after
// its own flag (a later key replacing an earlier one in place), serialized by Boost.JSON.
std::string merged_by_boost(const std::string& flags, const ListPlan& plan) {
  const auto parsed = boost::json::parse(flags);
  boost::json::object merged;
  for (const auto& entry : parsed.as_object()) {
    merged[entry.key()] = entry.value();
    for (const auto& l : plan.lists) {
      if (l.filter != std::string_view(entry.key())) continue;
      merged[std::string(entry.key()) + "_count"] = l.count;
      if (l.inlined) merged[std::string(entry.key()) + "_files"] = gatekit::to_valid_utf8(l.text);
      break;
    }
  }
  return boost::json::serialize(merged);
}
}  // namespace

TEST_CASE("with_lists: the `filters` entries are the bytes of a json::object merge, on random hostile names") {
  // Lists share paths, and some filter names repeat a key another filter's list writes
  // (`cpu_count`): the merge keeps json::object's rule, a later key replacing an earlier one.
  std::mt19937 rng(2731);
  for (int round = 0; round < 3000; ++round) {
    Decision d;
    for (int k = 0; k < 3; ++k)
      for (auto& name : random_names(rng)) d.paths.push_back(std::move(name));
    std::vector<std::string> names{"cpu", "gpu \"x\"", "docs"};
    if (round % 5 == 0) names.push_back("cpu_count");
    if (round % 7 == 0) names.push_back("docs_files");
    boost::json::object flags;
    for (const auto& name : names) {
      FilterDecision f;
      f.filter = name;
      for (std::size_t i = 0; i < d.paths.size(); ++i)
        if (rng() % 2 == 0) f.files.push_back(i);
      d.filters.push_back(f);
      flags[name] = rng() % 2 == 0;
    }
    const auto format = std::array{ListFormat::json, ListFormat::csv, ListFormat::shell, ListFormat::escape}[rng() % 4];
    const auto plan = plan_lists(d, format, true);
    const std::string text = boost::json::serialize(flags);
    const auto out = with_lists({{"filters", text}}, plan);
    const auto filters = std::find_if(out.begin(), out.end(), [](const auto& o) { return o.first == "filters"; });
    REQUIRE(filters != out.end());
    INFO("format " << static_cast<int>(format) << ": " << text);
    REQUIRE(filters->second == merged_by_boost(text, plan));
  }
}
