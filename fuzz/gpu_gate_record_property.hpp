#pragma once
// The property both the libFuzzer target (fuzz/gpu_gate_record.cpp) and the deterministic
// CTest (tests/gpu-gate/test_record_fuzz.cpp) check for what gpu-gate reads from other
// machines' result refs, which anyone who can push to the repository may write:
// - a result ref name either is refused, or splits into a full object name, a valid machine
//   id and a run id from which the same ref name is built again, a name git itself accepts;
// - a record message either is refused with a message, or gives a record whose every value
//   is what gpu-gate could have written: object names, a valid machine id, counts that are
//   not negative, and free text that is already clean (printable ASCII, bounded), so nothing
//   from the message reaches a summary or the log unchecked;
// - a record commit object either is refused with a message, or has one tree (a full object
//   name), one committer line and its message after the first blank line: what git verifies
//   a signature against is what gatekit reads;
// - clean_fact makes any text clean, and clean text stays as it is.
// The first byte chooses the role (from 0x80: a record commit object; below, even: a record
// message, odd: a ref name); the rest is it.
#include <string>
#include <string_view>

#include "entry.hpp"
#include "gatekit/git.hpp"
#include "git_refs_property.hpp"
#include "record/record.hpp"

namespace gatekit::fuzzing {

inline constexpr std::string_view kGateNamespace = "gatekit-gate";

inline bool clean(std::string_view text) {
  return text.size() <= gpu_gate::kMaxFactBytes && gpu_gate::clean_fact(text) == text;
}

inline std::string ref_name_violation(std::string_view ref) {
  const auto parts = gpu_gate::parse_ref_name(kGateNamespace, ref);
  if (!parts) return "";
  if (!is_object_name(parts->tree)) return "a result ref whose tree is not an object name";
  if (!gpu_gate::valid_machine(parts->machine)) return "a result ref with an invalid machine id";
  const auto again = gpu_gate::result_ref(kGateNamespace, parts->half, parts->tree, parts->machine, parts->run);
  if (again != ref) return "the ref name does not survive a round trip: " + quote_for_message(ref);
  if (!check_revision(ref)) return "accepted a result ref git would refuse: " + quote_for_message(ref);
  return "";
}

inline std::string record_violation(std::string_view message) {
  const auto parsed = gpu_gate::parse_record(message);
  if (!parsed) return parsed.error().message.empty() ? "a refusal without a message" : "";
  const auto& r = *parsed;
  if (!is_object_name(r.commit) || !is_object_name(r.tree)) return "a record without full object names";
  if (!gpu_gate::valid_machine(r.machine)) return "a record with an invalid machine id";
  const auto& c = r.counts;
  if (c.passed < 0 || c.failed < 0 || c.skipped < 0 || c.errors < 0 || r.duration.count() < 0 || r.device.count < 0)
    return "a record with a negative count or duration";
  if (r.format == 2 ? r.config.size() != 71 || !r.config.starts_with("sha256:") : !r.config.empty())
    return "a record whose configuration digest does not fit its format";
  for (const auto* text : {&r.scope, &r.stress, &r.config, &r.gatekit_version, &r.device.backend, &r.device.driver_version,
                           &r.device.runtime_version, &r.device.visible_devices}) {
    if (!clean(*text)) return "a record value that is not clean: " + quote_for_message(*text);
  }
  for (const auto& gpu : r.device.gpus) {
    if (!clean(gpu)) return "a GPU name that is not clean: " + quote_for_message(gpu);
  }
  if (gpu_gate::format_record(r) != message) return "a record that gpu-gate would write differently";
  return "";
}

inline std::string commit_violation(std::string_view object) {
  const auto parsed = gpu_gate::parse_record_commit(object);
  if (!parsed) return parsed.error().message.empty() ? "a commit refusal without a message" : "";
  const auto end = object.find("\n\n");
  if (!is_object_name(parsed->tree) || object.substr(0, 5 + parsed->tree.size()) != "tree " + parsed->tree)
    return "a record commit whose tree is not its first header";
  if (parsed->message != object.substr(end + 2)) return "a record commit whose message is not what follows its headers";
  std::size_t committers = 0;
  for (std::size_t at = object.find("\ncommitter "); at != std::string_view::npos && at < end;
       at = object.find("\ncommitter ", at + 1))
    ++committers;
  if (committers != 1) return "a record commit with " + std::to_string(committers) + " committer lines";
  return "";
}

inline std::string gpu_gate_record_property_violation(std::string_view input) {
  const auto text = after_selector(input);
  const auto cleaned = gpu_gate::clean_fact(text);
  if (!clean(cleaned)) return "clean_fact left text that is not clean: " + quote_for_message(cleaned);
  if (selector(input) >= 0x80) return commit_violation(text);
  return (selector(input) & 1) ? ref_name_violation(text) : record_violation(text);
}

}  // namespace gatekit::fuzzing
