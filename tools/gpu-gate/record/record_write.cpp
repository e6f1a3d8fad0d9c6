#include "gatekit/text.hpp"
#include "git_command.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {

Result<std::string> write_record(const Git& git, const std::string& ns, const GateRecord& record, bool sign,
                                 RefHalf half) {
  if (half == RefHalf::published) return could_not_evaluate("a result is recorded under this machine's refs, never published directly");
  if (auto ok = valid_namespace(ns); !ok) return ok.error();
  if (auto ok = valid_machine(record.machine); !ok) return ok.error();
  if (!is_object_name(record.tree)) return could_not_evaluate("not a tree object name: " + quote_for_message(record.tree));
  const std::string message = format_record(record);
  if (!parse_record(message)) return could_not_evaluate("the record would not read back: " + parse_record(message).error().message);
  const std::string date = "@" + std::to_string(record.time) + " +0000";
  GitCall call;
  if (sign) call.args = {"-c", "gpg.format=ssh", "commit-tree", "-S", record.tree};
  else call.args = {"commit-tree", record.tree};  // an object name, checked above: never an option
  call.stdin_data = message;
  call.env = {{"GIT_AUTHOR_NAME", "gatekit gpu-gate"}, {"GIT_AUTHOR_EMAIL", "gpu-gate@gatekit.invalid"},
              {"GIT_COMMITTER_NAME", "gatekit gpu-gate"}, {"GIT_COMMITTER_EMAIL", "gpu-gate@gatekit.invalid"},
              {"GIT_AUTHOR_DATE", date}, {"GIT_COMMITTER_DATE", date}};
  auto created = git_output(git, call);
  if (!created) {
    Error error = created.error();
    if (sign) error.message = "cannot sign the record (signing: sign is on; set user.signingkey to an SSH key): " + error.message;
    return error;
  }
  const std::string commit = trim(*created);
  if (!is_object_name(commit)) return could_not_evaluate("unexpected git commit-tree output: " + quote_for_message(commit));
  const std::string ref = result_ref(ns, half, record.tree, record.machine, run_id(record.time, commit));
  // Created, never moved: the empty old value makes git refuse a ref that exists.
  if (auto created_ref = git_output(git, {"update-ref", "-m", "gpu-gate run", "--end-of-options", ref, commit, ""}); !created_ref) {
    // The same record again (same tree, machine, facts and second) is the same commit: its
    // ref is already there, and nothing is lost.
    auto existing = git_output(git, {"rev-parse", "--verify", "--quiet", "--end-of-options", ref});
    if (!existing || trim(*existing) != commit) return created_ref.error();
  }
  return ref;
}

}  // namespace gatekit::gpu_gate
