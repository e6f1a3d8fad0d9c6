// gate/gpu on a merge queue's group commit: see merge_group.hpp.
#include "status/merge_group.hpp"

#include <algorithm>

#include "gatekit/git.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::string_view kQueuePrefix = "gh-readonly-queue/";
constexpr std::size_t kDescriptionLimit = 140;  // GitHub's limit on a status description

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string added_code_description(const std::vector<std::string>& paths) {
  const std::string lead = "the queue adds code the gate did not test: ";
  const std::string more = paths.size() > 1 ? " (+" + std::to_string(paths.size() - 1) + " more)" : "";
  std::string path = paths.front();
  const std::size_t room = kDescriptionLimit - lead.size() - more.size();
  if (path.size() > room) path = "..." + path.substr(path.size() - (room - 3));
  return lead + path + more;
}

}  // namespace

Result<QueueRef> parse_queue_ref(std::string_view ref) {
  const std::string shown = quote_for_message(ref);
  auto bad = [&] {
    return bad_input("--merge-group must be a merge queue branch, gh-readonly-queue/<branch>/pr-<number>-<commit>, got " +
                     shown);
  };
  std::string_view rest = ref;
  if (rest.starts_with("refs/heads/")) rest.remove_prefix(11);
  if (!rest.starts_with(kQueuePrefix)) return bad();
  rest.remove_prefix(kQueuePrefix.size());
  const auto slash = rest.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return bad();
  QueueRef out;
  out.base_branch = std::string(rest.substr(0, slash));
  std::string_view entry = rest.substr(slash + 1);  // pr-<number>-<commit>
  if (!entry.starts_with("pr-")) return bad();
  entry.remove_prefix(3);
  const auto dash = entry.find('-');
  if (dash == std::string_view::npos) return bad();
  out.pr = std::string(entry.substr(0, dash));
  out.base_commit = std::string(entry.substr(dash + 1));
  if (!all_digits(out.pr) || out.pr.size() > 10 || out.pr.front() == '0' || !is_object_name(out.base_commit))
    return bad();
  if (auto ok = check_revision(out.base_branch); !ok || out.base_branch.starts_with("refs/")) return bad();
  return out;
}

GateStatus decide_merge_group(const GateStatus& group_own, const GateStatus& head, std::string_view head_commit,
                              const std::vector<std::string>& added_code, std::optional<std::int64_t> head_failed_at,
                              const std::vector<std::string>& added_outside, std::string_view filter) {
  if (group_own.source_kind != StatusSource::none) return group_own;
  GateStatus status = group_own;  // the group's tree; no result of its own
  if (!added_code.empty()) {
    status.state = GateState::pending;
    status.description = added_code_description(added_code);
    return status;
  }
  const std::string at = short_commit(head_commit);
  status.state = head.state;
  status.source = head.source;
  status.source_kind = head.source_kind == StatusSource::none ? StatusSource::none : StatusSource::inherited;
  status.record = head.record;
  status.outside_filter = head.outside_filter;
  status.outside_filter.insert(status.outside_filter.end(), added_outside.begin(), added_outside.end());
  std::sort(status.outside_filter.begin(), status.outside_filter.end());
  status.outside_filter.erase(std::unique(status.outside_filter.begin(), status.outside_filter.end()), status.outside_filter.end());
  switch (head.state) {
    case GateState::success:
      status.description = "inherited from " + at + " (pull request head), the queue adds ";
      if (added_outside.empty()) status.description += "docs only";
      else
        status.description += std::to_string(added_outside.size()) + (added_outside.size() == 1 ? " file" : " files") +
                              " outside the " + std::string(filter.substr(0, 40)) + " filter";
      break;
    case GateState::failure:
      status.description = "failed at the pull request head " + at;
      if (head_failed_at) status.description += " (result of " + format_utc(*head_failed_at) + ")";
      break;
    case GateState::pending:
      status.description = "no gate result for the pull request head " + at;
      break;
  }
  return status;
}

}  // namespace gatekit::gpu_gate
