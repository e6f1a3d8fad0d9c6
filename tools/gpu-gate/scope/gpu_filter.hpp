#pragma once
// What needs a GPU result (docs/gpu-gate.md, "What needs a GPU result"): the path gate's GPU
// filter, read by the core's rules loader (gatekit/path_rules.hpp) from the rules file the
// configuration's `gpu_filter` names, on the trusted base. The path gate runs the GPU suites
// when a change is relevant to that filter; the gate asks the same question of the same file by
// the same rule, so the two agree on which changes need a GPU result. The gate adds safeties
// the path gate cannot see, and each one only ever asks for a result (fails closed): a change
// to the rules file itself (self-protection, as the path gate does it), a path in the gate's own
// scope (scope.folders, scope.extras), and the docs rule's tree facts (docs_rule.hpp: a symbolic
// link leads into it, pytest's configuration reads or collects it).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/path_rules.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

inline constexpr std::size_t kMaxRulesBytes = 1u << 20;  // a larger rules file is not read: exit 3

struct GpuFilter {
  path_rules::Filter filter;
  std::string rules_path;    // the rules file in the repository
  bool self_protect = true;  // the rules' `self-protect`: a change to the rules file needs a result
  std::string origin;        // where it was read: "origin/HEAD:.github/gatekit/filters.yml"
  std::vector<std::string> scope_folders;  // the gate's scope.folders, judged by the scope's folder rule
  glob::PatternList scope_extras;          // and its scope.extras (scope.hpp: compile_extras)

  const std::string& name() const { return filter.name; }
  // "" when the filter, self-protection and the scope let a change of `path` (of change type
  // `type`, path_rules::change_type's names; "" unknown) go without a GPU result; else why not:
  // "the gpu filter takes it ('src/**')", "it is the path gate's rules file (self-protect)", ...
  std::string why_taken(std::string_view path, std::string_view type) const;
};

// The GPU filter the configuration names (`gpu_filter`), from the rules file's text as read
// from the commit `rev_name` names in messages (`text`: nullopt when it lacks the file). Pure.
//   - `gpu_filter: false`, or the default rules path absent from the commit: none (nullopt):
//     every change outside the docs needs a result, as before the gate read the filter;
//   - a rules file named in the configuration and absent: bad_input naming the setting;
//   - larger than kMaxRulesBytes: could_not_evaluate;
//   - rules that do not load (the path gate fails on them too), a filter they lack, a scope
//     extras pattern that does not compile: bad_input naming the file.
Result<std::optional<GpuFilter>> gpu_filter_of(const Config& config, const std::optional<std::string>& text,
                                               const std::string& rev_name);

}  // namespace gatekit::gpu_gate
