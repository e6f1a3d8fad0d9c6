// --match-batch: the glob engine answering "pattern<TAB>path" records, so that the
// differential tests compare it with picomatch and GitHub's matcher in one process; with
// rules, the filters each path is relevant to (path-classifier.hpp).
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <variant>

#include "gatekit/files.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/workflow.hpp"
#include "classify.hpp"
#include "path-classifier.hpp"
#include "rules.hpp"

namespace gatekit::path_classifier {

namespace {

// One answer per path: the filters a one-file pull request makes relevant.
ExitCode classify_batch(const Options& o, Context& context) {
  const Rules rules = load_rules(o, context);
  const std::string text = value_or_throw(as_bad_input(read_stream(context.in, "stdin")));
  std::istringstream records(text);
  const char separator = text.find('\0') != std::string::npos ? '\0' : '\n';
  std::string path;
  while (std::getline(records, path, separator)) {
    ChangeListing listing;
    listing.files.push_back({glob::normalize_path(path), "", ""});
    listing.source = "--match-batch";
    const auto decision = decide(rules, listing, "pull_request", /*evaluate_event=*/true);
    std::string answer;
    for (const auto& filter : decision.filters)
      answer += (answer.empty() ? "" : " ") + filter.filter + (filter.relevant ? "=1" : "=0");
    context.out << answer << "\n";
  }
  return ExitCode::pass;
}

}  // namespace

ExitCode run_match_batch(const Options& o, Context& context) {
  if (!o.rules_file.empty() || !o.rules_text.empty()) return classify_batch(o, context);
  const auto dialect = o.dialect.empty() ? glob::Dialect::github : *glob::parse_dialect(o.dialect);
  std::map<std::string, std::variant<glob::Pattern, glob::PatternError>> cache;
  // Records are lines, or NUL-terminated when the input holds a NUL (paths with newlines).
  const std::string text = value_or_throw(as_bad_input(read_stream(context.in, "stdin")));
  std::istringstream records(text);
  const char separator = text.find('\0') != std::string::npos ? '\0' : '\n';
  std::string line;
  while (std::getline(records, line, separator)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) {
      context.out << "E no tab\n";
      continue;
    }
    const auto pattern = line.substr(0, tab);
    const auto path = line.substr(tab + 1);
    auto it = cache.find(pattern);
    if (it == cache.end()) it = cache.emplace(pattern, glob::Pattern::compile(pattern, dialect)).first;
    if (const auto* e = std::get_if<glob::PatternError>(&it->second))
      context.out << "E " << inert_line(e->message) << "\n";
    else
      context.out << (std::get<glob::Pattern>(it->second).matches(path) ? "1" : "0") << "\n";
  }
  return ExitCode::pass;
}

}  // namespace gatekit::path_classifier
