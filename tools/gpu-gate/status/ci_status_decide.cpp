#include "status/ci_status_decide.hpp"

#include <algorithm>

#include "gatekit/git.hpp"
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
                                               std::string_view context, std::string_view poster,
                                               const std::set<std::string>& trees) {
  constexpr std::string_view marker = "(result of ";
  constexpr std::string_view for_tree = ") for tree ";
  std::optional<std::int64_t> newest;
  for (const auto& status : statuses) {
    if (status.context != context || status.state != "failure" || status.creator.empty() || status.creator != poster ||
        !status.description.starts_with("failed"))
      continue;
    const std::string_view text = status.description;
    const auto at = text.find(marker);
    if (at == std::string_view::npos) continue;
    const std::string_view rest = text.substr(at + marker.size());
    if (rest.size() < 21 || (rest[20] != ')' && rest[20] != ';')) continue;
    const std::string_view tail = rest.substr(20);
    if (tail.starts_with(for_tree)) {  // a mark: it applies to the walks that pass through its tree
      const std::string tree(tail.substr(for_tree.size()));
      if (!is_object_name(tree) || trees.count(tree) == 0) continue;
    }
    if (auto time = parse_utc(rest.substr(0, 20)); time && (!newest || *time > *newest)) newest = time;
  }
  return newest;
}

std::string outranked_description(std::int64_t failure_time, std::string_view tree) {
  return "failed (result of " + format_utc(failure_time) + ") for tree " + std::string(tree);
}

std::vector<GateRecord> outranked_passes(const CiDecision& decision, const StatusInput& input) {
  const auto& status = decision.status;
  if (status.state != GateState::failure || !status.record || decision.kept_failure) return {};
  const GateRecord& failed = *status.record;
  // The walk from the failure's tree on: the trees whose passes would lend in its place.
  std::set<std::string> after;
  bool reached = false;
  for (const auto& at : input.history) {
    reached = reached || at.tree == failed.tree;
    if (reached) after.insert(at.tree);
  }
  std::vector<GateRecord> passes;
  for (const auto& result : decision.results) {  // newest first
    const auto& r = result.record;
    if (!result.counted || r.verdict != Verdict::pass || r.time >= failed.time || after.count(r.tree) == 0 ||
        ignore_reason(r, input))
      continue;
    if (passes.size() == kMaxMarks) break;
    passes.push_back(r);
  }
  return passes;
}

std::set<std::string> lending_trees(const StatusInput& input, const GateStatus& status) {
  std::set<std::string> trees;
  if (!status.record) return trees;
  for (const auto& at : input.history) {
    trees.insert(at.tree);
    if (at.tree == status.record->tree) break;
  }
  return trees;
}

std::optional<std::int64_t> failure_time(const CiDecision& decision) {
  if (decision.status.state != GateState::failure) return std::nullopt;
  if (decision.kept_failure) return decision.remembered_failure;
  if (decision.status.record) return decision.status.record->time;
  return std::nullopt;
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
