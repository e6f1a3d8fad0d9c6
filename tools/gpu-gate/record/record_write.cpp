#include "gatekit/text.hpp"
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
  GitCommand commit_tree = sign ? GitCommand{"-c", "gpg.format=ssh", "commit-tree", "-S"} : GitCommand{"commit-tree"};
  commit_tree.object(record.tree)  // an object name, checked above: never an option
      .input(message)
      .env("GIT_AUTHOR_NAME", "gatekit gpu-gate")
      .env("GIT_AUTHOR_EMAIL", "gpu-gate@gatekit.invalid")
      .env("GIT_COMMITTER_NAME", "gatekit gpu-gate")
      .env("GIT_COMMITTER_EMAIL", "gpu-gate@gatekit.invalid")
      .env("GIT_AUTHOR_DATE", date)
      .env("GIT_COMMITTER_DATE", date);
  auto created = git.run(commit_tree);
  if (!created) {
    Error error = created.error();
    if (sign) error.message = "cannot sign the record (signing: sign is on; set user.signingkey to an SSH key): " + error.message;
    return error;
  }
  const std::string commit = trim(*created);
  if (!is_object_name(commit)) return could_not_evaluate("unexpected git commit-tree output: " + quote_for_message(commit));
  const std::string ref = result_ref(ns, half, record.tree, record.machine, run_id(record.time, commit));
  // Created, never moved: the empty old value makes git refuse a ref that exists.
  if (auto created_ref = git.run(GitCommand{"update-ref", "-m", "gpu-gate run"}.argument("the ref", ref).argument("the commit", commit).words({""})); !created_ref) {
    // The same record again (same tree, machine, facts and second) is the same commit: its
    // ref is already there, and nothing is lost.
    auto existing = git.run(GitCommand{"rev-parse", "--verify", "--quiet"}.argument("the ref", ref));
    if (!existing || trim(*existing) != commit) return created_ref.error();
  }
  return ref;
}

}  // namespace gatekit::gpu_gate
