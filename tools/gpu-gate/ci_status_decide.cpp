#include "ci_status_decide.hpp"

#include <algorithm>

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
    if (record.mine) continue;
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
    }
    decision.results.push_back(std::move(considered));
  }
  std::stable_sort(decision.results.begin(), decision.results.end(),
                   [](const ConsideredResult& a, const ConsideredResult& b) { return a.record.time > b.record.time; });
  decision.status = decide_status(trusted);
  if (decision.ignored > 0 && !same_status(decision.status, decide_status(published))) {
    decision.ignored_mattered = true;
    decision.status.description += kIgnoredNote;
  }
  return decision;
}

}  // namespace gatekit::gpu_gate
