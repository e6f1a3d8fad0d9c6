#pragma once
// pytest_node_id (gatekit/junit_reader.hpp) in its two halves, for the reader: consecutive
// cases of one module share classname and file, so it derives the head once per module.
// Private to the core.
#include <string>
#include <string_view>

namespace gatekit::junit {

// The node id without its test name (tests/a/test_b.py::TestC), or "" when the classname
// cannot be taken apart as pytest writes it. Pure.
std::string pytest_node_id_head(std::string_view classname, std::string_view file, std::string_view prefix);
// Whether pytest could have written `name` (no "::" before its parameters). Pure.
bool pytest_plain_name(std::string_view name);

}  // namespace gatekit::junit
