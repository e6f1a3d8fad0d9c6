#pragma once
// A child's output, line by line, into the workflow log (Workflow::log keeps each line
// inert), so a long test pass shows progress and its output cannot act as a workflow
// command. A line longer than 64 KiB is logged in pieces: no unbounded buffer.
#include <string>
#include <string_view>

#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {

class LineLog {
 public:
  explicit LineLog(Workflow& workflow) : workflow_(workflow) {}
  void feed(std::string_view chunk) {
    pending_ += chunk;
    for (auto end = pending_.find('\n'); end != std::string::npos; end = pending_.find('\n')) {
      workflow_.log(pending_.substr(0, end));
      pending_.erase(0, end + 1);
    }
    if (pending_.size() > 64 * 1024) flush();
  }
  void flush() {
    if (!pending_.empty()) workflow_.log(pending_);
    pending_.clear();
  }

 private:
  Workflow& workflow_;
  std::string pending_;
};

}  // namespace gatekit::gpu_gate
