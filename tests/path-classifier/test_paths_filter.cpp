// dorny/paths-filter's filter forms, read unchanged: lists, change-type rules, anchors,
// `predicate-quantifier`, and the change type of each side of a change.
#include <string>
#include <vector>

#include "catch.hpp"
#include "changes.hpp"
#include "classify.hpp"
#include "rules.hpp"

using namespace gatekit;
using namespace gatekit::path_classifier;

namespace {

Rules pf_rules(const std::string& yaml, std::optional<Quantifier> q = std::nullopt) {
  auto r = load_rules_text(yaml, "filters input", std::nullopt, q);
  if (!r) FAIL(r.error().message);
  return std::move(*r);
}

std::string pf_error(const std::string& yaml) {
  auto r = load_rules_text(yaml, "filters input", std::nullopt);
  if (r) FAIL("rules were accepted");
  CHECK(r.error().kind == ErrorKind::bad_input);
  return r.error().message;
}

ChangeListing changes(std::vector<ChangedFile> files) {
  ChangeListing l;
  l.source = "test";
  l.files = std::move(files);
  return l;
}

const FilterDecision& filter(const Decision& d, const std::string& name) {
  for (const auto& f : d.filters)
    if (f.filter == name) return f;
  FAIL("no filter " << name);
  throw;
}

// The names of the files filter `name` matches.
std::vector<std::string> files(const Decision& d, const std::string& name) {
  const auto views = d.files_of(filter(d, name));
  return {views.begin(), views.end()};
}

// The README's examples, in one document.
const char* kReadme = R"(shared: &shared
  - common/**
  - config/**
src:
  - *shared
  - src/**
addedOrModified:
  - added|modified: '**'
allChanges:
  - added|deleted|modified: '**'
addedOrModifiedAnchors:
  - added|modified: *shared
markdown:
  - added|modified: '*.md'
)";

}  // namespace

TEST_CASE("paths-filter form: the filters map itself, in the picomatch dialect, anchors flattened") {
  const auto rules = pf_rules(kReadme);
  CHECK(rules.dialect == glob::Dialect::picomatch);
  REQUIRE(rules.filters.size() == 6);
  const auto& src = rules.filters[1];
  CHECK(src.name == "src");
  REQUIRE(src.paths.size() == 3);
  CHECK((src.paths[0].text == "common/**" && src.paths[2].text == "src/**"));
  CHECK(src.paths[0].line == 2);  // where the anchor's pattern is written
  CHECK_FALSE(src.per_pattern);
  const auto& anchors = rules.filters[4];
  REQUIRE(anchors.paths.size() == 2);
  CHECK(anchors.paths[1].change_types == std::vector<std::string>{"added", "modified"});
  CHECK(anchors.per_pattern);
}

TEST_CASE("paths-filter form: change types as paths-filter splits them, unknown ones refused") {
  const auto rules = pf_rules("x:\n  - ' Added | MODIFIED |': 'a/**'\n");
  CHECK(rules.filters[0].paths[0].change_types == std::vector<std::string>{"added", "modified"});
  CHECK(pf_error("x:\n  - added|modifed: 'a/**'\n") ==
        "1 error in filters input:\n"
        "filters input:2:5: filters.x[0].added|modifed: unknown change type 'modifed' in 'added|modifed' (expected "
        "added, modified, deleted, renamed, copied, changed or unmerged); did you mean 'modified'?");
  CHECK(pf_error("x:\n  - '|': 'a/**'\n") ==
        "1 error in filters input:\nfilters input:2:5: filters.x[0].|: no change type in '|' (e.g. `added|modified`)");
  CHECK(pf_error("x:\n  - added: {a: b}\n") ==
        "1 error in filters input:\nfilters input:2:12: filters.x[0].added: expected a pattern or a list of "
        "patterns, got a map");
  CHECK(pf_error("x:\n  a: b\n") ==
        "1 error in filters input:\nfilters input:2:3: filters.x: expected a list of patterns, got a map");
}

TEST_CASE("paths-filter form: a filter may be one pattern, and `renamed` is warned about") {
  const auto rules = pf_rules("docs: 'docs/**'\nr:\n  - renamed: '**'\n");
  CHECK(rules.filters[0].paths[0].text == "docs/**");
  REQUIRE(rules.warnings.size() == 1);
  CHECK(rules.warnings[0].message ==
        "`renamed` never matches: as in dorny/paths-filter, a rename counts as `deleted` at its old path and "
        "`added` at its new one; write `added|deleted`");
}

TEST_CASE("gatekit form: predicate-quantifier and typed rules in `paths`, and output names cannot collide") {
  const auto rules = pf_rules(
      "predicate-quantifier: every\nfilters:\n  be:\n    paths: ['pkg/**', '!**/*.md']\n  lint:\n    paths:\n"
      "      - added|modified: ['**/*.py']\n");
  CHECK(rules.quantifier == Quantifier::every);
  CHECK(rules.dialect == glob::Dialect::github);
  CHECK(rules.filters[1].paths[0].change_types == std::vector<std::string>{"added", "modified"});
  CHECK(pf_error("filters:\n  cpu: [a]\n  cpu_files: [b]\n") ==
        "1 error in filters input:\nfilters input:3:3: filters.cpu_files: 'cpu_files' is the output 'cpu_files' of "
        "filter 'cpu'; choose another name");
  CHECK(pf_error("predicate-quantifier: most\nfilters:\n  a: [b]\n") ==
        "1 error in filters input:\nfilters input:1:23: predicate-quantifier: expected 'some' or 'every', got 'most'");
}

TEST_CASE("change types of each side, from API statuses and git letters") {
  struct Row {
    std::string status;
    bool previous;
    std::string_view type;
  };
  const std::vector<Row> rows{
      {"added", false, "added"},     {"A", false, "added"},        {"modified", false, "modified"},
      {"M", false, "modified"},      {"removed", false, "deleted"}, {"D", false, "deleted"},
      {"renamed", false, "added"},   {"renamed", true, "deleted"}, {"R", false, "added"},
      {"R", true, "deleted"},        {"copied", false, "copied"},  {"C", false, "copied"},
      {"changed", false, "changed"}, {"T", false, "changed"},      {"U", false, "unmerged"},
      {"", false, ""},               {"X", false, ""},
  };
  for (const auto& row : rows) {
    ChangedFile f{"new", "old", row.status};
    SidedPath p{row.previous ? &f.previous_path : &f.path, &f, row.previous};
    INFO(row.status << (row.previous ? " (old side)" : ""));
    CHECK(change_type(p) == row.type);
  }
}

TEST_CASE("decision: change types, quantifiers and the matched files (table)") {
  // A change as the API lists it: a rename is deleted old + added new; a copy's source is
  // unchanged and not listed.
  const auto listing = changes({{"src/a.ts", "", "modified"},
                                {"src/new.ts", "src/old.ts", "renamed"},
                                {"docs/x.md", "", "added"},
                                {"src/gone.ts", "", "removed"},
                                {"src/copy.ts", "src/orig.ts", "copied"},
                                {"src/mode.sh", "", "changed"}});
  struct Row {
    std::string yaml;
    std::optional<Quantifier> quantifier;
    bool relevant;
    std::vector<std::string> files;
  };
  const std::vector<Row> rows{
      {"f: ['src/**']", {}, true, {"src/a.ts", "src/new.ts", "src/old.ts", "src/gone.ts", "src/copy.ts", "src/mode.sh"}},
      {"f:\n  - added: 'src/**'", {}, true, {"src/new.ts"}},
      {"f:\n  - deleted: 'src/**'", {}, true, {"src/old.ts", "src/gone.ts"}},
      {"f:\n  - added|modified: '**/*.ts'", {}, true, {"src/a.ts", "src/new.ts"}},
      {"f:\n  - copied: '**'", {}, true, {"src/copy.ts"}},
      {"f:\n  - changed: '**'", {}, true, {"src/mode.sh"}},
      {"f:\n  - renamed: '**'", {}, false, {}},
      {"f:\n  - added: 'docs/**'\n  - modified: 'src/**'", {}, true, {"src/a.ts", "docs/x.md"}},
      // picomatch judges each pattern alone: under `some` a negation matches nearly everything.
      {"f: ['src/**', '!**/*.ts']", {}, true,
       {"src/a.ts", "src/new.ts", "src/old.ts", "docs/x.md", "src/gone.ts", "src/copy.ts", "src/mode.sh"}},
      {"f: ['src/**', '!**/*.ts']", Quantifier::every, true, {"src/mode.sh"}},
      {"f: ['src/**', '!**/*.sh', '!**/*.ts']", Quantifier::every, false, {}},
      {"f:\n  - modified: 'src/**'\n  - '**/*.ts'", Quantifier::every, true, {"src/a.ts"}},
      {"f:\n  - added: 'src/**'\n  - '!**/*.ts'", Quantifier::every, false, {}},
  };
  for (const auto& row : rows) {
    INFO(row.yaml);
    const auto rules = pf_rules(row.yaml, row.quantifier);
    const auto d = decide(rules, listing, "pull_request", true);
    CHECK(filter(d, "f").relevant == row.relevant);
    CHECK(files(d, "f") == row.files);
  }
}

TEST_CASE("decision: change-type rules in the github dialect keep the ordered exclusions") {
  const auto rules = pf_rules(
      "filters:\n  f:\n    paths:\n      - added|modified: 'src/**'\n      - '!src/gen/**'\n"
      "      - modified: 'src/gen/keep.ts'\n");
  const auto listing = changes({{"src/gen/a.ts", "", "A"}, {"src/gen/keep.ts", "", "M"}, {"src/b.ts", "", "D"}});
  const auto d = decide(rules, listing, "pull_request", true);
  CHECK(filter(d, "f").relevant);
  CHECK(files(d, "f") == std::vector<std::string>{"src/gen/keep.ts"});
  CHECK(filter(d, "f").pattern == "src/gen/keep.ts");
  CHECK(filter(d, "f").why == "`src/gen/keep.ts` is included by `src/gen/keep.ts` (modified: the path is modified)");
}

TEST_CASE("decision: without a status every change-type rule applies (the gate cannot tell)") {
  const auto rules = pf_rules("f:\n  - deleted: 'src/**'\n");
  const auto d = decide(rules, changes({{"src/a.ts", "", ""}}), "pull_request", true);
  CHECK(filter(d, "f").relevant);
  CHECK(filter(d, "f").why == "`src/a.ts` is included by `src/**` (deleted: the listing gives no change type)");
  CHECK(files(d, "f") == std::vector<std::string>{"src/a.ts"});
}

TEST_CASE("decision: deny mode lists the paths left over, and failing open still lists what is known") {
  auto rules = pf_rules("filters:\n  cpu:\n    mode: deny\n    paths: ['docs/**']\n");
  auto listing = changes({{"docs/a.md", "", "M"}, {"src/b.c", "", "M"}});
  CHECK(files(decide(rules, listing, "pull_request", true), "cpu") == std::vector<std::string>{"src/b.c"});
  listing.fail_open = "the listing may be truncated";
  const auto d = decide(rules, listing, "pull_request", true);
  CHECK(filter(d, "cpu").reason == Reason::fail_open);
  CHECK(files(d, "cpu") == std::vector<std::string>{"src/b.c"});
}

TEST_CASE("`git diff --name-status -z` lists keep their statuses, other NUL lists are names") {
  const std::string z("M\0src/a b.c\0R100\0old/x\nq.c\0new/x.c\0D\0-rf\0", 41);
  auto files = parse_path_list(z);
  REQUIRE(files.ok());
  REQUIRE(files->size() == 3);
  CHECK(((*files)[0].status == "M" && (*files)[0].path == "src/a b.c"));
  CHECK(((*files)[1].status == "R" && (*files)[1].previous_path == "old/x\nq.c" && (*files)[1].path == "new/x.c"));
  CHECK(((*files)[2].status == "D" && (*files)[2].path == "-rf"));
  // A record out of shape anywhere: the whole text is a plain list of names.
  auto plain = parse_path_list(std::string("M\0a\0b\0", 6));
  REQUIRE(plain.ok());
  REQUIRE(plain->size() == 3);
  CHECK(((*plain)[0].path == "M" && (*plain)[0].status.empty()));
  auto truncated = parse_path_list(std::string("R100\0old\0", 9));
  REQUIRE(truncated.ok());
  CHECK(truncated->size() == 2);
}
