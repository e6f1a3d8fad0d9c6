#pragma once
// The text of flaky-test issues and their comments (pure). Bodies stay within GitHub's
// 65,536-character limit: the quoted failure is what gets trimmed.
#include <string>
#include <string_view>

#include "issue_state.hpp"

namespace gatekit::flaky_tracker {

// What a flake looked like, quoted in the issue and its comments.
struct FlakeText {
  std::string message;
  std::string detail;  // traceback / output excerpt
  std::string file;
  int line = 0;
};

inline constexpr std::size_t kMaxBodyBytes = 65'000;  // bytes >= characters: under 65,536 characters
inline constexpr std::size_t kMaxCommentBytes = 8'000;

std::string issue_title(std::string_view test_id);

// The body: hidden marker and state, a table of the state, then the failure section:
// `failure` when this run brought one, else the section of the body it replaces (kept).
std::string issue_body(std::string_view test_id, const IssueState& state, const Rules& rules,
                       std::string_view failure_section);
std::string failure_section(const FlakeText& flake, std::string_view run_url, std::size_t max_bytes);
// The failure section of an existing body ("" when it has none).
std::string failure_section_of(std::string_view body);

std::string flake_comment(const FlakeText& flake, const RunStamp& run, bool reopened);
std::string close_comment(IssueMove move, const Rules& rules, const RunStamp& run);
std::string duplicate_comment(std::int64_t canonical);

// A fenced code block showing `text` exactly (the fence is longer than any backtick run in it).
std::string code_block(std::string_view text);

}  // namespace gatekit::flaky_tracker
