#pragma once
// Which pytest node ids may be handed to pytest, on its command line or in a `@FILE` of
// arguments. Test names come from the project and its reports: outside data.
#include <optional>
#include <string>
#include <string_view>

namespace gatekit::pytest {

// Why a node id cannot be given to pytest, or nullopt when it can: empty, starting with '-'
// (an option) or '@' (pytest 8.2+ reads `@FILE` as a file of arguments, even after `--` and
// inside such a file), holding control characters (a line break would split it in two),
// an absolute path or a `..` segment (outside the project).
std::optional<std::string> unsafe_node_id(std::string_view id);

}  // namespace gatekit::pytest
