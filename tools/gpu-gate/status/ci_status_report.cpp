#include "status/ci_status_report.hpp"

#include <chrono>

#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

namespace {

std::string_view state_mark(GateState state) {
  switch (state) {
    case GateState::success: return "✅";
    case GateState::failure: return "❌";
    case GateState::pending: return "⏳";
  }
  return "⏳";
}

std::string age(std::int64_t now, std::int64_t time) {
  if (time > now) return "in the future";
  return format_duration(std::chrono::seconds(now - time)) + " ago";
}

std::string tests_cell(const TestCounts& counts) {
  std::string text = std::to_string(counts.passed) + " passed";
  if (counts.failed > 0) text += ", " + std::to_string(counts.failed) + " failed";
  if (counts.errors > 0) text += ", " + std::to_string(counts.errors) + " errors";
  if (counts.skipped > 0) text += ", " + std::to_string(counts.skipped) + " skipped";
  return text;
}

std::string signature_cell(const ConsideredResult& result) {
  if (!result.signature) return "not verified";
  const auto& signature = *result.signature;
  if (signature.check == SignatureCheck::trusted) return "signed by " + markdown_code(signature.signer);
  std::string text(to_string(signature.check));
  if (!signature.key.empty()) text += " (" + markdown_code(signature.key) + ")";
  return text;
}

std::string outside_cell(const std::vector<std::string>& paths) {
  constexpr std::size_t kShown = 10;
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < paths.size() && i < kShown; ++i) shown.push_back(markdown_code(paths[i]));
  std::string text = join(shown, ", ");
  if (paths.size() > kShown) text += " (+" + std::to_string(paths.size() - kShown) + " more)";
  return text;
}

std::string trusted_cell(const CiReport& report) {
  std::string text = report.base == report.default_branch || report.default_branch.empty()
                         ? "from the default branch " + markdown_code(report.base)
                         : "from " + markdown_code(report.base) +
                               ", a trusted base the default branch's configuration lists";
  if (!report.refused_base.empty())
    text += "; the base " + markdown_code(report.refused_base) + " is not trusted";
  return text + ", never the pull request";
}

std::string facts_table(const CiReport& report, std::int64_t now) {
  const auto& status = report.decision.status;
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"commit", markdown_code(report.sha) + (report.pr.empty() ? "" : " (head of pull request #" + report.pr + ")")});
  rows.push_back({"tree", markdown_code(status.tree)});
  std::string counts = "no result";
  if (status.record) {
    counts = "the result of " + markdown_code(short_commit(status.source)) + " from machine " +
             markdown_code(status.record->machine) + ", " + age(now, status.record->time);
  } else if (status.source_kind == StatusSource::no_code_change) {
    counts = "none needed: the change since the merge base with " + markdown_code(report.base) + " touches documentation only";
  } else if (status.source_kind == StatusSource::no_gpu_change) {
    counts = "none needed: the change since the merge base with " + markdown_code(report.base) +
             " needs no GPU result (nothing the GPU filter takes)";
  }
  rows.push_back({"what counts", counts});
  if (!status.outside_filter.empty()) rows.push_back({"outside the GPU filter", outside_cell(status.outside_filter)});
  rows.push_back({"GPU filter", report.gpu_filter.empty()
                                    ? std::string("none: every change outside the docs needs a result")
                                    : markdown_text(report.gpu_filter)});
  rows.push_back({"trusted files", trusted_cell(report)});
  rows.push_back({"signatures", report.allowed_signers.empty()
                                    ? std::string("not verified (the configuration names no allowed-signers file)")
                                    : "required: a key of " + markdown_code(report.allowed_signers) + "; " +
                                          std::to_string(report.decision.ignored) + " result(s) left out"});
  rows.push_back({"status", report.posted ? "posted as " + markdown_code(report.context)
                                          : std::string("computed only (not posted)")});
  return markdown_table({"", ""}, rows);
}

std::string results_table(const CiReport& report, std::int64_t now) {
  if (report.decision.results.empty())
    return "No published gate result for this commit or the ancestors it could inherit from (docs-only or no "
           "GPU-relevant steps).\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& result : report.decision.results) {
    const auto& r = result.record;
    rows.push_back({markdown_code(r.machine), markdown_code(short_commit(r.commit)), std::string(to_string(r.verdict)),
                    tests_cell(r.counts), age(now, r.time), signature_cell(result), result.counted ? "yes" : "**no**"});
  }
  return markdown_table({"machine", "tested commit", "verdict", "tests", "ran", "signature", "counts"}, rows);
}

// The inheritance as a picture: the head, the docs-only steps, the commit whose result counts.
std::string inheritance_chart(const CiReport& report) {
  const auto& status = report.decision.status;
  if (status.source_kind != StatusSource::inherited || !status.record) return "";
  const std::string steps = status.outside_filter.empty() ? "docs-only changes" : "no GPU-relevant changes";
  return "```mermaid\nflowchart LR\n  head[\"" + short_commit(report.sha) + " (head)\"] -- \"" + steps + "\" --> source[\"" +
         short_commit(status.source) + " " + std::string(to_string(status.record->verdict)) + " on " +
         status.record->machine + "\"]\n```\n\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ci_outputs(const CiReport& report) {
  const auto& status = report.decision.status;
  return {{"result", "pass"},
          {"state", std::string(to_string(status.state))},
          {"description", status.description},
          {"tree", status.tree},
          {"source", status.source},
          {"ignored", std::to_string(report.decision.ignored + static_cast<int>(status.ignored.size()))},
          {"posted", report.posted ? "true" : "false"}};
}

std::string ci_summary(const CiReport& report, std::int64_t now) {
  const auto& status = report.decision.status;
  std::string text = "## " + markdown_text(report.context) + ": " + std::string(state_mark(status.state)) + " " +
                     std::string(to_string(status.state)) + " — " + markdown_text(status.description, false) + "\n\n";
  text += facts_table(report, now) + "\n";
  text += inheritance_chart(report);
  text += "### Results considered\n\n" + results_table(report, now) + "\n";
  if (!report.decision.left_out.empty()) {
    text += "### Left out\n\n";
    for (const auto& line : report.decision.left_out) text += "- " + markdown_text(line) + "\n";
    text += "\n";
  }
  if (report.decision.kept_failure)
    text += "A failure was posted before for this commit or its tree (result of " +
            format_utc(*report.decision.remembered_failure) +
            ") and no newer result counts now: the failure stays. A result ref can be deleted; the statuses GitHub "
            "keeps cannot (docs/gpu-gate.md, \"Results in git\").\n\n";
  if (!report.refused_base.empty())
    text += "The base " + markdown_code(report.refused_base) + " is neither the default branch nor a trusted base "
            "that the default branch's configuration lists (`trusted_bases`): its configuration and allowed signers "
            "count for nothing, and the files of the default branch " + markdown_code(report.base) +
            " decided (docs/gpu-gate.md, \"Trust model\").\n\n";
  if (report.decision.ignored_mattered)
    text += "An unsigned or foreign result was left out and would have changed the status: only results signed by "
            "a key of the trusted branch's allowed-signers file count (docs/gpu-gate.md, \"Trust model\").\n\n";
  return text;
}

}  // namespace gatekit::gpu_gate
