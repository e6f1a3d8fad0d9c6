#include "status/ci_status_decide.hpp"

#include <algorithm>

#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

namespace {

bool same_status(const GateStatus& a, const GateStatus& b) {
  return a.state == b.state && a.description == b.description && a.source == b.source;
}

}  // namespace

CiDecision decide_ci_status(const StatusInput& input,
                            const std::optional<std::map<std::string, SignatureVerdict>>& verdicts) {
  CiDecision decision;
  StatusInput published = input;  // every result that reached the remote, trusted or not
  StatusInput trusted = input;    // the ones that count
  published.records.clear();
  trusted.records.clear();
  for (const auto& record : input.records) {
    if (!record.published()) continue;
    ConsideredResult considered{record, std::nullopt, true};
    if (verdicts) {
      const auto it = verdicts->find(record.record_commit);
      considered.signature = it != verdicts->end() ? it->second : SignatureVerdict{SignatureCheck::unverifiable, "", ""};
      considered.counted = considered.signature->check == SignatureCheck::trusted;
    }
    published.records.push_back(record);
    if (considered.counted) {
      trusted.records.push_back(record);
    } else {
      ++decision.ignored;
      std::string why(to_string(considered.signature->check));
      if (!considered.signature->key.empty()) why += " (key " + considered.signature->key + ")";
      if (auto reason = ignore_reason(record, input)) why += "; and " + *reason;
      decision.left_out.push_back(quote_for_message(record.ref, kMaxRefShown) + ": " + why);
    }
    decision.results.push_back(std::move(considered));
  }
  std::stable_sort(decision.results.begin(), decision.results.end(),
                   [](const ConsideredResult& a, const ConsideredResult& b) { return a.record.time > b.record.time; });
  decision.status = decide_status(trusted);
  decision.left_out.insert(decision.left_out.end(), decision.status.ignored.begin(), decision.status.ignored.end());
  if (decision.ignored > 0 && !same_status(decision.status, decide_status(published))) {
    decision.ignored_mattered = true;
    decision.status.description += kIgnoredNote;
  }
  return decision;
}

std::optional<std::int64_t> remembered_failure(const std::vector<github::CommitStatus>& statuses,
                                               std::string_view context) {
  constexpr std::string_view prefix = "failed (result of ";
  std::optional<std::int64_t> newest;
  for (const auto& status : statuses) {
    if (status.context != context || status.state != "failure" || !status.description.starts_with(prefix)) continue;
    const std::string_view rest = std::string_view(status.description).substr(prefix.size());
    if (rest.size() < 21 || (rest[20] != ')' && rest[20] != ';')) continue;
    if (auto time = parse_utc(rest.substr(0, 20)); time && (!newest || *time > *newest)) newest = time;
  }
  return newest;
}

void keep_newer_failure(CiDecision& decision, std::optional<std::int64_t> failure_time, const StatusInput& input) {
  decision.remembered_failure = failure_time;
  if (!failure_time) return;
  const auto skew = std::chrono::duration_cast<std::chrono::seconds>(input.clock_skew).count();
  const auto expiry = std::chrono::duration_cast<std::chrono::seconds>(input.expiry).count();
  if (*failure_time > input.now + skew || *failure_time < input.now - expiry) return;
  auto& status = decision.status;
  if (status.state == GateState::failure) return;
  if (status.record && status.record->time > *failure_time) return;  // a newer result counts
  decision.kept_failure = true;
  status.state = GateState::failure;
  status.description = "failed (result of " + format_utc(*failure_time) + std::string(kKeptFailureNote);
  status.record.reset();
  status.source.clear();
  status.source_kind = StatusSource::none;
}

}  // namespace gatekit::gpu_gate
