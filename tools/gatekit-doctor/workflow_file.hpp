#pragma once
// A workflow file (.github/workflows/*.yml) as the doctor reads it: what triggers it, and for
// each job what names its checks get, when it runs (`if:`, `needs:`), its matrix and the
// gatekit actions its steps use. Only those keys are read; the rest of GitHub's workflow
// syntax is left to GitHub's parser. A value of the wrong shape where the doctor must read it
// is an error naming the file, line, column and field; every such error is reported at once.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "expression.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gatekit_doctor {

// One event under `on:` and its filters, as written.
struct EventFilter {
  int line = 0;
  std::optional<std::vector<std::string>> branches;
  std::optional<std::vector<std::string>> branches_ignore;
  std::optional<std::vector<std::string>> paths;
  std::optional<std::vector<std::string>> paths_ignore;
  std::optional<std::vector<std::string>> types;
  std::vector<std::string> workflows;  // workflow_run: the workflows' names
};

struct Step {
  int line = 0;
  std::string uses;                          // "" for a `run:` step
  std::map<std::string, std::string> with;   // its scalar inputs, as text
};

// A map as written: its keys in their order (an include entry's values name a leg in that order).
using Entries = std::vector<std::pair<std::string, expr::Value>>;

// strategy.matrix, expanded by GitHub's rules (matrix.hpp).
struct Matrix {
  int line = 0;
  // The matrix, or one of its lists, comes from an expression (`${{ fromJSON(...) }}`): its
  // legs are known only when the run starts.
  bool computed = false;
  std::vector<std::pair<std::string, std::vector<expr::Value>>> axes;  // in the order written
  std::vector<Entries> include;
  std::vector<Entries> exclude;
};

struct Job {
  std::string id;
  int line = 0;
  std::optional<std::string> name;  // `name:` as written (it may hold `${{ }}`)
  std::optional<expr::Template> name_template;
  std::optional<std::string> if_text;  // as written
  int if_line = 0;
  expr::Expression condition;  // the `if:` with GitHub's implied success() (always set)
  // The `if:` as written, without the implied success() (null without `if:`).
  expr::Expression written_condition;
  // The `if:` calls a status function (always(), ...): a skipped or failed job it needs does
  // not skip it.
  bool status_function = false;
  std::vector<std::string> needs;
  std::optional<Matrix> matrix;
  std::vector<Step> steps;
  std::string uses;         // a reusable workflow it calls ("" for a job of steps)
  std::string environment;  // `environment:` (its name), "" when none
  // The job's name as a person reads it: `name:` as written, else its id.
  std::string display_name() const { return name ? *name : id; }
};

struct WorkflowFile {
  std::string path;  // .github/workflows/ci.yml
  std::string name;  // `name:`, else the path (as GitHub shows it)
  std::map<std::string, EventFilter> on;  // event name -> its filters
  std::vector<Job> jobs;                   // in the order written
  const Job* job(std::string_view id) const;
  bool triggered_by(std::string_view event) const { return on.count(std::string(event)) != 0; }
};

// Reads one workflow file's text; `path` names it in errors (bad input, every error at once).
Result<WorkflowFile> read_workflow(const std::string& text, const std::string& path);

// A YAML scalar as GitHub's parser types it (the YAML 1.2 core schema): a plain `3.10` is the
// number 3.1, `true` a boolean, `~` null; a quoted scalar is always a string. Exposed for tests.
expr::Value scalar_value(const std::string& text, bool plain);

}  // namespace gatekit::gatekit_doctor
