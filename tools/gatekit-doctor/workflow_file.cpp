// Reading a workflow file into the doctor's model (workflow_file.hpp).
#include "workflow_file.hpp"

#include <algorithm>
#include <limits>

#include "gatekit/config.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/text.hpp"
#include "gatekit/yaml.hpp"

namespace gatekit::gatekit_doctor {

const Job* WorkflowFile::job(std::string_view id) const {
  auto it = std::find_if(jobs.begin(), jobs.end(), [&](const Job& j) { return j.id == id; });
  return it == jobs.end() ? nullptr : &*it;
}

expr::Value scalar_value(const std::string& text, bool plain) {
  if (!plain) return expr::Value::of(text);
  static const Regex null_form("null|Null|NULL|~|");
  static const Regex true_form("true|True|TRUE");
  static const Regex false_form("false|False|FALSE");
  static const Regex int_form("[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+");
  static const Regex float_form("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  static const Regex inf_form("[-+]?\\.(inf|Inf|INF)");
  static const Regex nan_form("\\.(nan|NaN|NAN)");
  if (null_form.matches(text)) return expr::Value::null();
  if (true_form.matches(text)) return expr::Value::of(true);
  if (false_form.matches(text)) return expr::Value::of(false);
  if (int_form.matches(text) || float_form.matches(text)) {
    std::string digits = text;
    if (digits.rfind("0o", 0) == 0) return expr::Value::of(static_cast<double>(std::stoull(digits.substr(2), nullptr, 8)));
    return expr::Value::of(expr::to_number(expr::Value::of(digits)));
  }
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (inf_form.matches(text)) return expr::Value::of(text[0] == '-' ? -inf : inf);
  if (nan_form.matches(text)) return expr::Value::of(std::numeric_limits<double>::quiet_NaN());
  return expr::Value::of(text);
}

namespace {

bool is_plain(const YAML::Node& node) { return node.Tag() == "?"; }

class Reader {
 public:
  explicit Reader(ConfigErrors& errors) : errors_(errors) {}

  void workflow(const YAML::Node& root, WorkflowFile& out) {
    if (!root.IsMap()) {
      errors_.add(root, "", "expected a map (a workflow's name:, on: and jobs:), got " + describe_node(root));
      return;
    }
    out.name = out.path;
    if (const auto name = root["name"]; name && name.IsScalar() && !name.Scalar().empty()) out.name = name.Scalar();
    if (const auto on = root["on"]; on) events(on, out);
    else errors_.add(root, "on", "missing: a workflow needs on:");
    const auto jobs = root["jobs"];
    if (!jobs || !jobs.IsMap()) {
      errors_.add(jobs ? jobs : root, "jobs", "expected a map of jobs, got " + (jobs ? describe_node(jobs) : "nothing"));
      return;
    }
    for (const auto& entry : jobs) out.jobs.push_back(job(entry.first.Scalar(), entry.second, entry.first));
  }

 private:
  int line_of(const YAML::Node& node) const { return yaml::position_of(node.Mark()).line; }

  std::optional<std::vector<std::string>> strings(const YAML::Node& node, const std::string& field) {
    if (node.IsScalar()) return std::vector<std::string>{node.Scalar()};
    if (node.IsSequence()) {
      std::vector<std::string> out;
      for (const auto& item : node) {
        if (!item.IsScalar()) {
          errors_.add(item, field, "expected a string, got " + describe_node(item));
          continue;
        }
        out.push_back(item.Scalar());
      }
      return out;
    }
    if (node.IsNull()) return std::vector<std::string>{};
    errors_.add(node, field, "expected a string or a list of strings, got " + describe_node(node));
    return std::nullopt;
  }

  void events(const YAML::Node& on, WorkflowFile& out) {
    if (on.IsScalar() || on.IsSequence()) {
      for (const auto& name : strings(on, "on").value_or(std::vector<std::string>{}))
        out.on[name] = EventFilter{line_of(on)};
      return;
    }
    if (!on.IsMap()) {
      errors_.add(on, "on", "expected an event, a list of events or a map, got " + describe_node(on));
      return;
    }
    for (const auto& entry : on) {
      const std::string event = entry.first.Scalar();
      EventFilter filter{line_of(entry.first)};
      const auto& body = entry.second;
      if (body.IsMap()) {
        const std::string field = "on." + event;
        auto list = [&](const char* key, std::optional<std::vector<std::string>>& into) {
          if (const auto v = body[key]; v) into = strings(v, field + "." + key);
        };
        list("branches", filter.branches);
        list("branches-ignore", filter.branches_ignore);
        list("paths", filter.paths);
        list("paths-ignore", filter.paths_ignore);
        list("types", filter.types);
        std::optional<std::vector<std::string>> workflows;
        list("workflows", workflows);
        filter.workflows = workflows.value_or(std::vector<std::string>{});
      } else if (!body.IsNull() && !(body.IsScalar() && body.Scalar().empty())) {
        // `schedule:` is a list of crons; other events take a map or nothing.
        if (event != "schedule")
          errors_.add(body, "on." + event, "expected a map of filters or nothing, got " + describe_node(body));
      }
      out.on[event] = std::move(filter);
    }
  }

  expr::Value value(const YAML::Node& node) {
    if (node.IsScalar()) return scalar_value(node.Scalar(), is_plain(node));
    if (node.IsSequence()) {
      std::vector<expr::Value> items;
      for (const auto& item : node) items.push_back(value(item));
      return expr::Value::array(std::move(items));
    }
    if (node.IsMap()) {
      expr::Object fields;
      for (const auto& entry : node) fields[entry.first.Scalar()] = value(entry.second);
      return expr::Value::object(std::move(fields));
    }
    return expr::Value::null();
  }

  static bool is_expression(const YAML::Node& node) {
    return node.IsScalar() && node.Scalar().find("${{") != std::string::npos;
  }

  std::vector<Entries> entries(const YAML::Node& node, const std::string& field, Matrix& matrix) {
    std::vector<Entries> out;
    if (is_expression(node)) {
      matrix.computed = true;
      return out;
    }
    if (!node.IsSequence()) {
      errors_.add(node, field, "expected a list of maps, got " + describe_node(node));
      return out;
    }
    for (const auto& item : node) {
      if (is_expression(item)) {
        matrix.computed = true;
        continue;
      }
      if (!item.IsMap()) {
        errors_.add(item, field, "expected a map, got " + describe_node(item));
        continue;
      }
      Entries entry;
      for (const auto& pair : item) entry.emplace_back(pair.first.Scalar(), value(pair.second));
      out.push_back(std::move(entry));
    }
    return out;
  }

  std::optional<Matrix> matrix(const YAML::Node& strategy, const std::string& field) {
    if (is_expression(strategy)) return Matrix{line_of(strategy), true};
    if (!strategy.IsMap()) {
      errors_.add(strategy, field, "expected a map, got " + describe_node(strategy));
      return std::nullopt;
    }
    const auto node = strategy["matrix"];
    if (!node) return std::nullopt;
    Matrix out{line_of(node)};
    if (is_expression(node)) {
      out.computed = true;
      return out;
    }
    if (!node.IsMap()) {
      errors_.add(node, field + ".matrix", "expected a map or an expression, got " + describe_node(node));
      return std::nullopt;
    }
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      const std::string key_field = field + ".matrix." + key;
      if (key == "include") {
        out.include = entries(entry.second, key_field, out);
      } else if (key == "exclude") {
        out.exclude = entries(entry.second, key_field, out);
      } else if (is_expression(entry.second)) {
        out.computed = true;
      } else if (!entry.second.IsSequence()) {
        errors_.add(entry.second, key_field, "expected a list of values, got " + describe_node(entry.second));
      } else {
        std::vector<expr::Value> values;
        for (const auto& item : entry.second) {
          if (is_expression(item)) out.computed = true;
          values.push_back(value(item));
        }
        out.axes.emplace_back(key, std::move(values));
      }
    }
    return out;
  }

  std::vector<Step> steps(const YAML::Node& node, const std::string& field) {
    std::vector<Step> out;
    if (!node.IsSequence()) {
      errors_.add(node, field, "expected a list of steps, got " + describe_node(node));
      return out;
    }
    for (const auto& item : node) {
      if (!item.IsMap()) continue;
      Step step{line_of(item)};
      if (const auto uses = item["uses"]; uses && uses.IsScalar()) step.uses = uses.Scalar();
      if (const auto with = item["with"]; with && with.IsMap())
        for (const auto& input : with)
          if (input.second.IsScalar()) step.with[input.first.Scalar()] = input.second.Scalar();
      out.push_back(std::move(step));
    }
    return out;
  }

  void condition(const YAML::Node& node, const std::string& field, Job& job) {
    std::string text = node.IsScalar() ? node.Scalar() : "";
    if (!node.IsScalar()) {
      errors_.add(node, field, "expected an expression, got " + describe_node(node));
      text = "true";
    }
    job.if_text = text;
    job.if_line = line_of(node);
    // Text with `${{ }}` beside other text is a string to GitHub, never empty: true.
    const auto trimmed = trim(text);
    const bool partial = text.find("${{") != std::string::npos &&
                         !(trimmed.rfind("${{", 0) == 0 && trimmed.size() >= 5 &&
                           trimmed.find("}}") == trimmed.size() - 2);
    auto parsed = expr::parse_condition(partial ? std::string_view("true") : std::string_view(text));
    if (!parsed) {
      errors_.add(node, field, "not an expression GitHub accepts: " + parsed.error().message);
      parsed = expr::parse("true");
    }
    job.written_condition = *parsed;
    job.status_function = expr::calls_status_function(*parsed);
    job.condition = expr::with_implied_success(*parsed);
  }

  Job job(const std::string& id, const YAML::Node& node, const YAML::Node& key) {
    Job out;
    out.id = id;
    out.line = line_of(key);
    const std::string field = "jobs." + id;
    out.condition = *expr::parse_job_if("success()");
    if (!node.IsMap()) {
      errors_.add(node, field, "expected a map, got " + describe_node(node), &key);
      return out;
    }
    if (const auto name = node["name"]; name) {
      if (!name.IsScalar()) {
        errors_.add(name, field + ".name", "expected a string, got " + describe_node(name));
      } else {
        out.name = name.Scalar();
        auto parsed = expr::parse_template(name.Scalar());
        if (!parsed) errors_.add(name, field + ".name", "not an expression GitHub accepts: " + parsed.error().message);
        else out.name_template = std::move(*parsed);
      }
    }
    if (const auto cond = node["if"]; cond) condition(cond, field + ".if", out);
    if (const auto needs = node["needs"]; needs) out.needs = strings(needs, field + ".needs").value_or(out.needs);
    if (const auto strategy = node["strategy"]; strategy) out.matrix = matrix(strategy, field + ".strategy");
    if (const auto steps_node = node["steps"]; steps_node) out.steps = steps(steps_node, field + ".steps");
    if (const auto uses = node["uses"]; uses && uses.IsScalar()) out.uses = uses.Scalar();
    if (const auto environment = node["environment"]; environment) {
      if (environment.IsScalar()) out.environment = environment.Scalar();
      else if (environment.IsMap() && environment["name"] && environment["name"].IsScalar())
        out.environment = environment["name"].Scalar();
    }
    return out;
  }

  ConfigErrors& errors_;
};

}  // namespace

Result<WorkflowFile> read_workflow(const std::string& text, const std::string& path) {
  auto root = load_yaml_text(text, path);
  if (!root) return root.error();
  WorkflowFile out;
  out.path = path;
  ConfigErrors errors(path);
  Reader(errors).workflow(*root, out);
  if (!errors.empty()) return errors.to_error();
  return out;
}

}  // namespace gatekit::gatekit_doctor
