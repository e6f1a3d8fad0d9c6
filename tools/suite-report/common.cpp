#include "common.hpp"

#include <chrono>

#include "gatekit/text.hpp"

namespace gatekit::suite_report {

Selection load_selection(const SelectionOptions& options, const Files& files) {
  return value_or_throw(load_selection_file(files, options.selection));
}

std::string resolve_context(const ContextOptions& options, const RunInfo& run) {
  if (!options.context.empty()) {
    if (!known_context(options.context))
      fail_bad_input("unknown context '" + options.context + "' (contexts: pr, main, daily, gate, gate-full)");
    return options.context;
  }
  return value_or_throw(context_from_event(run.event_name));
}

std::vector<std::string> matrix_values(const VariantsOptions& options) {
  std::vector<std::string> values;
  for (const auto& given : options.variants) {
    std::string value;
    for (std::size_t i = 0; i <= given.size(); ++i) {
      if (i < given.size() && given[i] != ',' && given[i] != ' ') {
        value += given[i];
        continue;
      }
      if (value.empty()) continue;
      if (value.size() > 100 || visible_controls(value) != value)
        fail_bad_input("--variants: '" + visible_controls(value.substr(0, 100)) + "' is not a matrix value (one line, at most 100 characters)");
      values.push_back(std::move(value));
      value.clear();
    }
  }
  return values;
}

const Leg& require_leg(const Selection& selection, const std::string& name) {
  std::vector<std::string> names;
  for (const auto& leg : selection.legs) names.push_back(leg.name);
  if (name.empty()) fail_bad_input("--leg is required (legs in " + selection.origin + ": " + join(names, ", ") + ")");
  const Leg* leg = selection.find_leg(name);
  if (leg == nullptr)
    fail_bad_input("no leg named '" + name + "' in " + selection.origin + " (legs: " + join(names, ", ") + ")");
  return *leg;
}

std::string markdown_id_list(const std::vector<std::string>& ids, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < limit; ++i) out += "- " + markdown_code(ids[i]) + "\n";
  if (ids.size() > limit) out += "- ... and " + std::to_string(ids.size() - limit) + " more (the log lists every one)\n";
  return out;
}

std::string markdown_id_list(const std::vector<std::string>& ids, std::size_t limit, std::size_t total) {
  std::string out;
  std::size_t shown = 0;
  for (; shown < ids.size() && shown < limit; ++shown) out += "- " + markdown_code(ids[shown]) + "\n";
  if (total > shown) out += "- ... and " + std::to_string(total - shown) + " more\n";
  return out;
}

std::string file_of(const std::string& node_id) {
  const auto cut = node_id.find("::");
  if (cut == std::string::npos || cut == 0) return "";
  return node_id.substr(0, cut);
}

void annotate_first(Workflow& workflow, Severity severity, const std::string& title, const std::vector<Note>& notes,
                    std::size_t limit) {
  for (std::size_t i = 0; i < notes.size() && i < limit; ++i) {
    Annotation annotation;
    annotation.severity = severity;
    annotation.title = title;
    annotation.file = notes[i].file;
    annotation.line = notes[i].line;
    annotation.message = notes[i].message;
    workflow.annotate(annotation);
  }
  if (notes.size() > limit)
    workflow.log(std::to_string(notes.size() - limit) + " more not annotated (GitHub shows " +
                 std::to_string(limit) + " per step): see the lines above and the job summary");
}

std::string duration(double seconds) {
  return format_duration(std::chrono::milliseconds(static_cast<long long>(seconds * 1000 + 0.5)));
}

}  // namespace gatekit::suite_report
