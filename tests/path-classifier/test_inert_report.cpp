// Outside text in the gate's reports: changed paths, patterns and API messages reach the
// summary as code spans or escaped prose (the table keeps its shape, no markup starts), and
// the --explain trace prints them on their own lines, none of them a workflow command.
#include "../../fuzz/runner_commands.hpp"
#include "catch.hpp"
#include "classify.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "report.hpp"

using namespace gatekit;
using namespace gatekit::path_classifier;

namespace {

Rules rules(const std::string& yaml) {
  auto r = load_rules_text(yaml, "rules.yml", std::nullopt);
  REQUIRE(r);
  return std::move(*r);
}

Decision decide_files(const Rules& r, std::vector<ChangedFile> files) {
  ChangeListing listing;
  listing.source = "the list on stdin";
  listing.files = std::move(files);
  return decide(r, listing, "pull_request", true);
}

std::vector<std::string> table_rows(const std::string& markdown) {
  std::vector<std::string> rows;
  for (const auto& line : split_lines(markdown))
    if (line.rfind("| `", 0) == 0) rows.push_back(line);
  return rows;
}

}  // namespace

TEST_CASE("summary: hostile paths stay inside their code spans and their row") {
  const auto r = rules("filters:\n  gpu:\n    paths: ['src/**']\n  cpu:\n    mode: deny\n    paths: ['docs/**']\n");
  ChangedFile renamed;
  renamed.path = "docs/x|y\n```mermaid";
  renamed.previous_path = "src/a`b<img src=x>.cu";
  const auto d = decide_files(r, {renamed});
  const auto md = summary_markdown(d, {"# rules.yml:1:1: a warning with <b>html</b>"});
  const auto rows = table_rows(md);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] ==
        "| `gpu` | allow | ✅ runs | ``src/a`b<img src=x>.cu`` → ````docs/x\\|y\\n```mermaid```` | `src/**` (#1, line 3) | "
        "``src/a`b<img src=x>.cu`` (renamed to ````docs/x\\|y\\n```mermaid````) is included by `src/**` |");
  CHECK(md.find("\n```mermaid") == std::string::npos);  // no line of the summary opens a fence
  CHECK(md.find("- \\# rules.yml:1:1: a warning with \\<b>html\\</b>\n") != std::string::npos);
}

TEST_CASE("summary: a fail-open message from the API is escaped prose") {
  const auto r = rules("filters:\n  gpu: ['src/**']\n");
  ChangeListing listing;
  listing.source = "GitHub API, pull request #1";
  listing.fail_open = "HTTP 422: <script>x</script>\n## [link](javascript:x)";
  const auto md = summary_markdown(decide(r, listing, "pull_request", true), {});
  CHECK(md.find("> Fail-open: HTTP 422: \\<script>x\\</script>\\\\n## \\[link\\](javascript:x). Every filter is relevant.\n") !=
        std::string::npos);
  REQUIRE(table_rows(md).size() == 1);
  CHECK(table_rows(md)[0] ==
        "| `gpu` | allow | ✅ runs | — | — | fail-open: HTTP 422: \\<script>x\\</script>\\\\n## \\[link\\](javascript:x) |");
}

TEST_CASE("explain: a hostile path is shown on its line, and no line is a command") {
  const auto r = rules("filters:\n  gpu:\n    paths: ['src/**', '!src/##[warning]*']\n");
  const auto text = inert_lines(explain(r, "src/a\n::error::pwned"));
  CHECK(split_lines(text) == std::vector<std::string>{
                                 "How each filter treats `src/a\\n::error::pwned` (dialect github):",
                                 "",
                                 "gpu (allow list)",
                                 "  #1\tsrc/**\tmatch -> included",
                                 "  #2\t!src/##\\x5bwarning]*\tno match",
                                 "  => included by #1 `src/**`: this path alone makes gpu relevant",
                             });
  CHECK(gatekit::fuzzing::runner_commands(text).empty());
}
