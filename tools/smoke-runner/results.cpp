#include "results.hpp"

#include <cstdio>

#include "gatekit/text.hpp"

namespace gatekit::smoke_runner {

std::string_view to_string(Status status) {
  switch (status) {
    case Status::passed: return "passed";
    case Status::failed: return "failed";
    case Status::timed_out: return "timed_out";
    case Status::error: return "error";
    case Status::skipped: return "skipped";
    case Status::cancelled: return "cancelled";
    case Status::not_run: return "not_run";
  }
  return "error";
}

bool is_failure(Status status) {
  return status == Status::failed || status == Status::timed_out || status == Status::error;
}

void OutputBuffer::append(std::string_view chunk) {
  total_ += chunk.size();
  if (head_.size() < head_limit_) {
    const auto take = std::min(chunk.size(), head_limit_ - head_.size());
    head_.append(chunk.substr(0, take));
    chunk.remove_prefix(take);
  }
  if (chunk.empty() || tail_limit_ == 0) return;
  tail_.append(chunk);
  // Trimmed in batches so appending stays linear.
  if (tail_.size() > 2 * tail_limit_) tail_.erase(0, tail_.size() - tail_limit_);
}

std::string OutputBuffer::last(std::size_t n) const {
  std::string all = tail_.size() >= n ? std::string() : head_;
  all += tail_;
  if (all.size() > n) all.erase(0, all.size() - n);
  return all;
}

std::string OutputBuffer::text() const {
  const std::size_t tail_kept = std::min(tail_.size(), tail_limit_);
  const std::size_t left_out = total_ - head_.size() - tail_kept;
  std::string out = head_;
  if (left_out > 0) {
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += "[... " + format_bytes(left_out) + " of output left out ...]\n";
  }
  out.append(tail_, tail_.size() - tail_kept, tail_kept);
  return out;
}

std::string display_command(const std::vector<std::string>& argv) {
  std::vector<std::string> parts;
  for (const auto& token : argv) {
    const bool plain = !token.empty() && token.find_first_not_of(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%") == std::string::npos;
    if (plain) {
      parts.push_back(token);
      continue;
    }
    std::string quoted = "'";
    for (char c : token) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    parts.push_back(quoted + "'");
  }
  return gatekit::join(parts, " ");
}

std::string display_devices(const std::vector<int>& devices) {
  std::vector<std::string> parts;
  for (int d : devices) parts.push_back(std::to_string(d));
  return gatekit::join(parts, ",");
}

std::string format_bytes(std::size_t bytes) {
  char buffer[32];
  if (bytes < 1024) std::snprintf(buffer, sizeof buffer, "%zu bytes", bytes);
  else if (bytes < 1024 * 1024) std::snprintf(buffer, sizeof buffer, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  else std::snprintf(buffer, sizeof buffer, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buffer;
}

}  // namespace gatekit::smoke_runner
