#include "status/status_decide.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {
namespace {

std::string minutes_text(std::int64_t minutes) {
  return std::to_string(minutes) + (minutes == 1 ? " minute" : " minutes");
}

// The newest record per tree that counts (ties: the later machine id, so the choice is
// stable); the others are named in `ignored`.
std::map<std::string, const GateRecord*> newest_by_tree(const StatusInput& input, std::vector<std::string>& ignored) {
  std::map<std::string, const GateRecord*> newest;
  for (const auto& record : input.records) {
    if (auto reason = ignore_reason(record, input)) {
      ignored.push_back(quote_for_message(record.ref.empty() ? "machine " + record.machine : record.ref, kMaxRefShown) + ": " + *reason);
      continue;
    }
    auto& best = newest[record.tree];
    if (best == nullptr || record.time > best->time ||
        (record.time == best->time && record.machine > best->machine))
      best = &record;
  }
  return newest;
}

// `outside`: the paths of the steps from the commit to `at` that are not docs only (each
// needs no GPU result); empty for an exact result and a docs-only inheritance.
GateStatus from_record(const GateRecord& record, const HistoryCommit& at, bool exact, const std::set<std::string>& outside,
                       const StatusInput& input) {
  GateStatus status;
  status.record = record;
  status.source = at.commit;
  status.source_kind = exact ? StatusSource::exact : StatusSource::inherited;
  if (!exact) status.outside_filter.assign(outside.begin(), outside.end());
  if (record.verdict == Verdict::fail) {
    status.state = GateState::failure;
    status.description = failure_description(record.time);
  } else {
    status.state = GateState::success;
    if (exact) status.description = "passed in " + short_duration(record.duration);
    else if (outside.empty()) status.description = "inherited from " + short_commit(at.commit) + ", docs-only delta";
    else status.description = no_gpu_change_description(at.commit, outside.size(), input.gpu_filter);
  }
  if (without_gpu(record.device)) status.description += kNoGpuNote;
  return status;
}

}  // namespace

std::string_view to_string(GateState state) {
  switch (state) {
    case GateState::success: return "success";
    case GateState::failure: return "failure";
    case GateState::pending: return "pending";
  }
  return "pending";
}

std::string_view to_string(StatusSource source) {
  switch (source) {
    case StatusSource::exact: return "exact";
    case StatusSource::inherited: return "inherited";
    case StatusSource::no_code_change: return "no-code-change";
    case StatusSource::no_gpu_change: return "no-gpu-change";
    case StatusSource::none: return "none";
  }
  return "none";
}

std::optional<std::string> ignore_reason(const GateRecord& record, const StatusInput& input) {
  const std::int64_t skew = std::chrono::duration_cast<std::chrono::seconds>(input.clock_skew).count();
  const std::string allowed = "the allowed clock skew is " + minutes_text(input.clock_skew.count());
  if (without_gpu(record.device) && !input.cpu_gate)
    return std::string("recorded without a GPU (gpu-count " + std::to_string(record.device.count) +
                       "): only a GPU machine's result counts (the configuration does not set cpu_gate)");
  if (input.config_digest && record.config.empty())
    return "recorded before results named their configuration (format " + std::string(kRecordFormatV1) +
           "): run the gate again";
  if (input.config_digest && record.config != *input.config_digest)
    return "recorded with another configuration of the gate (" + record.config.substr(0, 19) + ") than the base branch's (" +
           input.config_digest->substr(0, 19) + "): the scope, the command or the selection file differ; run the gate again "
           "(it reads the base branch's configuration)";
  if (record.committer_time && (*record.committer_time > record.time + skew || *record.committer_time < record.time - skew))
    return "its commit date (" + format_utc(*record.committer_time) + ") is not its time (" + format_utc(record.time) +
           "): " + allowed;
  if (record.time > input.now + skew)
    return "dated " + minutes_text((record.time - input.now + 59) / 60) + " in the future: " + allowed;
  const std::int64_t oldest = input.now - std::chrono::duration_cast<std::chrono::seconds>(input.expiry).count();
  if (record.time < oldest) return "older than the expiry (" + std::to_string(input.expiry.count() / 24) + " days)";
  return std::nullopt;
}

std::string failure_description(std::int64_t result_time) { return "failed (result of " + format_utc(result_time) + ")"; }

GateStatus decide_status(const StatusInput& input) {
  GateStatus status;
  const auto newest = newest_by_tree(input, status.ignored);
  std::set<std::string> outside;  // the steps' paths passed so far that are not docs only
  for (std::size_t i = 0; i < input.history.size(); ++i) {
    const auto& at = input.history[i];
    // A docs-only commit may carry the tree of its parent: the first commit of the walk
    // with that tree is the one named.
    if (auto it = newest.find(at.tree); it != newest.end()) {
      const bool exact = at.tree == input.history.front().tree;
      auto ignored = std::move(status.ignored);
      status = from_record(*it->second, exact ? input.history.front() : at, exact, outside, input);
      status.ignored = std::move(ignored);
      break;
    }
    if (!at.needs_no_gpu()) break;  // older commits differ in what the GPU runs: they lend nothing
    if (!at.docs_only_step) outside.insert(at.outside_filter.begin(), at.outside_filter.end());
  }
  if (status.source_kind == StatusSource::none) {
    if (input.change_docs_only.value_or(false)) {
      status.state = GateState::success;
      status.description = "no code change";
      status.source_kind = StatusSource::no_code_change;
    } else if (!input.change_outside_filter.empty()) {
      status.state = GateState::success;
      status.description = no_gpu_change_description(input.merge_base, input.change_outside_filter.size(), input.gpu_filter);
      status.source_kind = StatusSource::no_gpu_change;
      status.outside_filter = input.change_outside_filter;
    } else {
      status.state = GateState::pending;
      status.description = "no gate result for this tree";
    }
  }
  if (!input.history.empty()) status.tree = input.history.front().tree;
  return status;
}

std::string no_gpu_change_description(std::string_view since, std::size_t files, std::string_view filter) {
  constexpr std::size_t kMaxFilterShown = 40;  // a status description holds 140 characters
  const std::string name(filter.substr(0, kMaxFilterShown));
  return "no GPU-relevant change since " + short_commit(since) + ": " + std::to_string(files) +
         (files == 1 ? " file" : " files") + " outside the " + name + " filter";
}

std::string short_duration(std::chrono::milliseconds duration) {
  const auto seconds = duration.count() / 1000;
  if (seconds < 60) return std::to_string(seconds) + "s";
  const auto minutes = seconds / 60;
  if (minutes < 60) return std::to_string(minutes) + "m";
  const auto rest = minutes % 60;
  return std::to_string(minutes / 60) + "h " + (rest < 10 ? "0" : "") + std::to_string(rest) + "m";
}

std::string short_commit(std::string_view commit) { return std::string(commit.substr(0, 12)); }

}  // namespace gatekit::gpu_gate
