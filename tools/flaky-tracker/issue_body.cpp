#include "issue_body.hpp"

#include <algorithm>

#include "gatekit/text.hpp"
#include "summary.hpp"

namespace gatekit::flaky_tracker {

namespace {

constexpr std::string_view kFailureMark = "<!-- gatekit-flaky-failure -->";

std::string link(std::string_view text, std::string_view url) {
  return url.empty() ? markdown_text(text, false) : markdown_link(text, url);
}

std::string last_run(std::string_view url) {
  return url.empty() ? "" : " (the last: " + markdown_link("run", url) + ")";
}

std::string or_dash(const std::string& text) { return text.empty() ? "-" : markdown_text(text, false); }

}  // namespace

std::string code_block(std::string_view text) {
  std::size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  // Line breaks stay; every other control is shown as an escape.
  std::string lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines += visible_controls(line, true) + (end < text.size() ? "\n" : "");
    start = end + 1;
  }
  return fence + "text\n" + lines + "\n" + fence + "\n";
}

std::string issue_title(std::string_view test_id) {
  return "Flaky test: " + shorten(visible_controls(test_id), 200);
}

std::string issue_body(std::string_view test_id, const IssueState& s, const Rules& rules,
                       std::string_view failure_section) {
  std::string md = marker_line(test_id) + "\n" + state_line(s) + "\n";
  md += "## Flaky test " + markdown_code(shorten(test_id, 1000)) + "\n\n";
  md += "This test failed, then passed when rerun (or failed under load in a stress run). gatekit's flaky-tracker "
        "keeps this issue: it closes it after " +
        std::to_string(rules.close_after_greens) + " green runs in a row on main, or when " +
        std::to_string(rules.close_after_absences) + " daily runs in a row no longer have the test.\n\n";
  md += markdown_table({"", ""}, {{"Flakes recorded", std::to_string(s.flakes)},
                                  {"Green main runs in a row", std::to_string(s.greens) + " of " +
                                                                   std::to_string(rules.close_after_greens)},
                                  {"Daily runs without the test", std::to_string(s.absences) + " of " +
                                                                      std::to_string(rules.close_after_absences)},
                                  {"First seen", or_dash(s.first_seen)},
                                  {"Last flake", or_dash(s.last_flake)},
                                  {"Last run", s.last_run.empty() ? "-" : link("run", s.last_run)}});
  md += "\n";
  const std::size_t room = md.size() + kFailureMark.size() + 1 < kMaxBodyBytes ? kMaxBodyBytes - md.size() - kFailureMark.size() - 1 : 0;
  if (!failure_section.empty()) md += std::string(kFailureMark) + "\n" + shorten(failure_section, room);
  return md;
}

std::string failure_section(const FlakeText& flake, std::string_view run_url, std::size_t max_bytes) {
  std::string md = "### Last failure (" + link("run", run_url) + ")\n\n";
  if (!flake.file.empty())
    md += "In " + markdown_code(flake.file + (flake.line > 0 ? ":" + std::to_string(flake.line) : "")) + ".\n\n";
  md += code_block(shorten(flake.message.empty() ? "(no message)" : flake.message, 2000));
  const std::size_t used = md.size() + 64;
  if (!flake.detail.empty() && used < max_bytes)
    md += "\n<details><summary>Output</summary>\n\n" + code_block(shorten(flake.detail, max_bytes - used)) +
          "\n</details>\n";
  return md;
}

std::string failure_section_of(std::string_view body) {
  const auto at = body.find(std::string("\n") + std::string(kFailureMark) + "\n");
  if (at == std::string_view::npos) return "";
  return std::string(body.substr(at + kFailureMark.size() + 2));
}

std::string flake_comment(const FlakeText& flake, const RunStamp& run, bool reopened) {
  std::string md = std::string(reopened ? "Reopened: this test flaked again" : "Flaked again") + " in a " +
                   std::string(to_string(run.kind)) + " " + link("run", run.url) + " (" + markdown_text(run.time, false) + ").\n\n";
  md += code_block(shorten(flake.message.empty() ? "(no message)" : flake.message, 2000));
  if (!flake.detail.empty()) md += code_block(shorten(flake.detail, kMaxCommentBytes - std::min<std::size_t>(md.size() + 64, kMaxCommentBytes)));
  return md;
}

std::string close_comment(IssueMove move, const Rules& rules, const RunStamp& run) {
  if (move == IssueMove::close_green)
    return "Closing: " + std::to_string(rules.close_after_greens) +
           " green runs in a row on main since the last flake" + last_run(run.url) + ".\n";
  return "Closing: the test no longer exists: " + std::to_string(rules.close_after_absences) +
         " daily runs in a row did not have it" + last_run(run.url) + ".\n";
}

std::string duplicate_comment(std::int64_t canonical) {
  return "Duplicate of #" + std::to_string(canonical) +
         " (two runs opened an issue for the same test at once); flaky-tracker keeps the lower number.\n";
}

}  // namespace gatekit::flaky_tracker
