#include "issues_summary.hpp"

#include "gatekit/text.hpp"
#include "summary.hpp"

namespace gatekit::flaky_tracker {

namespace {

constexpr std::size_t kMaxRows = 100;

std::string issue_link(std::int64_t number, const std::string& url) {
  return number == 0 ? "-" : markdown_link("#" + std::to_string(number), url);
}

std::string flaky_table(const IssuesView& view, const Tracker& tracker) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : view.run.flakes) {
    if (rows.size() >= kMaxRows) break;
    std::string what = "not recorded (the API failed)";
    std::int64_t number = 0;
    std::string url;
    for (const auto& c : tracker.changes())
      if (c.id == f.id) what = c.what, number = c.number, url = c.url;
    if (auto it = tracker.issues().find(f.id); it != tracker.issues().end() && number == 0)
      number = it->second.number, url = it->second.url, what = view.error.empty() ? "already recorded" : what;
    if (number == 0 && tracker.was_deferred(f.id))
      what = view.pending.empty() ? "no issue: the run's bound on new issues was reached"
                                  : "kept for a later run: the run's bound on new issues was reached";
    rows.push_back({markdown_code(f.id), issue_link(number, url), markdown_text(what)});
  }
  return markdown_table({"Test", "Issue", "What happened"}, rows);
}

std::string open_table(const Tracker& tracker, const Rules& rules) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [id, issue] : tracker.issues()) {
    if (issue.state != "open" || rows.size() >= kMaxRows) continue;
    auto state = parse_state(issue.body);
    const IssueState s = state ? *state : IssueState{};
    rows.push_back({issue_link(issue.number, issue.url), markdown_code(shorten(id, 300)), std::to_string(s.flakes),
                    std::to_string(s.greens) + " of " + std::to_string(rules.close_after_greens),
                    std::to_string(s.absences) + " of " + std::to_string(rules.close_after_absences),
                    s.last_flake.empty() ? "-" : markdown_text(s.last_flake)});
  }
  if (rows.empty()) return "No open flaky-test issue.\n";
  return markdown_table({"Issue", "Test", "Flakes", "Green main runs", "Daily absences", "Last flake"}, rows);
}

std::string closed_table(const Tracker& tracker) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : tracker.changes())
    if (c.what.starts_with("closed") && rows.size() < kMaxRows)
      rows.push_back({issue_link(c.number, c.url), markdown_code(shorten(c.id, 300)), markdown_text(c.what)});
  return rows.empty() ? "" : "### Closed by this run\n\n" + markdown_table({"Issue", "Test", "Why"}, rows) + "\n";
}

std::string dropped_section(const JournalDrop& d) {
  std::string md = "> [!WARNING]\n> The journal is full: " + std::to_string(d.flakes) + " flake(s) and " +
                   std::to_string(d.comments) + " comment(s) were dropped, oldest first. Their tests:\n";
  for (std::size_t i = 0; i < d.tests.size() && i < kMaxRows; ++i) md += "> - " + markdown_code(shorten(d.tests[i], 300)) + "\n";
  if (d.tests.size() > kMaxRows) md += "> - and " + std::to_string(d.tests.size() - kMaxRows) + " more\n";
  return md + "\n";
}

std::string not_adopted_section(const Tracker& tracker) {
  if (tracker.not_adopted().empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& n : tracker.not_adopted())
    if (rows.size() < kMaxRows)
      rows.push_back({issue_link(n.number, n.url), markdown_code(shorten(n.id, 300)),
                      n.author.empty() ? "-" : markdown_code(shorten(n.author, 60))});
  return "### Issues left alone\n\nThey carry a flaky-test marker, but flaky-tracker's identity did not open them.\n\n" +
         markdown_table({"Issue", "Test", "Opened by"}, rows) + "\n";
}

std::string refused_section(const Tracker& tracker) {
  if (tracker.refused().empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : tracker.refused())
    if (rows.size() < kMaxRows)
      rows.push_back({markdown_text("#" + std::to_string(r.comment.issue)),
                      r.comment.id.empty() ? "-" : markdown_code(shorten(r.comment.id, 300)), markdown_text(r.reason)});
  if (tracker.refused().size() > kMaxRows)
    rows.push_back({"", "and " + std::to_string(tracker.refused().size() - kMaxRows) + " more", ""});
  return "### Journalled comments set aside\n\nThe journal named these issues, but none is the issue flaky-tracker "
         "keeps for the comment's test: nothing was posted to them (each comment's text is in the log).\n\n" +
         markdown_table({"Issue", "Test", "Why"}, rows) + "\n";
}

std::string changed_section(const Tracker& tracker) {
  if (tracker.changed().empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : tracker.changed())
    if (rows.size() < kMaxRows)
      rows.push_back({issue_link(c.number, c.url), markdown_code(shorten(c.id, 300)),
                      c.marker.empty() ? "-" : markdown_code(shorten(c.marker, 300))});
  return "### Issues changed under the run\n\nListed as a test's issue, read again their marker names another test: "
         "left alone for the listed test.\n\n" +
         markdown_table({"Issue", "Listed for", "Marker now"}, rows) + "\n";
}

}  // namespace

std::string issues_summary(const IssuesView& view, const Tracker& tracker, const Rules& rules) {
  std::string md = "## flaky-tracker: issues (" + std::string(to_string(view.run.run.kind)) + " run)\n\n";
  if (!view.error.empty())
    md += "> [!WARNING]\n> The issues were not updated: " + markdown_text(view.error, false) + ". " +
          std::to_string(view.left) + " run(s) with flakes are kept for the next run to record.\n\n";
  if (!view.set_aside.empty())
    md += "> [!WARNING]\n> The journal " + markdown_code(shorten(view.pending, 300)) + " could not be read (" +
          markdown_text(shorten(view.unreadable, 300), false) + "): it is set aside, whole, as " +
          markdown_code(shorten(view.set_aside, 300)) +
          " (its content is in the log), and this run went on without it: what it held was not applied.\n\n";
  if (view.unposted > 0)
    md += "> [!WARNING]\n> " + std::to_string(view.unposted) +
          " comment(s) could not be posted; they are kept for the next run to post.\n\n";
  if (view.deferred > 0)
    md += "> [!WARNING]\n> This run opened " + std::to_string(tracker.opened()) +
          " new issue(s), the most one run may (`--max-new-issues " + std::to_string(view.max_new_issues) + "`): " +
          std::to_string(view.deferred) + " flake(s) of tests without an issue " +
          (view.pending.empty() ? "are not kept (no `--pending` journal)"
                                : "are kept in the journal; the next runs open their issues, oldest first") +
          ".\n\n";
  if (!view.dropped.empty()) md += dropped_section(view.dropped);
  if (view.caught_up > 0 && view.left == 0)
    md += "Caught up with " + std::to_string(view.caught_up) + " earlier run(s) whose updates had failed.\n\n";
  md += "### Flaky tests of this run\n\n";
  md += view.run.flakes.empty() ? "None.\n\n" : flaky_table(view, tracker) + "\n";
  if (view.error.empty()) md += "### Open flaky-test issues\n\n" + open_table(tracker, rules) + "\n" + closed_table(tracker);
  md += not_adopted_section(tracker);
  md += changed_section(tracker);
  md += refused_section(tracker);
  return md;
}

}  // namespace gatekit::flaky_tracker
