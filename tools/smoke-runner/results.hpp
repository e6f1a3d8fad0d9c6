#pragma once
// What happened to each manifest entry, and the small text helpers around it.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gatekit::smoke_runner {

using std::chrono::milliseconds;

enum class Status {
  passed,     // exit code 0
  failed,     // non-zero exit code or killed by a signal
  timed_out,  // ran past its timeout (SIGTERM, grace, SIGKILL)
  error,      // could not be started (program not found, missing cwd)
  skipped,    // not eligible: tier or GPU count (reason says which)
  cancelled,  // running when the runner received SIGINT/SIGTERM
  not_run,    // eligible but never started (runner cancelled, --fail-fast, pending)
};
std::string_view to_string(Status status);
bool is_failure(Status status);  // failed, timed_out, error

struct SmokeResult {
  std::size_t index = 0;  // manifest entry
  Status status = Status::not_run;
  std::string reason;     // skip reason or failure description
  std::vector<int> devices;
  std::optional<milliseconds> start;  // offset from the start of the run
  milliseconds duration{0};
  int exit_code = -1;
  int signal = 0;
  std::string output;  // bounded: head and tail, with a note of what was left out
  std::size_t output_bytes = 0;
};

// Keeps the first `head` and the last `tail` bytes of a stream and counts the rest.
class OutputBuffer {
 public:
  OutputBuffer(std::size_t head, std::size_t tail) : head_limit_(head), tail_limit_(tail) {}
  void append(std::string_view chunk);
  std::size_t total() const { return total_; }
  // head + "[... N bytes of output left out ...]" + tail
  std::string text() const;
  // The last `n` bytes kept.
  std::string last(std::size_t n) const;

 private:
  std::size_t head_limit_;
  std::size_t tail_limit_;
  std::string head_;
  std::string tail_;
  std::size_t total_ = 0;
};

// argv for logs: tokens with shell-special characters are single-quoted.
std::string display_command(const std::vector<std::string>& argv);
// "0", "0,1", "" for none
std::string display_devices(const std::vector<int>& devices);
// "1.2 MiB"
std::string format_bytes(std::size_t bytes);

}  // namespace gatekit::smoke_runner
