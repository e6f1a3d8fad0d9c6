// The path gate's GPU filter as the gate reads it: see gpu_filter.hpp.
#include "scope/gpu_filter.hpp"

#include "gatekit/git.hpp"
#include "gatekit/text.hpp"
#include "scope/scope.hpp"

namespace gatekit::gpu_gate {
namespace {

const std::string& text_of(const std::vector<path_rules::PatternSource>& list, int index) {
  static const std::string none;
  return index < 0 ? none : list[static_cast<std::size_t>(index)].text;
}

std::string filter_names(const path_rules::Rules& rules) {
  std::vector<std::string> names;
  for (const auto& f : rules.filters) names.push_back(quote_for_message(f.name));
  return join(names, ", ");
}

}  // namespace

std::string GpuFilter::why_taken(std::string_view path, std::string_view type) const {
  if (self_protect && path == rules_path)
    return "it is the path gate's rules file: a change to it makes every filter relevant (self-protect)";
  if (const auto folder = scope_folder_holding(path, scope_folders))
    return "the gate's scope holds it (" + quote_for_message(*folder + (folder->ends_with('/') ? "**" : "/**")) + ")";
  if (const auto extra = scope_extras.empty() ? glob::ListVerdict{} : scope_extras.evaluate(path); extra.included)
    return "the gate's scope holds it (" +
           quote_for_message(scope_extras.patterns()[static_cast<std::size_t>(extra.decisive)].text()) + ")";
  const auto relevance = path_rules::relevance(filter, path, type);
  if (!relevance.relevant) return "";
  const std::string named = "the " + quote_for_message(filter.name) + " filter";
  if (relevance.from_always)
    return named + " takes it (always " + quote_for_message(text_of(filter.always, relevance.pattern)) + ")";
  if (filter.mode == path_rules::Mode::deny)
    return named + " (mode: deny) does not exclude it" +
           (relevance.pattern < 0 ? std::string() : " (" + quote_for_message(text_of(filter.paths, relevance.pattern)) + ")");
  return named + " takes it (" + quote_for_message(text_of(filter.paths, relevance.pattern)) + ")";
}

Result<std::optional<GpuFilter>> gpu_filter_of(const Config& config, const std::optional<std::string>& text,
                                               const std::string& rev_name) {
  const GpuFilterSetting& setting = config.gpu_filter;
  if (!setting.enabled) return std::optional<GpuFilter>{};
  const std::string origin = rev_name + ":" + setting.rules;
  if (!text) {
    if (setting.at.empty()) return std::optional<GpuFilter>{};
    return bad_input(setting.at + ": gpu_filter.rules: " + rev_name + " has no file " + quote_for_message(setting.rules));
  }
  if (text->size() > kMaxRulesBytes)
    return could_not_evaluate("cannot read the path gate's rules " + origin + ": larger than " +
                              std::to_string(kMaxRulesBytes) + " bytes");
  std::optional<glob::Dialect> dialect;
  if (!setting.dialect.empty()) dialect = glob::parse_dialect(setting.dialect);
  std::optional<path_rules::Quantifier> quantifier;
  if (!setting.quantifier.empty()) quantifier = path_rules::parse_quantifier(setting.quantifier);
  auto rules = path_rules::load_rules_text(*text, origin, dialect, quantifier);
  if (!rules) return rules.error();
  const auto* found = rules->find(setting.filter);
  if (found == nullptr)
    return bad_input(origin + ": no filter " + quote_for_message(setting.filter) + " (its filters: " + filter_names(*rules) +
                     "): name the filter that runs the GPU suites in gpu_filter.filter" +
                     (setting.at.empty() ? std::string(" (default 'gpu')") : " (" + setting.at + ")"));
  auto extras = compile_extras(config);
  if (!extras) return extras.error();
  GpuFilter out;
  out.filter = std::move(rules->filters[static_cast<std::size_t>(found - rules->filters.data())]);
  out.rules_path = setting.rules;
  out.self_protect = rules->self_protect;
  out.origin = origin;
  out.scope_folders = config.scope_folders;
  out.scope_extras = std::move(*extras);
  return std::optional<GpuFilter>(std::move(out));
}

}  // namespace gatekit::gpu_gate
