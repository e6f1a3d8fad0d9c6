#include "gatekit/pytest_ids.hpp"

#include "gatekit/repo_path.hpp"
#include "gatekit/text.hpp"

#include <algorithm>

namespace gatekit::pytest {

std::optional<std::string> unsafe_node_id(std::string_view id) {
  if (id.empty()) return "no pytest node id could be derived from the report";
  if (id.front() == '-') return "the node id starts with '-' and would read as an option";
  if (id.front() == '@') return "the node id starts with '@' and would read as a file of arguments (pytest 8.2+)";
  if (has_control(id)) return "the node id holds control characters";
  // The file part is a path in the project: the core's one check (gatekit/repo_path.hpp).
  switch (repository_path_problem(id.substr(0, id.find("::")))) {
    case PathProblem::absolute: return "the node id is an absolute path";
    case PathProblem::parent: return "the node id points outside the project ('..')";
    default: return std::nullopt;
  }
}

}  // namespace gatekit::pytest
