#include "legs.hpp"

#include <algorithm>

#include "gatekit/text.hpp"

namespace gatekit::matrix_aggregator {

bool leg_did_not_pass(const Leg& leg) {
  if (leg.status != "completed") return false;  // the aggregator itself, or unrelated running jobs
  return leg.conclusion != "success" && leg.conclusion != "skipped" && leg.conclusion != "neutral";
}

LegExcuse excuse_by_legs(const std::vector<Leg>& legs, const std::vector<std::string>& allowed) {
  LegExcuse out;
  std::vector<std::string> blocking;
  for (const auto& leg : legs) {
    if (!leg_did_not_pass(leg)) continue;
    const bool named = std::find(allowed.begin(), allowed.end(), leg.name) != allowed.end();
    if (named && leg.conclusion == "failure") {
      out.allowed_failed.push_back(leg.name);
    } else {
      blocking.push_back(leg.name + " (" + (leg.conclusion.empty() ? "no conclusion" : leg.conclusion) + ")");
    }
  }
  if (!blocking.empty()) {
    out.why_not = "legs not covered by allowed-leg-failures: " + join(blocking, ", ");
  } else if (out.allowed_failed.empty()) {
    out.why_not = "the jobs API shows no failed leg to excuse";
  } else {
    out.excused = true;
  }
  return out;
}

}  // namespace gatekit::matrix_aggregator
