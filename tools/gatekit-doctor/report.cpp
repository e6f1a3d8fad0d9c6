// The doctor's report for the log and the job summary (report.hpp).
#include "report.hpp"

#include <algorithm>

#include "gatekit/text.hpp"

namespace gatekit::gatekit_doctor {

namespace {

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string heading(const Setup& setup) {
  return "gatekit-doctor: " + setup.repository + ", branch " + setup.branch;
}

std::vector<std::string> facts(const Setup& setup, const Report& report) {
  std::vector<std::string> out;
  out.push_back("required checks: " + std::to_string(report.checks.size()));
  out.push_back("merge queue: " + (report.merge_queue ? "on (" + join(setup.merge_queue_rules, ", ") + ")"
                                                      : std::string("off")));
  out.push_back("workflows: " + plural(setup.workflows.size(), "file", "files") + " from " + setup.workflows_from);
  if (setup.gate_mode) out.push_back("GPU gate: " + *setup.gate_mode + " mode (" + setup.gate_mode_from + ")");
  return out;
}

std::string verdict_text(const Report& report) {
  switch (report.exit_code()) {
    case ExitCode::pass: return "all is well (exit 0)";
    case ExitCode::verdict_fail:
      return plural(report.findings.size(), "finding", "findings") + " (exit 1)";
    default:
      return plural(report.findings.size(), "finding", "findings") + ", and " +
             plural(report.gaps.size(), "thing", "things") + " could not be read (exit 3)";
  }
}

// The finding that a check's row points at ("1", "1, 3").
std::string findings_of(const Report& report, const std::string& check) {
  std::string out;
  for (std::size_t i = 0; i < report.findings.size(); ++i)
    if (report.findings[i].check == check) out += (out.empty() ? "" : ", ") + std::to_string(i + 1);
  return out;
}

// Columns of a plain-text table: one per UTF-8 code point (check names are mostly ASCII).
std::size_t width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// Aligned columns; outside text with controls is laid out as the log shows it (escaped).
std::vector<std::string> table_lines(const std::vector<std::string>& header,
                                     std::vector<std::vector<std::string>> rows) {
  for (auto& row : rows)
    for (auto& cell : row) cell = visible_controls(cell);
  std::vector<std::size_t> widths(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) {
    widths[i] = width(header[i]);
    for (const auto& row : rows) widths[i] = std::max(widths[i], width(row[i]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out = " ";
    for (std::size_t i = 0; i < cells.size(); ++i) {
      out += " " + cells[i];
      if (i + 1 < cells.size()) out += std::string(widths[i] - width(cells[i]) + 1, ' ');
    }
    return out;
  };
  std::vector<std::string> out{line(header)};
  for (const auto& row : rows) out.push_back(line(row));
  return out;
}

}  // namespace

std::string permission_text(const std::string& permission) {
  return "the token needs " + permission +
         " (a fine-grained token's or GitHub App's repository permission; a classic token: the repo scope)";
}

std::vector<std::string> report_lines(const Setup& setup, const Report& report) {
  std::vector<std::string> out{heading(setup)};
  for (const auto& fact : facts(setup, report)) out.push_back("  " + fact);
  out.emplace_back();
  if (report.checks.empty()) {
    out.push_back("No required status check applies to " + setup.branch + ".");
  } else {
    out.push_back("Required checks:");
    std::vector<std::vector<std::string>> rows;
    for (const auto& row : report.checks) {
      const auto numbers = findings_of(report, row.context);
      rows.push_back({row.context, row.rules, row.source, row.produced_by.empty() ? "-" : row.produced_by,
                      row.ok ? "ok" : (numbers.empty() ? "not checked" : "finding " + numbers)});
    }
    for (auto& line : table_lines({"check", "rule", "source", "reported by", "verdict"}, rows)) out.push_back(line);
  }
  if (!report.findings.empty()) {
    out.emplace_back();
    out.push_back("Findings:");
    for (std::size_t i = 0; i < report.findings.size(); ++i) {
      const auto& f = report.findings[i];
      out.push_back("  " + std::to_string(i + 1) + ". " + std::string(to_string(f.kind)) + ": " + f.check + " (" +
                    f.where + ")");
      out.push_back("     problem: " + f.problem);
      out.push_back("     fix: " + f.fix);
    }
  }
  if (!report.gaps.empty()) {
    out.emplace_back();
    out.push_back("Could not be read:");
    for (const auto& gap : report.gaps) {
      out.push_back("  - " + gap.what + ": " + gap.why);
      out.push_back("    " + permission_text(gap.permission));
    }
  }
  if (!report.notes.empty()) {
    out.emplace_back();
    for (const auto& note : report.notes) out.push_back("Note: " + note);
  }
  out.emplace_back();
  out.push_back("Verdict: " + verdict_text(report));
  return out;
}

std::string report_markdown(const Setup& setup, const Report& report) {
  std::string md = "## gatekit doctor: " + markdown_code(setup.repository) + ", branch " +
                   markdown_code(setup.branch) + "\n\n";
  for (const auto& fact : facts(setup, report)) md += "- " + markdown_text(fact) + "\n";
  md += "\n";
  if (!report.checks.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& row : report.checks) {
      const auto numbers = findings_of(report, row.context);
      rows.push_back({markdown_code(row.context), markdown_text(row.rules), markdown_text(row.source),
                      row.produced_by.empty() ? "—" : markdown_text(row.produced_by),
                      row.ok ? "✅ ok" : (numbers.empty() ? "❔ not checked" : "❌ finding " + numbers)});
    }
    md += markdown_table({"required check", "rule", "source", "reported by", "verdict"}, rows) + "\n";
  } else {
    md += markdown_text("No required status check applies to " + setup.branch + ".") + "\n\n";
  }
  if (!report.findings.empty()) {
    md += "### Findings\n\n";
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < report.findings.size(); ++i) {
      const auto& f = report.findings[i];
      rows.push_back({std::to_string(i + 1), markdown_code(f.check) + " " + markdown_text(std::string(to_string(f.kind))),
                      markdown_text(f.problem), markdown_text(f.fix)});
    }
    md += markdown_table({"#", "check", "problem", "fix"}, rows) + "\n";
  }
  if (!report.gaps.empty()) {
    md += "### Could not be read\n\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& gap : report.gaps)
      rows.push_back({markdown_text(gap.what), markdown_text(gap.why), markdown_text(gap.permission)});
    md += markdown_table({"what", "why", "permission"}, rows) + "\n";
  }
  for (const auto& note : report.notes) md += "> " + markdown_text(note, false) + "\n\n";
  md += "**Verdict:** " + markdown_text(verdict_text(report), false) + "\n";
  return md;
}

}  // namespace gatekit::gatekit_doctor
