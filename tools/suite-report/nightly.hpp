#pragma once
// What one leg runs in one context: its expression (with the nightly rule), the docs tests
// on a docs-only change, or nothing. Pure.
#include <string>

#include "selection.hpp"

namespace gatekit::suite_report {

enum class RunKind { tests, docs, none };
std::string_view to_string(RunKind kind);

struct LegPlan {
  RunKind run = RunKind::tests;
  std::string markers;  // the -m expression; "" when run is none
  std::string why;      // one sentence for the log and the summary
};

LegPlan plan_leg(const Selection& selection, const Leg& leg, const std::string& context, bool docs_only,
                 const std::string& variant);

}  // namespace gatekit::suite_report
