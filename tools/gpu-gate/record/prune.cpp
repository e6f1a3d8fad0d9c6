// gpu-gate prune [--dry-run]: keep the newest result of each tree and machine; delete older
// runs and expired results here and on the remote, never an expired one an open pull
// request's head relies on. With an allowed-signers file configured, "newest" is decided among
// the published results whose signature verifies (ci-status's check, verify_signatures).
#include <filesystem>
#include <set>

#include "common.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/github.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/repo_path.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "gpu-gate.hpp"
#include "status/open_pulls.hpp"
#include "record/prune_decide.hpp"
#include "record/signatures.hpp"
#include "status/status.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::size_t kRefsPerPush = 200;

// Open pull requests' head commits, from the GitHub API (the issues listing names them, each
// pull request gives its head). nullopt: no token or no repository, nothing checked.
std::optional<std::vector<std::string>> open_pull_heads(Context& context, const PruneOptions& options) {
  auto client_options = github::options_for(context);
  const std::string repo = context.run.repository_or(options.repository);
  if (client_options.token.empty() || repo.empty()) return std::nullopt;
  auto client = github::connect(context, client_options);
  if (!client) return std::nullopt;
  std::vector<std::string> heads;
  for (const auto& pull : value_or_throw(list_open_pulls(*client, repo))) heads.push_back(pull.head_sha);
  return heads;
}

// The trees a head takes its status from: its own, and those of its docs-only ancestry. A
// head this clone does not have (a fork's pull request, never fetched) cannot be read: it is
// skipped, and named in `skipped`. Only expired results are deleted for lack of a reader, and
// an expired result counts for no status, so no status changes by it.
std::set<std::string> relied_on_trees(Context& context, Git& git, const Config& config,
                                      const std::vector<std::string>& heads, std::vector<std::string>& skipped) {
  std::set<std::string> trees;
  for (const auto& head : heads) {
    if (!value_or_throw(git.has_commit(head))) {
      context.workflow.log("skipped open pull request head " + head +
                           ": not in this clone (a fork's pull request?); its results are not kept for it");
      skipped.push_back(head);
      continue;
    }
    StatusQuery query;
    query.rev = head;
    auto gathered = value_or_throw(gather_status_input(git, config, query));
    for (const auto& commit : gathered.input.history) trees.insert(commit.tree);
  }
  return trees;
}

// A file of the configuration's signing section, read from the checkout (where the
// configuration itself is read); nullopt when none is named. Named but absent: fail closed.
std::optional<std::string> signing_file(Context& context, const PruneOptions& options, const std::string& path,
                                        const std::string& what) {
  if (path.empty()) return std::nullopt;
  // Inside the checkout, through no link (gatekit/repo_path.hpp): a link could lead anywhere.
  if (auto inside = check_inside_repository(context.files, options.repo_dir, path); !inside)
    fail_bad_input("the " + what + " file: " + inside.error().message);
  const auto full = std::filesystem::path(options.repo_dir) / path;
  if (!context.files.exists(full)) fail_bad_input("the " + what + " file " + path + " is not in the checkout " + options.repo_dir);
  return value_or_throw(as_bad_input(context.files.read(full)));
}

// The record commits of the published results whose signature verifies against the
// allowed-signers file; nullopt when the configuration names none (every result counts).
std::optional<std::set<std::string>> verified_results(Context& context, const Git& git, const PruneOptions& options,
                                                      const Config& config, const std::vector<GateRecord>& records,
                                                      std::int64_t now) {
  const auto signers = signing_file(context, options, config.allowed_signers, "allowed-signers");
  if (!signers) return std::nullopt;
  const auto revoked = signing_file(context, options, config.revoked_keys, "revoked-keys");
  std::vector<std::string> commits;
  for (const auto& r : records)
    if (r.published()) commits.push_back(r.record_commit);
  const auto verdicts = value_or_throw(verify_signatures(
      git, context.files, *signers, commits, now, config.allowed_signers,
      revoked ? std::optional<std::string_view>(*revoked) : std::nullopt));
  std::set<std::string> verified;
  for (const auto& [commit, verdict] : verdicts)
    if (verdict.check == SignatureCheck::trusted) verified.insert(commit);
  for (const auto& r : records) {
    if (!r.published() || verified.count(r.record_commit) > 0) continue;
    const auto it = verdicts.find(r.record_commit);
    context.workflow.log("signature not verified (" +
                         std::string(to_string(it != verdicts.end() ? it->second.check : SignatureCheck::unverifiable)) +
                         "): " + r.ref + " replaces no verified result");
  }
  return verified;
}

void delete_here(const Git& git, const std::vector<GateRecord>& records) {
  std::string commands;
  for (const auto& r : records) commands += "delete " + r.ref + " " + r.record_commit + "\n";
  if (!commands.empty()) value_or_throw(git.run(GitCommand{"update-ref", "--stdin"}.input(commands)));
}

// Each remote deletion is leased on the object seen, so a result pushed meanwhile stays.
void delete_on_remote(const Git& git, const std::string& remote, const std::vector<GateRecord>& published) {
  for (std::size_t start = 0; start < published.size(); start += kRefsPerPush) {
    const std::size_t end = std::min(published.size(), start + kRefsPerPush);
    GitCommand push{"push", "--porcelain"};
    for (std::size_t i = start; i < end; ++i)
      push.option("--force-with-lease=", published[i].ref + ":" + published[i].record_commit);
    push.argument("the remote", remote);
    for (std::size_t i = start; i < end; ++i) push.argument("the refspec", ":" + published[i].ref);
    value_or_throw(git.run(push));
  }
}

std::string summary_of(const PruneDecision& d, bool dry_run, bool checked, const std::string& remote,
                       const std::vector<std::string>& skipped) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : d.remove)
    rows.push_back({dry_run ? "would delete" : "deleted", markdown_code(r.ref), format_utc(r.time), r.published() ? "here and on " + remote : "here"});
  for (const auto& r : d.superseded)
    rows.push_back({dry_run ? "would delete (a newer result of its tree and machine stays)" : "deleted (a newer result of its tree and machine stays)",
                    markdown_code(r.ref), format_utc(r.time), r.published() ? "here and on " + remote : "here"});
  for (const auto& r : d.spared) rows.push_back({"kept: an open pull request relies on it", markdown_code(r.ref), format_utc(r.time), ""});
  std::string md = "## gpu-gate prune" + std::string(dry_run ? " --dry-run" : "") + "\n\n" +
                   std::to_string(d.remove.size()) + " expired results " + (dry_run ? "would be deleted" : "deleted") + ", " +
                   std::to_string(d.superseded.size()) + " superseded by a newer result of their tree and machine, " +
                   std::to_string(d.spared.size()) + " kept for open pull requests, " + std::to_string(d.kept) + " current.\n\n";
  if (!checked) md += "Open pull requests were not checked (no token or repository).\n\n";
  if (!skipped.empty()) {
    std::vector<std::string> shown;
    for (const auto& head : skipped) shown.push_back(markdown_code(head.substr(0, 12)));
    md += std::to_string(skipped.size()) + " open pull request" + (skipped.size() == 1 ? "" : "s") +
          " skipped: the head is not in this clone (" + join(shown, ", ") +
          "), so nothing is kept for it; fetch `refs/pull/<number>/head` first to keep what it relies on.\n\n";
  }
  if (!d.unverified.empty())
    md += std::to_string(d.unverified.size()) +
          " published results whose signature does not verify against the allowed signers were judged apart: none of "
          "them replaces a verified result.\n\n";
  return md + (rows.empty() ? "" : markdown_table({"action", "result", "recorded", "where"}, rows));
}

}  // namespace

ExitCode run_prune(const PruneOptions& options, Context& context) {
  check_remote(options.remote);
  const Config config = load_gate_config(context, options.repo_dir, options.config);
  Git git(context.processes, options.repo_dir);
  const std::string ns = config.namespace_;
  // Mirror the remote's results first, so the published half below is the remote's.
  throw_if_error(git.fetch(options.remote, {"+refs/" + ns + "/*:refs/" + ns + "/*"}, {.prune = true}));
  std::vector<std::string> rejected;
  const auto records = value_or_throw(read_records(git, ns, &rejected));
  for (const auto& line : rejected) context.workflow.log("left alone (not a result gpu-gate can read): " + line);
  const auto heads = open_pull_heads(context, options);
  if (!heads) context.workflow.log("no token or repository: open pull requests are not checked");
  std::vector<std::string> skipped;
  const auto relied_on = heads ? relied_on_trees(context, git, config, *heads, skipped) : std::set<std::string>{};
  const std::int64_t now = context.clock.epoch_seconds();
  const auto verified = verified_results(context, git, options, config, records, now);
  const PruneDecision decision = decide_prune(records, now, config.expiry, relied_on, verified);
  for (const auto& r : decision.remove) context.workflow.log(std::string(options.dry_run ? "would delete " : "deleting ") + r.ref);
  for (const auto& r : decision.superseded)
    context.workflow.log(std::string(options.dry_run ? "would delete " : "deleting ") + r.ref + " (superseded)");
  for (const auto& r : decision.spared) context.workflow.log("keeping " + r.ref + ": an open pull request relies on it");
  if (!options.dry_run) {
    std::vector<GateRecord> gone = decision.remove;
    gone.insert(gone.end(), decision.superseded.begin(), decision.superseded.end());
    std::vector<GateRecord> published;
    for (const auto& r : gone)
      if (r.published()) published.push_back(r);
    // Here first: the push below also drops the local copies of published refs (the
    // fetch refspec setup adds maps them), which would fail a later leased delete.
    delete_here(git, gone);
    delete_on_remote(git, options.remote, published);
  }
  context.workflow.append_summary(summary_of(decision, options.dry_run, heads.has_value(), options.remote, skipped));
  return ExitCode::pass;
}

}  // namespace gatekit::gpu_gate
