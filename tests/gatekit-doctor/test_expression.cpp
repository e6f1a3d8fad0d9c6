// The doctor's expression evaluator against GitHub's own engine (@actions/expressions, through
// eval-expressions.mjs): every known value as GitHub computes it, and, with unknown values, a
// verdict of true or false only where every value the unknowns can take agrees.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "catch.hpp"
#include "expression.hpp"
#include "gatekit/json.hpp"
#include "gatekit/process.hpp"

using namespace gatekit;
using namespace gatekit::gatekit_doctor;
using expr::Truth;
using expr::Value;
namespace json = boost::json;

namespace {

Value from_json(const json::value& j) {
  switch (j.kind()) {
    case json::kind::null: return Value::null();
    case json::kind::bool_: return Value::of(j.get_bool());
    case json::kind::int64: return Value::of(static_cast<double>(j.get_int64()));
    case json::kind::uint64: return Value::of(static_cast<double>(j.get_uint64()));
    case json::kind::double_: return Value::of(j.get_double());
    case json::kind::string: return Value::of(std::string(j.get_string()));
    case json::kind::array: {
      std::vector<Value> items;
      for (const auto& item : j.get_array()) items.push_back(from_json(item));
      return Value::array(std::move(items));
    }
    case json::kind::object: {
      expr::Object fields;
      for (const auto& [k, v] : j.get_object()) fields[std::string(k)] = from_json(v);
      return Value::object(std::move(fields));
    }
  }
  return Value::null();
}

// As eval-expressions.mjs prints a value: NaN and Infinity as strings.
json::value to_json(const Value& v) {
  switch (v.kind) {
    case Value::Kind::null: return nullptr;
    case Value::Kind::boolean: return v.boolean;
    case Value::Kind::number:
      if (std::isnan(v.number)) return "NaN";
      if (std::isinf(v.number)) return v.number > 0 ? "Infinity" : "-Infinity";
      return v.number;
    case Value::Kind::string: return json::string(v.string);
    case Value::Kind::array: {
      json::array out;
      for (const auto& item : v.items) out.push_back(to_json(item));
      return out;
    }
    case Value::Kind::object: {
      json::object out;
      for (const auto& [k, f] : v.fields) out[k] = to_json(f);
      return out;
    }
    case Value::Kind::unknown: return "<unknown>";
  }
  return nullptr;
}

bool same(const json::value& a, const json::value& b) {
  if (a.is_number() && b.is_number()) return std::abs(a.to_number<double>() - b.to_number<double>()) < 1e-9;
  if (a.is_array() && b.is_array()) {
    if (a.get_array().size() != b.get_array().size()) return false;
    for (std::size_t i = 0; i < a.get_array().size(); ++i)
      if (!same(a.get_array()[i], b.get_array()[i])) return false;
    return true;
  }
  return a == b;
}

// GitHub's engine on every case at once: [{"value": ...} | {"error": ...}].
json::array github_engine(const json::array& cases) {
  const auto script = std::filesystem::path(GATEKIT_SOURCE_DIR) / "tests" / "gatekit-doctor" / "eval-expressions.mjs";
  ProcessSpec spec;
  spec.argv = {"node", script.string()};
  spec.stdin_data = json::serialize(json::object{{"cases", cases}});
  spec.env_set["GATEKIT_NODE_MODULES"] =
      (std::filesystem::path(GATEKIT_SOURCE_DIR) / "tests" / "node" / "node_modules").string();
  spec.timeout = std::chrono::seconds(120);
  SystemProcessRunner runner;
  auto done = runner.run(spec);
  REQUIRE(done.ok());
  INFO(done->err);
  REQUIRE(done->exit_code == 0);
  return json::parse(done->out).as_array();
}

expr::Contexts contexts_of(const json::object& contexts) {
  expr::Contexts out;
  for (const auto& [k, v] : contexts) out[std::string(k)] = from_json(v);
  return out;
}

const char* kContexts = R"({
  "github": {"event_name": "pull_request", "repository": "o/r", "ref": "refs/pull/7/merge",
             "event": {"pull_request": {"number": 7, "draft": false,
                                        "labels": [{"name": "gpu"}, {"name": "docs"}],
                                        "head": {"repo": {"full_name": "fork/r"}}}}},
  "needs": {"changes": {"result": "success", "outputs": {"cpu": "true", "gpu": "false", "docs": ""}},
            "gpu-tests": {"result": "skipped", "outputs": {}}},
  "matrix": {"python": 3.1, "os": "ubuntu-24.04", "cfg": {"name": "cuda", "versions": [12, 13]}},
  "vars": {"GATEKIT_GATE_MODE": "pull-request", "EMPTY": ""}
})";

}  // namespace

TEST_CASE("expression: every known value comes out as GitHub's engine computes it") {
  const std::vector<std::string> expressions = {
      // literals, and strings compared without case
      "true", "false", "null", "1", "-2.5", "0x1F", "1e3", "'it''s'", "NaN", "Infinity",
      "'a' == 'A'", "'abc' != 'ABC'", "'abc' < 'ABD'", "'b' > 'A'", "'a' <= 'a'", "'B' >= 'a'",
      // values of different types are compared as numbers
      "'1' == 1", "null == 0", "'' == false", "'' == 0", "true == 1", "' 12 ' == 12", "'0x10' == 16",
      "'1e2' == 100", "'abc' == 0", "NaN == NaN", "1 < '2'", "'x' < 1", "null < 1", "fromJSON('[]') == 0",
      // && and || return an operand
      "'' || 'x'", "0 && 'y'", "null || null", "'a' && 'b'", "!''", "!'x'", "!!0", "!null", "!(1 == 1)",
      "1 == 1 && 2 == 3 || 'z'", "(1 == 1 || 2 == 3) && 'w'",
      // contexts and properties
      "github.event_name", "GITHUB.EVENT_NAME", "github.event.pull_request.number", "github.event.nothing",
      "github.event.nothing.deeper", "github.event.pull_request.labels.*.name", "github['event']['pull_request']['draft']",
      "needs.changes.outputs.cpu == 'true'", "needs.changes.outputs.docs", "needs['gpu-tests'].result",
      "needs.gpu-tests.result == 'skipped'", "matrix.python", "matrix.cfg.name", "matrix.cfg.versions[1]",
      "matrix.cfg.versions[5]", "matrix.cfg.versions.*", "vars.GATEKIT_GATE_MODE != 'pull-request'", "vars.EMPTY || 'none'",
      "github.event.pull_request.head.repo.full_name == github.repository",
      // functions
      "contains('Hello', 'ELL')", "contains('Hello', 'x')", "contains(github.event.pull_request.labels.*.name, 'GPU')",
      "contains(fromJSON('[1, 2]'), 2)", "contains(fromJSON('[1, 2]'), '2')", "contains(matrix.cfg.versions, 13)",
      "startsWith('refs/heads/main', 'REFS/')", "endsWith('a.yml', '.YML')", "startsWith(1.5, 1)",
      "format('{0} {1}', 'a', 1)", "format('{{x}} {0}', 3.10)", "format('py{0}', matrix.python)",
      "format('{0}', fromJSON('[1]'))", "join(fromJSON('[1, \"b\", true]'), '-')", "join('abc')",
      "join(github.event.pull_request.labels.*.name)", "toJSON(fromJSON('{\"a\": [1, 2], \"b\": null}'))",
      "toJSON('x')", "toJSON(matrix.cfg.versions)", "fromJSON('3.10')", "fromJSON('true')",
      "fromJSON(' {\"shards\": [1, 2, 3]} ').shards", "fromJSON('[1, 2, 3]')[1]",
      "fromJSON(needs.changes.outputs.cpu)",
      // status functions in a run whose jobs succeeded
      "success()", "always()", "cancelled()", "failure()", "success() && needs.changes.outputs.cpu == 'true'",
      "!cancelled() && needs.gpu-tests.result != 'skipped'", "always() && github.event_name == 'push'",
  };
  const auto contexts = json::parse(kContexts).as_object();
  json::array cases;
  for (const auto& e : expressions) cases.push_back(json::object{{"expression", e}, {"contexts", contexts}});
  const auto expected = github_engine(cases);
  REQUIRE(expected.size() == expressions.size());
  const auto known = contexts_of(contexts);
  const expr::StatusFunctions succeeded{Truth::yes, Truth::no, false};
  for (std::size_t i = 0; i < expressions.size(); ++i) {
    INFO(expressions[i] << " -> GitHub: " << json::serialize(expected[i]));
    const auto& want = expected[i].as_object();
    REQUIRE(want.contains("value"));
    auto parsed = expr::parse(expressions[i]);
    REQUIRE(parsed.ok());
    const auto got = expr::evaluate(*parsed, known, succeeded);
    INFO("the doctor: " << json::serialize(to_json(got)));
    CHECK(same(to_json(got), want.at("value")));
  }
}

TEST_CASE("expression: with unknown values, a verdict only where every value of the unknowns agrees") {
  struct Row {
    std::string expression;
    std::vector<std::string> unknown;  // paths left unknown, each tried with every sample value
    Truth truth;
  };
  // The pull request's `github` is known; what a run decides (outputs, labels, vars) is not.
  const std::vector<Row> rows = {
      {"github.event_name == 'push'", {}, Truth::no},
      {"github.event_name == 'pull_request'", {}, Truth::yes},
      {"needs.changes.outputs.cpu == 'true'", {"needs.changes.outputs.cpu"}, Truth::maybe},
      {"needs.changes.outputs.cpu == 'true' && github.event_name == 'push'", {"needs.changes.outputs.cpu"}, Truth::no},
      {"github.event_name == 'push' && needs.changes.outputs.cpu == 'true'", {"needs.changes.outputs.cpu"}, Truth::no},
      {"needs.changes.outputs.cpu == 'true' || github.event_name == 'pull_request'", {"needs.changes.outputs.cpu"},
       Truth::yes},
      {"!(needs.changes.outputs.cpu == 'true' && github.event_name == 'push')", {"needs.changes.outputs.cpu"},
       Truth::yes},
      {"vars.GATEKIT_GATE_MODE != 'pull-request' && (github.event_name == 'pull_request' || "
       "github.event_name == 'merge_group')",
       {"vars.GATEKIT_GATE_MODE"}, Truth::maybe},
      {"vars.GATEKIT_GATE_MODE == 'pull-request' && github.event_name == 'workflow_run'", {"vars.GATEKIT_GATE_MODE"},
       Truth::no},
      {"contains(github.event.pull_request.labels.*.name, 'gpu') && github.event_name == 'schedule'",
       {"github.event.pull_request.labels"}, Truth::no},
      {"needs.changes.outputs.gpu || 'fallback'", {"needs.changes.outputs.gpu"}, Truth::yes},
      {"needs.changes.outputs.gpu && ''", {"needs.changes.outputs.gpu"}, Truth::no},
      {"!needs.changes.outputs.gpu", {"needs.changes.outputs.gpu"}, Truth::maybe},
      {"always()", {}, Truth::yes},
      {"cancelled()", {}, Truth::no},
      {"!cancelled() && github.event_name == 'pull_request'", {}, Truth::yes},
  };
  const std::vector<json::value> samples = {"true", "false", "", nullptr, "pull-request", "strict",
                                            json::array{json::object{{"name", "gpu"}}}};
  const auto base = json::parse(R"({"github": {"event_name": "pull_request", "repository": "o/r",
      "event": {"pull_request": {"number": 7}}}, "needs": {"changes": {"result": "success", "outputs": {}}},
      "vars": {}})").as_object();
  json::array cases;
  std::vector<std::size_t> first_case;
  for (const auto& row : rows) {
    first_case.push_back(cases.size());
    // Every combination of sample values for the unknown paths (at most two per row).
    const std::size_t combinations = row.unknown.empty() ? 1 : (row.unknown.size() == 1 ? samples.size()
                                                                                        : samples.size() * samples.size());
    for (std::size_t n = 0; n < combinations; ++n) {
      auto contexts = base;
      std::size_t k = n;
      for (const auto& path : row.unknown) {
        json::object* at = &contexts;
        std::size_t start = 0;
        while (true) {
          const auto dot = path.find('.', start);
          const auto key = path.substr(start, dot - start);
          if (dot == std::string::npos) {
            (*at)[key] = samples[k % samples.size()];
            break;
          }
          if (!at->contains(key) || !(*at)[key].is_object()) (*at)[key] = json::object{};
          at = &(*at)[key].as_object();
          start = dot + 1;
        }
        k /= samples.size();
      }
      // A status function is success() of a run whose jobs succeeded: the doctor's "maybe".
      cases.push_back(json::object{{"expression", row.expression}, {"contexts", contexts}});
    }
  }
  const auto answers = github_engine(cases);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    INFO(row.expression);
    // The doctor: the known `github` context, every other context unknown where the row says so.
    expr::Contexts known = contexts_of(base);
    for (const auto& path : row.unknown) {
      const auto context = path.substr(0, path.find('.'));
      if (context != "github") known.erase(context);  // github is open: what it lacks is unknown
    }
    known["github"].open = true;
    auto parsed = expr::parse(row.expression);
    REQUIRE(parsed.ok());
    const auto got = expr::truth_of(expr::evaluate(*parsed, known));
    CHECK(got == row.truth);
    const std::size_t end = r + 1 < rows.size() ? first_case[r + 1] : answers.size();
    bool seen_true = false;
    bool seen_false = false;
    for (std::size_t i = first_case[r]; i < end; ++i) {
      const auto& value = answers[i].as_object();
      REQUIRE(value.contains("value"));
      const bool truthy = expr::truth_of(from_json(value.at("value"))) == Truth::yes;
      (truthy ? seen_true : seen_false) = true;
    }
    // Sound: a verdict GitHub's engine never contradicts; tight: "maybe" only where it goes both ways.
    if (row.truth == Truth::yes) CHECK_FALSE(seen_false);
    if (row.truth == Truth::no) CHECK_FALSE(seen_true);
    if (row.truth == Truth::maybe) CHECK((seen_true && seen_false));
  }
}

TEST_CASE("expression: syntax errors name the column, as a workflow's error must") {
  struct Row {
    std::string text;
    std::string error;
  };
  const std::vector<Row> rows = {
      {"", "column 1: an empty expression"},
      {"github.event_name ==", "column 21: unexpected end of expression"},
      {"contains('a')", "column 1: contains() takes 2 arguments, got 1"},
      {"nope(1)", "column 1: unknown function 'nope'"},
      {"'open", "column 1: a string that is not closed with '"},
      {"a.", "column 3: expected a property name after '.', got end of expression"},
      {"(1 == 1", "column 8: expected ')', got end of expression"},
      {"a[0", "column 4: expected ']', got end of expression"},
      {"1 = 1", "column 3: unexpected character '='"},
      {"a b", "column 3: unexpected 'b'"},
      {"1 == format()", "column 6: format() takes 1 or more arguments, got 0"},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    auto parsed = expr::parse(row.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().kind == ErrorKind::bad_input);
    CHECK(parsed.error().message == row.error);
  }
}

TEST_CASE("expression: a job's if: gets GitHub's implied success() unless it calls a status function") {
  const expr::Contexts none;
  auto plain = expr::parse_job_if("${{ 1 == 1 }}");
  REQUIRE(plain.ok());
  CHECK(expr::truth_of(expr::evaluate(*plain, none)) == Truth::maybe);  // success() not known
  CHECK(expr::truth_of(expr::evaluate(*plain, none, {Truth::no, Truth::yes, false})) == Truth::no);
  auto always = expr::parse_job_if("always() && 1 == 1");
  REQUIRE(always.ok());
  CHECK(expr::truth_of(expr::evaluate(*always, none)) == Truth::yes);
  CHECK(expr::calls_status_function(*expr::parse("!CANCELLED()")));
  CHECK_FALSE(expr::calls_status_function(*expr::parse("needs.a.result == 'success'")));
}

TEST_CASE("expression: the property chains an if: reads") {
  auto parsed = expr::parse("needs.changes.outputs.cpu == 'true' || needs['changes'].outputs['docs'] && "
                            "contains(github.event.pull_request.labels.*.name, matrix.x) || a[b.c]");
  REQUIRE(parsed.ok());
  CHECK(expr::property_paths(*parsed) ==
        std::vector<std::string>{"needs.changes.outputs.cpu", "needs.changes.outputs.docs",
                                 "github.event.pull_request.labels", "matrix.x", "a", "b.c"});
}

TEST_CASE("expression: a name's template keeps what is not known as unknown parts") {
  auto name = expr::parse_template("pytest (GPU, shard ${{ matrix.shard }}) on ${{ inputs.os || 'linux' }}");
  REQUIRE(name.ok());
  CHECK(name->has_expression());
  expr::Contexts contexts{{"matrix", Value::object({{"shard", Value::of(2.0)}})}};
  const auto pieces = expr::render(*name, contexts);
  REQUIRE(pieces.size() == 4);
  CHECK(pieces[0].text == "pytest (GPU, shard ");
  CHECK(pieces[1].text == "2");
  CHECK(pieces[2].text == ") on ");
  CHECK(pieces[3].unknown);
  auto bad = expr::parse_template("x ${{ matrix.a ");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "column 3: '${{' is not closed with '}}'");
  auto wrong = expr::parse_template("ab ${{ matrix. }}");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message == "column 16: expected a property name after '.', got end of expression");
}
