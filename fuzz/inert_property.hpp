#pragma once
// The property both the libFuzzer target (fuzz/inert_output.cpp) and the deterministic CTest
// (tests/core/test_inert.cpp) check: nothing gatekit prints from outside data starts a
// workflow command. Arbitrary bytes go, as a path / test name / message would, through every
// Workflow sink under GITHUB_ACTIONS=true (log, group title, annotations with file and title,
// set_output, the summary helpers), with a secret masked and embedded in them. Then, read the
// way the runner reads them (fuzz/runner_commands.hpp):
// - stdout holds exactly the commands the calls intended (add-mask, group, endgroup, error,
//   warning), in order, and their data and properties carry the text (up to the documented
//   `##\x5b` and the runner's own trimming of property values);
// - GITHUB_OUTPUT holds exactly one value, the text;
// - the summary table keeps its shape: one row, two cells, the first one code span, the
//   second one with every markup character escaped;
// - the secret appears nowhere but in the add-mask line.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>

#include "gatekit/environment.hpp"
#include "gatekit/text.hpp"
#include "gatekit/files.hpp"
#include "gatekit/workflow.hpp"
#include "runner_commands.hpp"

namespace gatekit::fuzzing {

inline constexpr std::string_view kInertSecret = "ghs_Q7xK2pZ9mW4vT1rB8nC5";

// Scratch files for GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, removed with the object.
class InertScratch {
 public:
  InertScratch()
      : dir_(std::filesystem::temp_directory_path() /
             ("gatekit-inert-" + std::to_string(::getpid()) + "-" + std::to_string(next_id()))) {
    std::filesystem::create_directories(dir_);
  }
  ~InertScratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  InertScratch(const InertScratch&) = delete;
  InertScratch& operator=(const InertScratch&) = delete;
  std::filesystem::path output() const { return dir_ / "output"; }
  std::filesystem::path summary() const { return dir_ / "summary"; }

 private:
  static int next_id() {
    static int id = 0;
    return ++id;
  }
  std::filesystem::path dir_;
};

namespace inert_detail {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Equal up to gatekit's documented `##\x5b` for a `[` that completes `##[`.
inline bool same_text(std::string_view shown, std::string_view text) {
  using runner_detail::replace_all;
  return replace_all(std::string(shown), "\\x5b", "[") == replace_all(std::string(text), "\\x5b", "[");
}

// What the runner keeps of a property value: it trims the property list (so the last value
// loses trailing whitespace) and drops `=` signs right after the key; empty means absent.
inline std::string runner_property(std::string_view value, bool last) {
  if (last) value = runner_detail::trim_end(value);
  while (!value.empty() && value.front() == '=') value.remove_prefix(1);
  return std::string(value);
}

// GitHub-flavoured Markdown splits a table row at `|` unless a backslash is right before it
// (cmark-gfm's longest-match cell scanner), then drops that backslash. The cells, trimmed.
inline std::vector<std::string> table_cells(std::string_view row) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      cells.push_back(std::string(trim(cell)));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  cells.push_back(std::string(trim(cell)));
  // A leading and a trailing pipe open and close the row.
  if (!cells.empty() && cells.front().empty()) cells.erase(cells.begin());
  if (!cells.empty() && cells.back().empty()) cells.pop_back();
  return cells;
}

// One code span and nothing else: a run of N backticks, content without a run of exactly N
// backticks, the same N backticks.
inline std::string one_code_span(std::string_view cell) {
  std::size_t fence = 0;
  while (fence < cell.size() && cell[fence] == '`') ++fence;
  if (fence == 0 || cell.size() < 2 * fence + 1) return "the code cell is not a code span: " + std::string(cell);
  if (cell.substr(cell.size() - fence) != std::string(fence, '`') || cell[cell.size() - fence - 1] == '`')
    return "the code cell does not end with its fence: " + std::string(cell);
  const auto inside = cell.substr(fence, cell.size() - 2 * fence);
  for (std::size_t i = 0; i < inside.size();) {
    std::size_t run = 0;
    while (i + run < inside.size() && inside[i + run] == '`') ++run;
    if (run == fence) return "a backtick run inside closes the code span early: " + std::string(cell);
    i += run == 0 ? 1 : run;
  }
  return "";
}

// Every character that could start inline markup is backslash-escaped.
inline std::string all_markup_escaped(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && std::ispunct(static_cast<unsigned char>(text[i + 1]))) {
      ++i;
      continue;
    }
    if (std::string_view("`*_[]<&~$\\").find(text[i]) != std::string_view::npos)
      return "unescaped '" + std::string(1, text[i]) + "' in Markdown text: " + std::string(text);
  }
  return "";
}

}  // namespace inert_detail

// "" when the property holds, else what broke.
inline std::string inert_property_violation(std::string_view input, const InertScratch& scratch) {
  using namespace inert_detail;
  // The text, with the secret in its middle; what every sink should show is `redacted`.
  std::string text(input);
  text.insert(text.size() / 2, kInertSecret);
  const std::string redacted = runner_detail::replace_all(text, kInertSecret, "***");

  std::filesystem::remove(scratch.output());
  std::filesystem::remove(scratch.summary());
  MapEnvironment env({{"GITHUB_ACTIONS", "true"},
                      {"GITHUB_OUTPUT", scratch.output().string()},
                      {"GITHUB_STEP_SUMMARY", scratch.summary().string()}});
  std::ostringstream out;
  SystemFiles disk;  // the runner's files are real files here
  auto wf = make_workflow(env, out, disk);
  wf->mask(kInertSecret);
  wf->log(text);
  wf->begin_group(text);
  wf->log("  " + text + ": done");
  wf->end_group();
  wf->annotate({Severity::error, text, text, text, 7, 3});
  wf->annotate({Severity::warning, text, "", "", 0, 0});
  wf->set_output("value", text);
  wf->append_summary(markdown_table({"Name", "Text"}, {{markdown_code(text), markdown_text(text)}}) +
                     "\n> Fail-open: " + markdown_text(text, false) + "\n\n- " + markdown_text(text) + "\n");
  if (!wf->write_errors().empty()) return "write error: " + wf->write_errors().front();

  // stdout: the intended commands, nothing else.
  const auto commands = runner_commands(out.str());
  const std::vector<std::string> expected{"add-mask", "group", "endgroup", "error", "warning"};
  std::vector<std::string> names;
  for (const auto& c : commands) names.push_back(c.name);
  if (names != expected) return "commands on stdout: " + join(names, ", ") + "\n" + out.str();
  if (commands[0].data != kInertSecret) return "add-mask data: " + commands[0].data;
  if (!same_text(commands[1].data, redacted) && !same_text(commands[1].data, " " + redacted))
    return "group title: " + commands[1].data;
  for (const auto* c : {&commands[3], &commands[4]})
    if (!same_text(c->data, redacted) && !same_text(c->data, " " + redacted))
      return c->name + " message: " + c->data;
  const auto& props = commands[3].properties;
  const auto file = runner_property(redacted, false);
  const auto title = runner_property(redacted, true);
  std::map<std::string, std::string> want{{"line", "7"}, {"col", "3"}};
  if (!file.empty()) want["file"] = file;
  if (!title.empty()) want["title"] = title;
  if (props.size() != want.size()) return "annotation properties: " + std::to_string(props.size());
  for (const auto& [key, value] : want) {
    const auto it = props.find(key);
    if (it == props.end() || !same_text(runner_property(it->second, key == "title"), value))
      return "annotation property " + key + ": " + (it == props.end() ? "missing" : it->second);
  }
  for (const auto& line : runner_lines(out.str()))
    if (line.find(kInertSecret) != std::string::npos && line != "::add-mask::" + std::string(kInertSecret))
      return "the secret is in a log line: " + line;

  // GITHUB_OUTPUT: one value, the text (files are not the log: no escaping, only the mask).
  const auto outputs = runner_outputs(slurp(scratch.output()));
  if (!outputs.error.empty()) return "GITHUB_OUTPUT rejected: " + outputs.error;
  if (outputs.values.size() != 1 || outputs.values[0].first != "value" || outputs.values[0].second != redacted)
    return "GITHUB_OUTPUT does not carry the value";

  // The summary: header, delimiter, one row of two cells, blank, the quote, blank, the item.
  const auto summary = slurp(scratch.summary());
  if (summary.find(kInertSecret) != std::string::npos) return "the secret is in the summary";
  if (summary.find('\r') != std::string::npos) return "a CR in the summary";
  const auto lines = split_lines(summary);
  if (lines.size() != 7 || !lines[3].empty() || !lines[5].empty())
    return "the summary has " + std::to_string(lines.size()) + " lines:\n" + summary;
  const auto cells = table_cells(lines[2]);
  if (cells.size() != 2) return "the table row has " + std::to_string(cells.size()) + " cells: " + lines[2];
  if (auto broken = one_code_span(cells[0]); !broken.empty()) return broken;
  if (auto broken = all_markup_escaped(cells[1]); !broken.empty()) return broken;
  const std::string quote = "> Fail-open: ";
  if (lines[4].rfind(quote, 0) != 0) return "the quote line changed: " + lines[4];
  if (auto broken = all_markup_escaped(std::string_view(lines[4]).substr(quote.size())); !broken.empty()) return broken;
  if (lines[6].rfind("- ", 0) != 0) return "the list line changed: " + lines[6];
  auto item = std::string_view(lines[6]).substr(2);
  while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
  std::size_t digits = 0;
  while (digits < item.size() && std::isdigit(static_cast<unsigned char>(item[digits]))) ++digits;
  if ((!item.empty() && std::string_view("#>-+*=_`~<|[$").find(item.front()) != std::string_view::npos) ||
      (digits > 0 && digits < item.size() && (item[digits] == '.' || item[digits] == ')')))
    return "the list item starts a block: " + lines[6];
  if (auto broken = all_markup_escaped(item); !broken.empty()) return broken;
  return "";
}

}  // namespace gatekit::fuzzing
