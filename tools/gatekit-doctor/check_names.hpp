#pragma once
// The names of the checks a job reports: a matrix expanded by GitHub's rules, and each leg's
// name as GitHub builds it.
//
// Matrix (https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/
// run-job-variations): every combination of the lists, in the order written; `exclude` drops
// each combination all of whose named values match (a map matches a map holding at least its
// keys, a list a list that starts with its items); `include` adds its values to every
// combination whose original values it agrees with (overwriting only values added by an earlier
// include), and an include that agrees with none is a leg of its own. Over 256 legs GitHub
// fails the job.
//
// Names: a job's `name:` (else its id). When the name holds no `${{ }}`, a leg's name is
// `name (v1, v2)`: the leg's values of the matrix's own lists, in their order (lists and maps
// give their scalars; empty values are left out); an include-only leg shows all its values.
// When the name holds an expression it is evaluated for each leg and nothing is appended.
// A job that calls a reusable workflow reports `caller / callee` for each job of the callee.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expression.hpp"
#include "workflow_file.hpp"

namespace gatekit::gatekit_doctor {

struct Leg {
  expr::Object values;              // its `matrix` context
  std::vector<std::string> suffix;  // what GitHub shows in its name's parentheses
};

struct Expansion {
  bool computed = false;  // the matrix comes from an expression: its legs are not known
  std::vector<Leg> legs;  // at least one (a job without a matrix is one leg without values)
  std::string error;      // what GitHub refuses ("" when nothing)
};

Expansion expand(const std::optional<Matrix>& matrix);

// A check name with parts not known before the run (`*`): `pytest (GPU, shard *)`.
struct NamePattern {
  std::vector<expr::TextPiece> pieces;
  bool exact() const;
  // The name as a person reads it, `*` for each unknown part.
  std::string text() const;
  bool matches(std::string_view name) const;
};

// What the doctor knows of a run's contexts besides `matrix` (github, vars, ...).
std::vector<NamePattern> check_names(const Job& job, const expr::Contexts& contexts,
                                     const std::vector<WorkflowFile>& workflows);

}  // namespace gatekit::gatekit_doctor
