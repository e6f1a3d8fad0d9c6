#include "gatekit/pytest_ids.hpp"

#include "gatekit/text.hpp"

#include <algorithm>

namespace gatekit::pytest {

std::optional<std::string> unsafe_node_id(std::string_view id) {
  if (id.empty()) return "no pytest node id could be derived from the report";
  if (id.front() == '-') return "the node id starts with '-' and would read as an option";
  if (id.front() == '@') return "the node id starts with '@' and would read as a file of arguments (pytest 8.2+)";
  if (has_control(id)) return "the node id holds control characters";
  const std::string_view file = id.substr(0, id.find("::"));
  if (file.front() == '/') return "the node id is an absolute path";
  for (std::size_t start = 0; start <= file.size();) {
    const std::size_t end = std::min(file.find('/', start), file.size());
    if (file.substr(start, end - start) == "..") return "the node id points outside the project ('..')";
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace gatekit::pytest
