#pragma once
// suite-report reads the selection file through the core (gatekit/selection.hpp), the one
// reader gpu-gate uses too; its names are used here unqualified.
#include "gatekit/selection.hpp"

namespace gatekit::suite_report {

using selection::default_device_skips;
using selection::Device;
using selection::DeviceSkip;
using selection::DocsTests;
using selection::docs_expression;
using selection::docs_variant_problem;
using selection::expression_problem;
using selection::is_leg_name;
using selection::known_context;
using selection::context_from_event;
using selection::kContexts;
using selection::Leg;
using selection::leg_expression;
using selection::load_selection_file;
using selection::load_selection_text;
using selection::Selection;
using selection::universe_expression;

}  // namespace gatekit::suite_report
