#pragma once
// Workflow I/O: step outputs, the job summary, annotations, log groups and masks.
// Under GitHub Actions this speaks the workflow-command protocol; in a terminal the same
// calls print readable text. GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files are written
// whenever those variables are set, in either mode.
#include <array>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gatekit/environment.hpp"
#include "gatekit/result.hpp"

namespace gatekit {

class Files;

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
  // Several outputs, in order: as set_output for each (StreamWorkflow appends them to
  // GITHUB_OUTPUT at once, one open of the file instead of one per output).
  virtual void set_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
    for (const auto& [name, value] : outputs) set_output(name, value);
  }
  virtual void append_summary(std::string_view markdown) = 0;
  virtual void annotate(const Annotation& annotation) = 0;
  virtual void begin_group(std::string_view title) = 0;
  virtual void end_group() = 0;
  // Hides the value in all later log lines (Actions) and in everything gatekit writes: the
  // log, annotations, group titles, GITHUB_OUTPUT values and the summary show `***`.
  virtual void mask(std::string_view secret) = 0;
  // One line of progress or explanation for the log. It may hold outside data: it is
  // printed through inert_line (line breaks shown as `\n`, never a workflow command).
  virtual void log(std::string_view line) = 0;
  // Between these two, text printed from other programs (a smoke's output) cannot act as a
  // workflow command: `::stop-commands::TOKEN` ... `::TOKEN::` under Actions. Not nested.
  virtual void pause_commands() {}
  virtual void resume_commands() {}
  // Step outputs or summary text that could not be written (a full disk, an output name
  // GITHUB_OUTPUT cannot carry): the frame refuses to report a pass while any is listed.
  virtual const std::vector<std::string>& write_errors() const {
    static const std::vector<std::string> none;
    return none;
  }
  // Whether the run set an output of this name (written or not): the frame writes `result`
  // again, as `error`, over a verdict the run had set when the result could not be reported.
  virtual bool has_output(std::string_view /*name*/) const { return false; }
};

// Outside data in the log. The runner reads each line of a step's stdout and stderr (split
// at LF, CR and CRLF) as a workflow command when, after leading whitespace, it starts with
// `::` (`::name props::data`), or when it holds `##[name props]data` anywhere (the legacy
// form, tried when the first does not parse). Its matching is culture-aware, so characters
// it ignores (controls, zero-width and other format characters) may sit between those marks.
//
// inert_line(text) is one line, whatever `text` holds, that the runner reads as no command:
// - controls are shown as escapes (visible_controls in text.hpp; tabs kept), so no LF or CR
//   can start a new line;
// - a `[` that completes `##[` (counting only ASCII characters other than controls) becomes
//   `\x5b`;
// - when the first ASCII character that is not a space is `:`, it becomes `\x3a`.
// Text with none of these reads exactly as it came. Every line the Workflow prints goes through it.
std::string inert_line(std::string_view text);
// inert_line applied to each LF-separated line of `text`, for multi-line messages: the line
// structure is kept, and no line can act as a command.
std::string inert_lines(std::string_view text);
// Serialized JSON printed as one log line (a tool whose stdout is JSON): unchanged when
// inert_line would leave it so; else every `[` and non-ASCII character inside strings becomes
// a `\u` escape, which leaves the JSON value as it was (invalid UTF-8 becomes U+FFFD). JSON
// serializers already escape line breaks, and JSON never starts with `:`.
std::string inert_json(std::string_view json);

// Escaping per GitHub's workflow-command rules.
std::string escape_command_data(std::string_view text);      // % CR LF
std::string escape_command_property(std::string_view text);  // % CR LF : ,
// `::severity file=..,line=..,col=..,title=..::message`. Data and properties round-trip
// through the runner's unescaping, except that a `##[` in them shows as `##\x5b` (so the
// line stays inert should the runner fall back to the legacy form), a message starting with
// a non-ASCII character gets a leading space (a combining mark right after `::` would hide
// the separator from the runner's culture-aware search), and the runner drops leading `=`
// and trailing whitespace of property values.
std::string format_annotation_command(const Annotation& annotation);
// `name=value`, or the heredoc form with `delimiter` for values containing a newline.
std::string format_output_entry(std::string_view name, std::string_view value,
                                std::string_view delimiter);
// The same, appended to `out`.
void append_output_entry(std::string& out, std::string_view name, std::string_view value,
                         std::string_view delimiter);
// A delimiter that occurs nowhere in value.
std::string make_output_delimiter(std::string_view value);

// Paths as the runner gives them (plain strings: this header reaches every tool file and
// stays free of <filesystem>).
struct WorkflowFiles {
  std::optional<std::string> output;   // GITHUB_OUTPUT
  std::optional<std::string> summary;  // GITHUB_STEP_SUMMARY
};

// Writes to `out` (normally stdout) and, through `disk`, to the files; `actions` selects the
// protocol.
class StreamWorkflow final : public Workflow {
 public:
  StreamWorkflow(std::ostream& out, WorkflowFiles files, bool actions, Files& disk);
  void set_output(std::string_view name, std::string_view value) override;
  void set_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) override;
  void append_summary(std::string_view markdown) override;
  void annotate(const Annotation& annotation) override;
  void begin_group(std::string_view title) override;
  void end_group() override;
  void mask(std::string_view secret) override;
  void log(std::string_view line) override;
  void pause_commands() override;
  void resume_commands() override;
  // Errors writing GITHUB_OUTPUT / GITHUB_STEP_SUMMARY (or an output name that GITHUB_OUTPUT
  // cannot carry), so main can refuse to report a pass.
  const std::vector<std::string>& write_errors() const override { return write_errors_; }
  bool has_output(std::string_view name) const override { return names_.count(name) != 0; }

 private:
  std::string redact(std::string_view text) const;
  void append_file(const std::string& path, std::string_view text);
  // One output, checked and redacted: its GITHUB_OUTPUT entry appended to `text`, or without
  // that file its log line printed. False (and a write error) for a name the file cannot carry.
  bool add_output(std::string& text, std::string_view name, std::string_view value);

  std::ostream& out_;
  WorkflowFiles files_;
  Files& disk_;
  bool actions_;
  int group_depth_ = 0;
  std::string pause_token_;  // non-empty while commands are paused
  std::vector<std::string> secrets_;
  std::vector<std::string> write_errors_;
  std::set<std::string, std::less<>> names_;  // of the outputs set
};

// GITHUB_ACTIONS=true selects the protocol; GITHUB_OUTPUT / GITHUB_STEP_SUMMARY the files.
// The files are appended to through `disk`.
std::unique_ptr<StreamWorkflow> make_workflow(const Environment& env, std::ostream& out, Files& disk);

// The variables naming the files through which a step talks to the runner (outputs,
// environment, PATH, summary, state): GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH,
// GITHUB_STEP_SUMMARY, GITHUB_STATE. A child that must not write into the step (a smoke) is
// started without them.
const std::array<std::string_view, 5>& step_file_variables();

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
  const std::vector<std::string>& write_errors() const override { return unwritten; }
  bool has_output(std::string_view name) const override { return outputs.count(std::string(name)) != 0; }

  std::map<std::string, std::string> outputs;
  std::string summary;
  std::vector<Annotation> annotations;
  std::vector<std::string> groups;
  int groups_closed = 0;
  int pauses = 0;
  int resumes = 0;
  std::vector<std::string> masked;
  std::vector<std::string> lines;
  // What a test pretends could not be written (a full disk): the frame turns a pass into exit 3.
  std::vector<std::string> unwritten;
};

}  // namespace gatekit
