#include "summary.hpp"

#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit::flaky_tracker {

namespace {

constexpr std::size_t kMaxSummaryRows = 100;

std::string count(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

std::string shorten(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const std::string_view ellipsis = "\xE2\x80\xA6";
  const std::size_t budget = max_bytes > ellipsis.size() ? max_bytes - ellipsis.size() : 0;
  std::size_t end = 0;
  while (end < text.size()) {
    const Utf8Char c = decode_utf8(text, end);
    if (end + c.length > budget) break;
    end += c.length;
  }
  return to_valid_utf8(text.substr(0, end)) + std::string(ellipsis);
}

std::string rerun_summary(const RerunVerdict& verdict, const RerunPlan& plan, std::size_t cases, int times) {
  std::string md = "## flaky-tracker: rerun\n\n";
  if (verdict.code == ExitCode::pass)
    md += verdict.flaky.empty() ? "**Pass**: no test failed.\n\n"
                                : "**Pass, with a warning**: " + count(verdict.flaky.size(), "flaky test") +
                                      " failed, then passed on rerun.\n\n";
  else
    md += "**Fail**: " + count(verdict.failed.size(), "test") + " failed for real" +
          (plan.broken.empty() ? "." : " (" + markdown_text(plan.broken, false) + ").") + "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : verdict.flaky)
    if (rows.size() < kMaxSummaryRows) rows.push_back({markdown_code(f.id), "flaky", markdown_text(shorten(f.how, 200))});
  for (const auto& f : verdict.failed)
    if (rows.size() < kMaxSummaryRows) rows.push_back({markdown_code(f.id), "failed", markdown_text(shorten(f.reason, 300))});
  if (!rows.empty()) md += markdown_table({"Test", "Verdict", "What happened"}, rows) + "\n";
  const std::size_t listed = verdict.flaky.size() + verdict.failed.size();
  if (listed > rows.size()) md += "\n" + std::to_string(listed - rows.size()) + " more not shown.\n";
  md += "\n" + count(cases, "test") + " in the report; " + count(plan.failures, "failure") + " in the first run; " +
        count(plan.targets.size(), "test") + " rerun alone (up to " + count(static_cast<std::size_t>(times), "time") +
        " each).\n";
  return md;
}

}  // namespace gatekit::flaky_tracker
