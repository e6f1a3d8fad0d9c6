#include "report.hpp"

#include <algorithm>
#include <sstream>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::path_classifier {

namespace json = boost::json;

std::string decision_json(const Decision& d) {
  json::object filters;
  for (const auto& f : d.filters) {
    json::object o;
    o["relevant"] = f.relevant;
    o["mode"] = std::string(to_string(f.mode));
    o["reason"] = std::string(to_string(f.reason));
    o["file"] = f.file.empty() ? json::value(nullptr) : json::value(f.file);
    o["renamed_to"] = f.renamed_to.empty() ? json::value(nullptr) : json::value(f.renamed_to);
    o["pattern"] = f.pattern.empty() ? json::value(nullptr) : json::value(f.pattern);
    o["list"] = f.pattern.empty() ? json::value(nullptr) : json::value(f.from_always ? "always" : "paths");
    o["pattern_index"] = f.pattern_index < 0 ? json::value(nullptr) : json::value(f.pattern_index);
    o["why"] = f.why;
    filters[f.filter] = std::move(o);
  }
  json::object root;
  root["event"] = d.event;
  root["source"] = d.source;
  root["files"] = d.files;
  root["fail_open"] = d.fail_open ? json::value(*d.fail_open) : json::value(nullptr);
  root["filters"] = std::move(filters);
  return json::serialize(root);
}

std::vector<std::pair<std::string, std::string>> step_outputs(const Decision& d) {
  std::vector<std::pair<std::string, std::string>> out;
  json::array changes;
  json::object flags;
  for (const auto& f : d.filters) {
    out.emplace_back(f.filter, f.relevant ? "true" : "false");
    if (f.relevant) changes.emplace_back(f.filter);
    flags[f.filter] = f.relevant;
  }
  out.emplace_back("changes", json::serialize(changes));
  out.emplace_back("filters", json::serialize(flags));
  out.emplace_back("decision", decision_json(d));
  return out;
}

namespace {

// Outside text (paths, patterns, filter names, messages) reaches the summary only through
// markdown_code and markdown_text: it cannot break the table or start markup.
std::string code(const std::string& s) { return s.empty() ? "—" : markdown_code(s); }

// The `why` sentence: its quoted values (the decisive path, the other name of a rename, the
// pattern) as code spans, the rest as escaped prose.
std::string why_markdown(const FilterDecision& f) {
  std::vector<std::string> quoted;
  for (const auto* v : {&f.file, &f.renamed_to, &f.pattern})
    if (!v->empty()) quoted.push_back("`" + *v + "`");
  std::sort(quoted.begin(), quoted.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  std::string out, prose;
  std::size_t i = 0;
  while (i < f.why.size()) {
    const auto hit = std::find_if(quoted.begin(), quoted.end(),
                                  [&](const std::string& q) { return f.why.compare(i, q.size(), q) == 0; });
    if (hit == quoted.end()) {
      prose += f.why[i++];
      continue;
    }
    out += markdown_text(prose, out.empty()) + markdown_code(hit->substr(1, hit->size() - 2));
    prose.clear();
    i += hit->size();
  }
  return out + markdown_text(prose, out.empty());
}

bool non_pr(const Decision& d) { return !d.filters.empty() && d.filters[0].reason == Reason::non_pr_event; }

std::string nothing_relevant_line() {
  return "No filter is relevant: jobs gated on these outputs will be skipped, and the required check "
         "(the aggregator job) still reports.";
}

}  // namespace

std::string summary_markdown(const Decision& d, const std::vector<std::string>& warnings) {
  std::ostringstream s;
  s << "## Path gate\n\n";
  const auto relevant = d.relevant();
  std::vector<std::string> skipped;
  for (const auto& f : d.filters)
    if (!f.relevant) skipped.push_back(markdown_code(f.filter));
  if (relevant.empty()) {
    s << "**" << nothing_relevant_line() << "**\n\n";
  } else {
    std::vector<std::string> names;
    for (const auto& r : relevant) names.push_back(markdown_code(r));
    s << "**Runs:** " << join(names, ", ");
    if (!skipped.empty()) s << " · **skipped:** " << join(skipped, ", ");
    s << "\n\n";
  }
  if (d.fail_open)
    s << "> [!WARNING]\n> Fail-open: " << markdown_text(*d.fail_open, false) << ". Every filter is relevant.\n\n";
  if (non_pr(d))
    s << "Event " << code(d.event) << " is not a pull request, so every filter is relevant "
      << "(`non-pr-events: evaluate` in the rules diffs pushes instead).\n\n";
  else
    s << "Event " << code(d.event) << "; " << d.files << (d.files == 1 ? " changed file" : " changed files") << " from "
      << markdown_text(d.source, false) << ".\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : d.filters) {
    std::string file = code(f.file);
    if (!f.renamed_to.empty()) file += " → " + markdown_code(f.renamed_to);
    std::string pattern = code(f.pattern);
    if (!f.pattern.empty()) {
      pattern += f.from_always ? " (always" : " (#" + std::to_string(f.pattern_index + 1);
      if (f.pattern_line > 0) pattern += ", line " + std::to_string(f.pattern_line);
      pattern += ")";
    }
    rows.push_back({markdown_code(f.filter), std::string(to_string(f.mode)), f.relevant ? "✅ runs" : "⏭️ skipped",
                    file, pattern, why_markdown(f)});
  }
  s << markdown_table({"Filter", "Mode", "Verdict", "Decisive file", "Pattern", "Why"}, rows) << "\n";
  if (!warnings.empty()) {
    s << "<details><summary>" << warnings.size() << (warnings.size() == 1 ? " rule warning" : " rule warnings")
      << "</summary>\n\n";
    for (const auto& w : warnings) s << "- " << markdown_text(w) << "\n";
    s << "\n</details>\n\n";
  }
  return s.str();
}

std::vector<std::string> log_lines(const Decision& d) {
  std::vector<std::string> out;
  if (non_pr(d))
    out.push_back("Event " + d.event + " is not a pull request: no file listing needed, every filter is relevant");
  else
    out.push_back("Changed files: " + std::to_string(d.files) + " from " + d.source + " (event " + d.event + ")");
  for (const auto& f : d.filters)
    out.push_back(f.filter + " (" + std::string(to_string(f.mode)) + "): " + (f.relevant ? "relevant" : "not relevant") +
                  " - " + f.why);
  const auto relevant = d.relevant();
  if (relevant.empty()) out.push_back(nothing_relevant_line());
  else out.push_back("Relevant: " + join(relevant, ", "));
  return out;
}

namespace {

// The shell `case` reading of a `dir/*` pattern covers the whole subtree; say so when that
// is the difference for this path.
std::string case_hint(const std::string& pattern, const std::string& path) {
  std::string body = pattern[0] == '!' ? pattern.substr(1) : pattern;
  if (body.size() < 2 || body.compare(body.size() - 2, 2, "/*") != 0) return "";
  if (body.size() >= 3 && body[body.size() - 3] == '*') return "";
  const std::string dir = body.substr(0, body.size() - 1);
  if (path.rfind(dir, 0) != 0 || path.find('/', dir.size()) == std::string::npos) return "";
  return "  (a shell `case` would match here; write '" + visible_controls(dir) + "**' for subfolders)";
}

void explain_list(std::ostringstream& s, const char* label, const std::vector<PatternSource>& sources,
                  const glob::PatternList& list, const std::string& path, Mode mode) {
  for (std::size_t k = 0; k < sources.size(); ++k) {
    const auto& pattern = list.patterns()[k];
    const bool body = pattern.body_matches(path);
    std::string verdict;
    if (!body) verdict = "no match";
    else if (std::string_view(label) == "always") verdict = "match -> always relevant";
    else if (list.dialect() == glob::Dialect::github && mode == Mode::allow)
      verdict = pattern.negated() ? "match -> excluded" : "match -> included";
    else if (list.dialect() == glob::Dialect::github)
      verdict = pattern.negated() ? "match -> not denied" : "match -> denied";
    else verdict = "match";
    if (list.dialect() == glob::Dialect::picomatch && pattern.negated())
      verdict = pattern.matches(path) ? "match (negated: the body does not match)" : "no match (negated: the body matches)";
    s << "  " << label << (label[0] == '#' ? std::to_string(k + 1) : std::string()) << "\t"
      << visible_controls(sources[k].text) << "\t" << verdict;
    if (!body) s << case_hint(sources[k].text, path);
    s << "\n";
  }
}

}  // namespace

std::string explain(const Rules& rules, const std::string& raw_path, const std::vector<GuardedFile>& guarded) {
  const std::string path = glob::normalize_path(raw_path);
  const auto guard = std::find_if(guarded.begin(), guarded.end(), [&](const GuardedFile& g) { return g.path == path; });
  const bool self_protected = guard != guarded.end() && rules.self_protect;
  std::ostringstream s;
  s << "How each filter treats `" << visible_controls(path) << "` (dialect " << to_string(rules.dialect) << "):\n";
  if (guard != guarded.end()) {
    s << "`" << visible_controls(path) << "` is " << guard->what;
    if (rules.self_protect)
      s << ": a change to it makes every filter relevant (self-protect), whatever the patterns below say\n";
    else
      s << ", but the rules say `self-protect: false`: the patterns below decide, as for any other path\n";
  }
  for (const auto& f : rules.filters) {
    s << "\n" << visible_controls(f.name) << " (" << to_string(f.mode) << " list"
      << (f.category.empty() ? "" : ", category " + visible_controls(f.category)) << ")\n";
    bool always = false;
    if (!f.always.empty()) {
      explain_list(s, "always", f.always, f.always_list, path, Mode::allow);
      always = f.always_list.evaluate(path).included;
    }
    explain_list(s, "#", f.paths, f.list, path, f.mode);
    const auto v = f.list.evaluate(path);
    std::string pattern = v.decisive >= 0 ? " by #" + std::to_string(v.decisive + 1) + " `" +
                                                visible_controls(f.paths[static_cast<std::size_t>(v.decisive)].text) + "`"
                                          : "";
    const std::string name = visible_controls(f.name);
    s << "  => ";
    if (self_protected)
      s << "self-protect: this path alone makes " << name << " relevant (the patterns are not consulted)\n";
    else if (always) s << "matches an always pattern: this path alone makes " << name << " relevant\n";
    else if (f.mode == Mode::allow && v.included) s << "included" << pattern << ": this path alone makes " << name << " relevant\n";
    else if (f.mode == Mode::allow) s << "not included" << pattern << ": this path does not make " << name << " relevant\n";
    else if (!v.included) s << "not denied" << pattern << ": this path alone makes " << name << " relevant\n";
    else s << "denied" << pattern << ": this path alone does not make " << name << " relevant\n";
  }
  return s.str();
}

}  // namespace gatekit::path_classifier
