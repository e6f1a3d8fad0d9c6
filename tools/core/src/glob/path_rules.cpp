// The path gate's rules file: the loader (see gatekit/path_rules.hpp).
#include "gatekit/path_rules.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>
#include <variant>

#include "gatekit/path_categories.hpp"
#include "gatekit/yaml.hpp"
#include "gatekit/text.hpp"

namespace gatekit::path_rules {

std::string_view to_string(Mode mode) { return mode == Mode::allow ? "allow" : "deny"; }

std::string_view to_string(Quantifier quantifier) { return quantifier == Quantifier::some ? "some" : "every"; }

std::optional<Quantifier> parse_quantifier(std::string_view name) {
  if (name == "some") return Quantifier::some;
  if (name == "every") return Quantifier::every;
  return std::nullopt;
}

namespace {

constexpr std::array<std::string_view, 6> kTopKeys{"dialect",      "filters",   "categories",
                                                   "non-pr-events", "self-protect", "predicate-quantifier"};
constexpr std::array<std::string_view, 4> kFilterKeys{"mode", "paths", "always", "category"};
constexpr std::array<std::string_view, 2> kCategories{"docs", "concurrency"};
// Filter names become step outputs next to these.
constexpr std::array<std::string_view, 5> kReservedNames{"changes", "decision", "filters", "files-complete",
                                                         "list-files-path"};
// Each filter also writes `<name>_count` and `<name>_files` (list_files.hpp).
constexpr std::array<std::string_view, 2> kListSuffixes{"_count", "_files"};
// Nested lists (anchors of anchors) deeper than this are refused rather than recursed into.
constexpr int kMaxNesting = 16;

struct Loader {
  ConfigErrors& errors;
  std::vector<ConfigIssue>& warnings;
  glob::Dialect dialect;
  std::array<std::unordered_map<std::string, glob::Pattern>, 2> interned{};  // by dialect: github, picomatch

  // The column of a pattern's character `column` (1-based) inside the YAML scalar.
  static yaml::Position locate(const YAML::Node& node, int column) {
    auto pos = yaml::position_of(node.Mark());
    if (pos.line == 0) return pos;
    const bool quoted = node.Tag() == "!";
    pos.column += (quoted ? 1 : 0) + (column > 0 ? column - 1 : 0);
    return pos;
  }

  std::optional<std::vector<PatternSource>> patterns(const YAML::Node& node, const std::string& field,
                                                     const YAML::Node* key) {
    if (!node.IsSequence()) {
      errors.add(node, field, "expected a list of patterns, got " + describe_node(node), key);
      return std::nullopt;
    }
    std::vector<PatternSource> out;
    if (!items(node, field, {}, out, 0)) return std::nullopt;
    return out;
  }

  // A filter's list as dorny/paths-filter reads it: patterns, change-type rules and nested
  // lists (anchors), flattened in order. `types` are the enclosing rule's change types.
  bool items(const YAML::Node& node, const std::string& field, const std::vector<std::string>& types,
             std::vector<PatternSource>& out, int depth) {
    if (depth > kMaxNesting) {
      errors.add(node, field, "lists nested more than " + std::to_string(kMaxNesting) + " deep");
      return false;
    }
    if (node.IsSequence()) {
      bool ok = true;
      for (std::size_t i = 0; i < node.size(); ++i)
        ok = items(node[i], field + "[" + std::to_string(i) + "]", types, out, depth + 1) && ok;
      return ok;
    }
    if (node.IsMap() && types.empty()) {
      bool ok = true;
      for (const auto& entry : node) {
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        const std::string rule_field = field + "." + key;
        auto parsed = change_types(entry.first, rule_field);
        if (!parsed) {
          ok = false;
          continue;
        }
        const YAML::Node& value = entry.second;
        if (!value.IsScalar() && !value.IsSequence()) {
          errors.add(value, rule_field, "expected a pattern or a list of patterns, got " + describe_node(value),
                     &entry.first);
          ok = false;
          continue;
        }
        ok = items(value, rule_field, *parsed, out, depth + 1) && ok;
      }
      return ok;
    }
    if (node.IsMap()) {
      errors.add(node, field, "expected a pattern, got a map (change-type rules do not nest)");
      return false;
    }
    return pattern(node, field, types, out);
  }

  // `added|modified` as dorny/paths-filter splits it: on '|', trimmed, lower-cased, empty parts
  // dropped. Unlike paths-filter, an unknown type is an error, not a rule that never matches.
  std::optional<std::vector<std::string>> change_types(const YAML::Node& key, const std::string& field) {
    if (!key.IsScalar()) {
      errors.add(key, field, "expected change types such as `added|modified`, got " + describe_node(key));
      return std::nullopt;
    }
    const std::string text = key.Scalar();
    std::vector<std::string> out;
    bool ok = true;
    std::size_t start = 0;
    while (start <= text.size()) {
      auto end = text.find('|', start);
      if (end == std::string::npos) end = text.size();
      std::string part = trim(std::string_view(text).substr(start, end - start));
      start = end + 1;
      std::transform(part.begin(), part.end(), part.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (part.empty()) continue;
      if (std::find(kChangeTypes.begin(), kChangeTypes.end(), part) == kChangeTypes.end()) {
        std::string message = "unknown change type '" + part + "' in '" + text +
                              "' (expected added, modified, deleted, renamed, copied, changed or unmerged)";
        if (auto near = closest_match(part, kChangeTypes)) message += "; did you mean '" + *near + "'?";
        errors.add(key, field, message);
        ok = false;
        continue;
      }
      if (part == "renamed") {
        auto at = yaml::position_of(key.Mark());
        warnings.push_back({errors.file(), at.line, at.column, field,
                            "`renamed` never matches: as in dorny/paths-filter, a rename counts as `deleted` at its "
                            "old path and `added` at its new one; write `added|deleted`"});
      }
      if (std::find(out.begin(), out.end(), part) == out.end()) out.push_back(std::move(part));
    }
    if (ok && out.empty()) {
      errors.add(key, field, "no change type in '" + text + "' (e.g. `added|modified`)");
      ok = false;
    }
    if (!ok) return std::nullopt;
    return out;
  }

  bool pattern(const YAML::Node& item, const std::string& item_field, const std::vector<std::string>& types,
               std::vector<PatternSource>& out) {
    auto text = read_string(item, item_field, errors);
    if (!text) return false;
    auto where = locate(item, 1);
    auto compiled = compile_once(*text);
    if (auto* e = std::get_if<glob::PatternError>(&compiled)) {
      auto at = locate(item, e->column);
      std::string message = "invalid pattern '" + *text + "': " + e->message;
      if (!e->hint.empty()) message += " (hint: " + e->hint + ")";
      errors.add(at.line, at.column, item_field, message);
      return false;
    }
    out.push_back({*text, where.line, where.column, std::get<glob::Pattern>(std::move(compiled)), types});
    for (const auto& w : glob::lint(*text, dialect)) {
      auto at = locate(item, w.column);
      warnings.push_back({errors.file(), at.line, at.column, item_field, w.message});
    }
    return true;
  }

  // A text compiles once per dialect, for every filter that lists it: the copies share one
  // program, so matching works out its prefilter and automaton once (glob_sieve.hpp).
  std::variant<glob::Pattern, glob::PatternError> compile_once(const std::string& text) {
    auto& seen = interned[dialect == glob::Dialect::github ? 0 : 1];
    if (auto it = seen.find(text); it != seen.end()) return it->second;
    auto compiled = glob::Pattern::compile(text, dialect);
    if (const auto* p = std::get_if<glob::Pattern>(&compiled)) seen.emplace(text, *p);
    return compiled;
  }

  static glob::PatternList compile(const std::vector<PatternSource>& sources, glob::Dialect d) {
    std::vector<glob::Pattern> compiled;
    for (const auto& s : sources) {
      if (s.compiled && s.compiled->dialect() == d) compiled.push_back(*s.compiled);
      else compiled.push_back(std::get<glob::Pattern>(glob::Pattern::compile(s.text, d)));
    }
    return glob::PatternList(std::move(compiled), d);
  }

  static std::vector<PatternSource> builtin(const std::vector<std::string>& texts) {
    std::vector<PatternSource> out;
    for (const auto& t : texts) out.push_back({t, 0, 0, std::nullopt, {}});
    return out;
  }
};

// [A-Za-z_][A-Za-z0-9_-]*: the name becomes a step output.
bool valid_filter_name(std::string_view name) {
  auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (name.empty() || !letter(name[0])) return false;
  return std::all_of(name.begin() + 1, name.end(),
                     [&](char c) { return letter(c) || (c >= '0' && c <= '9') || c == '-'; });
}

bool has_positive(const std::vector<PatternSource>& list) {
  for (const auto& p : list)
    if (p.text.empty() || p.text[0] != '!') return true;
  return false;
}

// dorny/paths-filter's form: a map none of whose keys is one of gatekit's top-level keys.
bool paths_filter_form(const YAML::Node& root) {
  for (const auto& entry : root)
    if (entry.first.IsScalar() &&
        std::find(kTopKeys.begin(), kTopKeys.end(), entry.first.Scalar()) != kTopKeys.end())
      return false;
  return root.size() > 0;
}

// `cpu_count` next to `cpu` would be written twice.
void reject_list_collisions(const YAML::Node& filters, const std::vector<Filter>& loaded, ConfigErrors& errors) {
  for (const auto& entry : filters) {
    if (!entry.first.IsScalar()) continue;
    const std::string name = entry.first.Scalar();
    for (auto suffix : kListSuffixes) {
      if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      const auto base = name.substr(0, name.size() - suffix.size());
      if (std::any_of(loaded.begin(), loaded.end(), [&](const Filter& f) { return f.name == base; }))
        errors.add(entry.first, "filters." + name,
                   "'" + name + "' is the output '" + base + std::string(suffix) + "' of filter '" + base +
                       "'; choose another name");
    }
  }
}


// The settings beside `filters:` (gatekit's form only, except the overrides): dialect,
// non-pr-events, self-protect and predicate-quantifier.
struct Overrides {
  std::optional<glob::Dialect> dialect;
  std::optional<Quantifier> quantifier;
};

void read_dialect(const YAML::Node& root, bool dorny_form, const Overrides& overrides, Rules& rules,
                  ConfigErrors& errors) {
  if (overrides.dialect) {
    rules.dialect = *overrides.dialect;
  } else if (dorny_form) {
    // Filters written for dorny/paths-filter mean what picomatch makes of them.
    rules.dialect = glob::Dialect::picomatch;
  } else if (auto node = root["dialect"]) {
    if (auto name = read_string(node, "dialect", errors)) {
      if (auto d = glob::parse_dialect(*name)) rules.dialect = *d;
      else errors.add(node, "dialect", "unknown dialect '" + *name + "' (expected github or picomatch)");
    }
  }
}

void read_settings(const YAML::Node& root, bool dorny_form, const Overrides& overrides, Rules& rules,
                   ConfigErrors& errors) {
  read_dialect(root, dorny_form, overrides, rules, errors);
  if (auto node = root["non-pr-events"]) {
    if (auto v = read_string(node, "non-pr-events", errors)) {
      if (*v == "evaluate") rules.evaluate_non_pr = true;
      else if (*v != "relevant") errors.add(node, "non-pr-events", "expected 'relevant' or 'evaluate', got '" + *v + "'");
    }
  }
  if (auto node = root["self-protect"]) {
    if (auto v = read_bool(node, "self-protect", errors)) rules.self_protect = *v;
  }
  if (overrides.quantifier) {
    rules.quantifier = *overrides.quantifier;
  } else if (auto node = root["predicate-quantifier"]; node && !dorny_form) {
    if (auto v = read_string(node, "predicate-quantifier", errors)) {
      if (auto q = parse_quantifier(*v)) rules.quantifier = *q;
      else errors.add(node, "predicate-quantifier", "expected 'some' or 'every', got '" + *v + "'");
    }
  }
}

using Categories = std::map<std::string, std::vector<PatternSource>>;

// The built-in categories, with the rules' `categories:` overrides. Categories are one rule
// for every tool: always the github dialect.
Categories read_categories(const YAML::Node& root, Rules& rules, ConfigErrors& errors) {
  Categories categories{{"docs", Loader::builtin(glob::default_docs_patterns())},
                        {"concurrency", Loader::builtin(glob::default_concurrency_patterns())}};
  auto node = root["categories"];
  if (!node) return categories;
  if (!node.IsMap()) {
    errors.add(node, "categories", "expected a map (docs:, concurrency:), got " + describe_node(node));
    return categories;
  }
  reject_unknown_keys(node, kCategories, "categories", errors);
  Loader loader{errors, rules.warnings, glob::Dialect::github};
  for (const auto& entry : node) {
    const std::string name = entry.first.Scalar();
    if (std::find(kCategories.begin(), kCategories.end(), name) == kCategories.end()) continue;
    if (auto list = loader.patterns(entry.second, "categories." + name, &entry.first))
      categories[name] = std::move(*list);
  }
  return categories;
}

// One filter, read from its YAML entry. Every problem is recorded in `errors`; the filter is
// kept only when reading it recorded none (unknown keys aside: they are reported, and the
// filter still takes part in the checks across filters).
class FilterReader {
 public:
  // Pattern warnings go to rules.warnings; the filters read are the caller's to keep.
  FilterReader(Rules& rules, const Categories& categories, bool dorny_form, ConfigErrors& errors)
      : rules_(rules), categories_(categories), dorny_form_(dorny_form), errors_(errors),
        loader_{errors, rules.warnings, rules.dialect} {}

  std::optional<Filter> read(const YAML::Node& key, const YAML::Node& body) {
    Filter f;
    f.name = key.Scalar();
    f.dialect = rules_.dialect;
    const std::string field = "filters." + f.name;
    if (body.IsMap() && !dorny_form_) reject_unknown_keys(body, kFilterKeys, field, errors_);
    const auto before = errors_.issues().size();
    check_name(key, f.name, field);
    read_body(key, body, field, f);
    if (errors_.issues().size() == before) check_paths(key, field, f);
    if (errors_.issues().size() != before) return std::nullopt;
    finish(f);
    return f;
  }

 private:
  void check_name(const YAML::Node& key, const std::string& name, const std::string& field) {
    if (!valid_filter_name(name))
      errors_.add(key, field,
                  "invalid filter name '" + name + "': use letters, digits, '_' and '-' (it becomes a step output)");
    else if (std::find(kReservedNames.begin(), kReservedNames.end(), name) != kReservedNames.end())
      errors_.add(key, field, "'" + name + "' is reserved for an output of its own; choose another name");
  }

  void read_body(const YAML::Node& key, const YAML::Node& body, const std::string& field, Filter& f) {
    if (body.IsSequence() || (body.IsScalar() && !body.IsNull())) {
      // shorthand, as in dorny/paths-filter: an allow list (or one pattern)
      std::vector<PatternSource> list;
      if (loader_.items(body, field, {}, list, 0)) f.paths = std::move(list);
    } else if (body.IsMap() && dorny_form_) {
      errors_.add(body, field, "expected a list of patterns, got " + describe_node(body), &key);
    } else if (body.IsMap()) {
      read_map(key, body, field, f);
    } else {
      errors_.add(body, field,
                  "expected a map (mode, paths, always, category) or a list of patterns, got " + describe_node(body),
                  &key);
    }
  }

  // gatekit's long form: mode, paths or category, always.
  void read_map(const YAML::Node& key, const YAML::Node& body, const std::string& field, Filter& f) {
    if (auto node = body["mode"]) {
      if (auto m = read_string(node, field + ".mode", errors_)) {
        if (*m == "deny") f.mode = Mode::deny;
        else if (*m != "allow") errors_.add(node, field + ".mode", "expected 'allow' or 'deny', got '" + *m + "'");
      }
    }
    if (auto node = body["category"]) {
      read_category(node, body, field, f);
    } else if (auto paths = body["paths"]) {
      if (auto list = loader_.patterns(paths, field + ".paths", nullptr)) f.paths = std::move(*list);
    } else {
      errors_.add(key, field, "missing `paths:` (or `category:`)");
    }
    if (auto node = body["always"]) {
      if (auto list = loader_.patterns(node, field + ".always", nullptr)) f.always = std::move(*list);
    }
  }

  void read_category(const YAML::Node& node, const YAML::Node& body, const std::string& field, Filter& f) {
    auto c = read_string(node, field + ".category", errors_);
    if (!c) return;
    if (categories_.count(*c) == 0) {
      errors_.add(node, field + ".category", "unknown category '" + *c + "' (expected docs or concurrency)");
    } else if (body["paths"]) {
      errors_.add(node, field + ".category", "give either `category` or `paths`, not both");
    } else {
      f.category = *c;
      f.dialect = glob::Dialect::github;
      f.paths = categories_.at(*c);
    }
  }

  void check_paths(const YAML::Node& key, const std::string& field, const Filter& f) {
    if (f.paths.empty())
      errors_.add(key, field + ".paths", "the list is empty: give at least one pattern");
    else if (f.dialect == glob::Dialect::github && !has_positive(f.paths))
      errors_.add(key, field + ".paths",
                  "every pattern is negative ('!'), so the list can never match: start with a positive pattern "
                  "such as '**'");
  }

  void finish(Filter& f) const {
    auto typed = [](const std::vector<PatternSource>& list) {
      return std::any_of(list.begin(), list.end(), [](const auto& p) { return !p.change_types.empty(); });
    };
    f.quantifier = rules_.quantifier;
    f.per_pattern = f.quantifier == Quantifier::every || typed(f.paths) || typed(f.always);
    f.list = Loader::compile(f.paths, f.dialect);
    f.always_list = Loader::compile(f.always, rules_.dialect);
  }

  const Rules& rules_;
  const Categories& categories_;
  bool dorny_form_;
  ConfigErrors& errors_;
  Loader loader_;
};

// `filters:` (or, in dorny/paths-filter's form, the whole document).
void read_filters(const YAML::Node& root, bool dorny_form, const Categories& categories, Rules& rules,
                  ConfigErrors& errors) {
  const auto filters = dorny_form ? root : root["filters"];
  if (!filters) {
    errors.add(root, "filters", "missing `filters:` (a map of filter name to rules)");
  } else if (!filters.IsMap()) {
    errors.add(filters, "filters", "expected a map of filter name to rules, got " + describe_node(filters));
  } else if (filters.size() == 0) {
    errors.add(filters, "filters", "no filters: give at least one, e.g. `cpu: ['src/**']`");
  } else {
    FilterReader reader(rules, categories, dorny_form, errors);
    for (const auto& entry : filters)
      if (auto f = reader.read(entry.first, entry.second)) rules.filters.push_back(std::move(*f));
    reject_list_collisions(filters, rules.filters, errors);
  }
}

}  // namespace

Result<Rules> load_rules_text(const std::string& text, const std::string& origin,
                              std::optional<glob::Dialect> dialect_override,
                              std::optional<Quantifier> quantifier_override) {
  auto doc = load_yaml_text(text, origin);
  if (!doc) return doc.error();
  const YAML::Node& root = *doc;
  ConfigErrors errors(origin);
  Rules rules;
  rules.origin = origin;
  if (!root.IsMap()) {
    errors.add(root, "", "expected a map with a `filters:` key, got " + describe_node(root));
    return errors.to_error();
  }
  // dorny/paths-filter's form is the filters map itself, with no settings beside it.
  const bool dorny_form = paths_filter_form(root);
  if (!dorny_form) reject_unknown_keys(root, kTopKeys, "", errors);
  read_settings(root, dorny_form, {dialect_override, quantifier_override}, rules, errors);
  const auto categories = read_categories(root, rules, errors);
  read_filters(root, dorny_form, categories, rules, errors);
  if (!errors.empty()) return errors.to_error();
  return rules;
}

}  // namespace gatekit::path_rules
