#pragma once
// The path gate's rules: the core's (gatekit/path_rules.hpp), which the GPU gate reads too, so
// that the two gates judge one rules file by one rule. Named here in path-classifier's namespace.
#include "gatekit/path_rules.hpp"

namespace gatekit::path_classifier {

using path_rules::Filter;
using path_rules::kChangeTypes;
using path_rules::load_rules_text;
using path_rules::Mode;
using path_rules::parse_quantifier;
using path_rules::PatternSource;
using path_rules::Quantifier;
using path_rules::Rules;
using path_rules::to_string;

}  // namespace gatekit::path_classifier
