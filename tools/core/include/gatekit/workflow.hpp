#pragma once
// Workflow I/O: step outputs, the job summary, annotations, log groups and masks.
// Under GitHub Actions this speaks the workflow-command protocol; in a terminal the same
// calls print readable text. GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files are written
// whenever those variables are set, in either mode.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/environment.hpp"
#include "gatekit/result.hpp"

namespace gatekit {

enum class Severity { notice, warning, error };
std::string_view to_string(Severity s);

struct Annotation {
  Severity severity = Severity::warning;
  std::string message;
  std::string title;  // optional
  std::string file;   // optional, repo-relative
  int line = 0;       // 0 = none
  int column = 0;     // 0 = none
};

class Workflow {
 public:
  virtual ~Workflow() = default;
  virtual void set_output(std::string_view name, std::string_view value) = 0;
  virtual void append_summary(std::string_view markdown) = 0;
  virtual void annotate(const Annotation& annotation) = 0;
  virtual void begin_group(std::string_view title) = 0;
  virtual void end_group() = 0;
  // Hides the value in all later log lines (Actions) and in everything gatekit prints.
  virtual void mask(std::string_view secret) = 0;
  // One line of progress or explanation for the log.
  virtual void log(std::string_view line) = 0;
  // Between these two, text printed from other programs (a smoke's output) cannot act as a
  // workflow command: `::stop-commands::TOKEN` ... `::TOKEN::` under Actions. Not nested.
  virtual void pause_commands() {}
  virtual void resume_commands() {}
};

// Escaping per GitHub's workflow-command rules.
std::string escape_command_data(std::string_view text);      // % CR LF
std::string escape_command_property(std::string_view text);  // % CR LF : ,
std::string format_annotation_command(const Annotation& annotation);
// `name=value`, or the heredoc form with `delimiter` for values containing a newline.
std::string format_output_entry(std::string_view name, std::string_view value,
                                std::string_view delimiter);
// A delimiter that occurs nowhere in value.
std::string make_output_delimiter(std::string_view value);

struct WorkflowFiles {
  std::optional<std::filesystem::path> output;   // GITHUB_OUTPUT
  std::optional<std::filesystem::path> summary;  // GITHUB_STEP_SUMMARY
};

// Writes to `out` (normally stdout) and to the files; `actions` selects the protocol.
class StreamWorkflow final : public Workflow {
 public:
  StreamWorkflow(std::ostream& out, WorkflowFiles files, bool actions);
  void set_output(std::string_view name, std::string_view value) override;
  void append_summary(std::string_view markdown) override;
  void annotate(const Annotation& annotation) override;
  void begin_group(std::string_view title) override;
  void end_group() override;
  void mask(std::string_view secret) override;
  void log(std::string_view line) override;
  void pause_commands() override;
  void resume_commands() override;
  // Errors writing GITHUB_OUTPUT / GITHUB_STEP_SUMMARY, so main can refuse to report a pass.
  const std::vector<std::string>& write_errors() const { return write_errors_; }

 private:
  std::string redact(std::string_view text) const;
  void append_file(const std::filesystem::path& path, std::string_view text);

  std::ostream& out_;
  WorkflowFiles files_;
  bool actions_;
  int group_depth_ = 0;
  std::string pause_token_;  // non-empty while commands are paused
  std::vector<std::string> secrets_;
  std::vector<std::string> write_errors_;
};

// GITHUB_ACTIONS=true selects the protocol; GITHUB_OUTPUT / GITHUB_STEP_SUMMARY the files.
std::unique_ptr<StreamWorkflow> make_workflow(const Environment& env, std::ostream& out);

// In-memory fake for tests.
class RecordingWorkflow final : public Workflow {
 public:
  void set_output(std::string_view name, std::string_view value) override {
    outputs[std::string(name)] = std::string(value);
  }
  void append_summary(std::string_view markdown) override { summary += markdown; }
  void annotate(const Annotation& annotation) override { annotations.push_back(annotation); }
  void begin_group(std::string_view title) override { groups.emplace_back(title); }
  void end_group() override { ++groups_closed; }
  void mask(std::string_view secret) override { masked.emplace_back(secret); }
  void log(std::string_view line) override { lines.emplace_back(line); }
  void pause_commands() override { ++pauses; }
  void resume_commands() override { ++resumes; }

  std::map<std::string, std::string> outputs;
  std::string summary;
  std::vector<Annotation> annotations;
  std::vector<std::string> groups;
  int groups_closed = 0;
  int pauses = 0;
  int resumes = 0;
  std::vector<std::string> masked;
  std::vector<std::string> lines;
};

}  // namespace gatekit
