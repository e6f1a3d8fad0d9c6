#include "status/post.hpp"

#include <algorithm>

#include "gatekit/environment.hpp"
#include "gatekit/git.hpp"
#include "gatekit/github.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/utf8.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {

namespace {

constexpr std::size_t kMaxDescription = 140;
constexpr std::size_t kMaxContext = 255;

// The repository `owner/name` and the commit (a full object name) a call names.
Status check_target(const std::string& repository, const std::string& sha) {
  static const Regex owner_name(R"([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+)");
  if (!owner_name.matches(repository))
    return bad_input("the repository must be owner/name, got " + quote_for_message(repository));
  if (!is_object_name(sha)) return bad_input("the commit must be a full object name, got " + quote_for_message(sha));
  return {};
}

Status check_post(const StatusPost& post) {
  if (auto ok = check_target(post.repository, post.sha); !ok) return ok;
  if (post.state != "success" && post.state != "failure" && post.state != "pending" && post.state != "error")
    return bad_input("the status state must be success, failure, pending or error, got " +
                     quote_for_message(post.state));
  const bool controls = std::any_of(post.context.begin(), post.context.end(),
                                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  if (post.context.empty() || post.context.size() > kMaxContext || controls || !is_valid_utf8(post.context))
    return bad_input("the status context must be 1 to 255 characters of one line, got " +
                     quote_for_message(post.context));
  return {};
}

}  // namespace

std::string status_description(std::string_view text) {
  const std::string valid = to_valid_utf8(text);
  std::string line;
  std::size_t characters = 0;
  std::size_t cut = std::string::npos;  // byte length after 137 characters
  for (std::size_t pos = 0; pos < valid.size();) {
    const auto ch = decode_utf8(valid, pos);
    const bool control = ch.code_point < 0x20 || ch.code_point == 0x7f;
    line += control ? std::string(" ") : valid.substr(pos, ch.length);
    pos += ch.length;
    if (++characters == kMaxDescription - 3) cut = line.size();
  }
  if (characters <= kMaxDescription) return line;
  return line.substr(0, cut) + "...";
}

Result<std::vector<github::CommitStatus>> read_commit_statuses(const std::string& repository, const std::string& sha,
                                                               Context& context) {
  if (auto ok = check_target(repository, sha); !ok) return ok.error();
  auto options = github::options_for(context);
  if (options.token.empty()) return bad_input("reading the statuses of " + sha + " needs a token: set GITHUB_TOKEN");
  auto client = github::connect(context, options);
  if (!client) return client.error();
  auto statuses = client->list_statuses(repository, sha);
  if (!statuses) {
    Error failure = statuses.error();
    failure.message = "could not read the statuses already posted: " + failure.message;
    return failure;
  }
  return statuses;
}

Status post_commit_status(const StatusPost& post, Context& context) {
  if (auto ok = check_post(post); !ok) return ok;
  auto options = github::options_for(context);
  if (options.token.empty())
    return bad_input("posting the " + post.context + " status needs a token: set GITHUB_TOKEN (statuses: write)");
  auto client = github::connect(context, options);
  if (!client) return client.error();
  github::CommitStatus status;
  status.state = post.state;
  status.context = post.context;
  status.description = status_description(post.description);
  status.target_url = post.target_url;
  auto answer = client->create_status(post.repository, post.sha, status);
  if (!answer) {
    Error failure = answer.error();
    failure.message = "could not post the " + post.context + " status: " + failure.message;
    return failure;
  }
  return {};
}

}  // namespace gatekit::gpu_gate
