#pragma once
// The job summaries (pure: data -> Markdown). Outside text reaches them only through the core
// Markdown helpers (text.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "rerun_merge.hpp"
#include "rerun_plan.hpp"

namespace gatekit::flaky_tracker {

std::string rerun_summary(const RerunVerdict& verdict, const RerunPlan& plan, std::size_t cases, int times);

// A text shortened to at most `max_bytes` bytes without cutting a UTF-8 character, with "…"
// appended when something was cut.
std::string shorten(std::string_view text, std::size_t max_bytes);

}  // namespace gatekit::flaky_tracker
