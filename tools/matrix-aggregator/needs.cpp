#include "needs.hpp"

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::matrix_aggregator {

namespace json = boost::json;

std::string_view to_string(JobResult r) {
  switch (r) {
    case JobResult::success: return "success";
    case JobResult::failure: return "failure";
    case JobResult::cancelled: return "cancelled";
    case JobResult::skipped: return "skipped";
  }
  return "failure";
}

std::optional<JobResult> parse_job_result(std::string_view text) {
  if (text == "success") return JobResult::success;
  if (text == "failure") return JobResult::failure;
  if (text == "cancelled") return JobResult::cancelled;
  if (text == "skipped") return JobResult::skipped;
  return std::nullopt;
}

const NeededJob* Needs::find(std::string_view name) const {
  for (const auto& job : jobs)
    if (job.name == name) return &job;
  return nullptr;
}

std::string shown_name(std::string_view name) {
  std::string out = visible_controls(name.substr(0, 200));
  if (name.size() > 200) out += "...";
  return out;
}

Result<Needs> parse_needs(std::string_view text, std::string_view source) {
  const std::string where = "needs (" + std::string(source) + ")";
  if (text.size() > kMaxNeedsBytes)
    return could_not_evaluate(where + ": " + std::to_string(text.size()) + " bytes is more than the " +
                              std::to_string(kMaxNeedsBytes) + " accepted");
  if (trim(text).empty())
    return could_not_evaluate(where + ": empty; pass ${{ toJSON(needs) }} of a job that has needs:");
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = 64;
  json::value root = json::parse(json::string_view(text.data(), text.size()), ec, {}, options);
  if (ec) return could_not_evaluate(where + ": invalid JSON: " + ec.message());
  if (!root.is_object())
    return could_not_evaluate(where + ": expected a JSON object (toJSON(needs)), got " + json_kind_name(root));
  const auto& object = root.get_object();
  if (object.empty())
    return could_not_evaluate(where +
                              ": the object is empty: the aggregator job must list the gate and the gated jobs in needs:");
  Needs needs;
  for (const auto& [key, value] : object) {
    const std::string name(key);
    const std::string job = where + ": job '" + shown_name(name) + "'";
    if (needs.find(name) != nullptr) return could_not_evaluate(job + ": listed twice");
    if (!value.is_object())
      return could_not_evaluate(job + ": expected an object with \"result\", got " + json_kind_name(value));
    const auto& fields = value.get_object();
    const auto* result = json_find(fields, "result");
    if (result == nullptr) return could_not_evaluate(job + ": \"result\" is missing");
    if (!result->is_string())
      return could_not_evaluate(job + ": \"result\" must be a string, got " + json_kind_name(*result));
    auto parsed = parse_job_result(std::string_view(result->get_string()));
    if (!parsed)
      return could_not_evaluate(job + ": unknown result '" + shown_name(std::string_view(result->get_string())) +
                                "' (expected success, failure, cancelled or skipped)");
    NeededJob entry{name, *parsed, {}};
    if (const auto* outputs = json_find(fields, "outputs"); outputs != nullptr && !outputs->is_null()) {
      if (!outputs->is_object())
        return could_not_evaluate(job + ": \"outputs\" must be an object, got " + json_kind_name(*outputs));
      for (const auto& [out_key, out_value] : outputs->get_object()) {
        if (!out_value.is_string())
          return could_not_evaluate(job + ": output '" + shown_name(std::string_view(out_key)) +
                                    "' must be a string, got " + json_kind_name(out_value));
        entry.outputs[std::string(out_key)] = std::string(out_value.get_string());
      }
    }
    needs.jobs.push_back(std::move(entry));
  }
  return needs;
}

}  // namespace gatekit::matrix_aggregator
