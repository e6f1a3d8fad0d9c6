// CI's memory of failures: see ci_memory.hpp.
#include "status/ci_memory.hpp"

#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "status/post.hpp"

namespace gatekit::gpu_gate {

std::optional<std::int64_t> PostedStatuses::failure_on(const std::string& commit, const std::set<std::string>& trees) {
  auto it = read_.find(commit);
  if (it == read_.end())
    it = read_.emplace(commit, value_or_throw(read_commit_statuses(poster_.repository, commit, context_))).first;
  return remembered_failure(it->second, poster_.context, poster_.login, trees);
}

void remember(PostedStatuses& posted, CiDecision& decision, const StatusInput& input,
              const std::vector<std::string>& commits, const std::set<std::string>& trees) {
  std::optional<std::int64_t> newest;
  auto take = [&newest](std::optional<std::int64_t> time) {
    if (time && (!newest || *time > *newest)) newest = time;
  };
  for (const auto& commit : commits) take(posted.failure_on(commit, trees));
  const auto& counted = decision.status.record;
  if (counted && counted->verdict == Verdict::pass) take(posted.failure_on(counted->record_commit, trees));
  keep_newer_failure(decision, newest, input);
}

void mark_outranked(const Poster& poster, Context& context, const CiDecision& decision, const StatusInput& input) {
  const auto passes = outranked_passes(decision, input);
  if (passes.empty()) return;
  const GateRecord& failed = *decision.status.record;
  for (const auto& pass : passes) {
    StatusPost mark{poster.repository, pass.record_commit, poster.context, "failure",
                    outranked_description(failed.time, failed.tree), poster.target_url};
    throw_if_error(post_commit_status(mark, context));
    context.workflow.log("marked " + pass.ref + " as outranked by the failure of " + format_utc(failed.time) +
                         " (tree " + failed.tree + ")");
  }
}

}  // namespace gatekit::gpu_gate
