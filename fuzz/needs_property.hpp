#pragma once
// The property both the libFuzzer target and the deterministic CTest check for the needs
// reader: any input either yields an error message or a Needs that survives a round trip
// through JSON unchanged, with unique, non-empty job lists.
#include <string>
#include <string_view>

#include "gatekit/json.hpp"
#include "needs.hpp"

namespace gatekit::fuzzing {

// "" when the property holds, else what broke.
inline std::string needs_property_violation(std::string_view input) {
  using namespace gatekit::matrix_aggregator;
  auto parsed = parse_needs(input, "fuzz");
  if (!parsed) return parsed.error().message.empty() ? "an error without a message" : "";
  if (parsed->jobs.empty()) return "accepted an empty needs object";
  boost::json::object out;
  for (const auto& job : parsed->jobs) {
    if (out.contains(job.name)) return "job '" + job.name + "' appears twice";
    boost::json::object outputs;
    for (const auto& [k, v] : job.outputs) outputs[k] = v;
    out[job.name] = boost::json::object{{"result", to_string(job.result)}, {"outputs", std::move(outputs)}};
  }
  auto again = parse_needs(boost::json::serialize(out), "round trip");
  if (!again) return "round trip rejected: " + again.error().message;
  if (again->jobs.size() != parsed->jobs.size()) return "round trip changed the job count";
  for (std::size_t i = 0; i < parsed->jobs.size(); ++i) {
    const auto& a = parsed->jobs[i];
    const auto& b = again->jobs[i];
    if (a.name != b.name || a.result != b.result || a.outputs != b.outputs)
      return "round trip changed job '" + a.name + "'";
  }
  return "";
}

}  // namespace gatekit::fuzzing
