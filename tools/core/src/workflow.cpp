#include "gatekit/workflow.hpp"

#include <fstream>
#include <ostream>
#include <random>

namespace gatekit {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::notice: return "notice";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::string escape_command_data(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

std::string escape_command_property(std::string_view text) {
  std::string out;
  for (char c : escape_command_data(text)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

std::string format_annotation_command(const Annotation& a) {
  std::string props;
  auto add = [&](std::string_view key, const std::string& value) {
    props += props.empty() ? " " : ",";
    props += key;
    props += '=';
    props += escape_command_property(value);
  };
  if (!a.file.empty()) add("file", a.file);
  if (a.line > 0) add("line", std::to_string(a.line));
  if (a.column > 0) add("col", std::to_string(a.column));
  if (!a.title.empty()) add("title", a.title);
  return "::" + std::string(to_string(a.severity)) + props + "::" + escape_command_data(a.message);
}

std::string make_output_delimiter(std::string_view value) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  for (;;) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "ghadelimiter_%016llx",
                  static_cast<unsigned long long>(rng()));
    if (value.find(buffer) == std::string_view::npos) return buffer;
  }
}

std::string format_output_entry(std::string_view name, std::string_view value,
                                std::string_view delimiter) {
  std::string out(name);
  if (value.find('\n') == std::string_view::npos && value.find('\r') == std::string_view::npos) {
    out += '=';
    out += value;
    out += '\n';
    return out;
  }
  out += "<<";
  out += delimiter;
  out += '\n';
  out += value;
  if (!value.empty() && value.back() != '\n') out += '\n';
  out += delimiter;
  out += '\n';
  return out;
}

StreamWorkflow::StreamWorkflow(std::ostream& out, WorkflowFiles files, bool actions)
    : out_(out), files_(std::move(files)), actions_(actions) {}

std::string StreamWorkflow::redact(std::string_view text) const {
  std::string out(text);
  for (const auto& secret : secrets_) {
    for (auto pos = out.find(secret); pos != std::string::npos; pos = out.find(secret, pos + 3))
      out.replace(pos, secret.size(), "***");
  }
  return out;
}

void StreamWorkflow::append_file(const std::filesystem::path& path, std::string_view text) {
  std::ofstream file(path, std::ios::app | std::ios::binary);
  file << text;
  file.flush();
  if (!file) write_errors_.push_back("cannot write " + path.string());
}

void StreamWorkflow::set_output(std::string_view name, std::string_view value) {
  if (files_.output) {
    append_file(*files_.output, format_output_entry(name, value, make_output_delimiter(value)));
  } else if (!actions_) {
    out_ << "output " << name << " = " << redact(value) << '\n';
  }
}

void StreamWorkflow::append_summary(std::string_view markdown) {
  if (files_.summary) append_file(*files_.summary, redact(markdown));
}

void StreamWorkflow::annotate(const Annotation& a) {
  Annotation clean = a;
  clean.message = redact(a.message);
  if (actions_) {
    out_ << format_annotation_command(clean) << '\n';
    return;
  }
  out_ << to_string(a.severity) << ": ";
  if (!a.file.empty()) {
    out_ << a.file;
    if (a.line > 0) out_ << ':' << a.line;
    if (a.column > 0) out_ << ':' << a.column;
    out_ << ": ";
  }
  if (!a.title.empty()) out_ << a.title << ": ";
  out_ << clean.message << '\n';
}

void StreamWorkflow::begin_group(std::string_view title) {
  ++group_depth_;
  if (actions_) out_ << "::group::" << escape_command_data(redact(title)) << '\n';
  else out_ << "── " << redact(title) << '\n';
}

void StreamWorkflow::end_group() {
  if (group_depth_ == 0) return;
  --group_depth_;
  if (actions_) out_ << "::endgroup::\n";
}

void StreamWorkflow::mask(std::string_view secret) {
  if (secret.empty()) return;
  secrets_.emplace_back(secret);
  // Multi-line secrets are masked line by line, as the runner does.
  if (actions_) {
    std::size_t start = 0;
    while (start <= secret.size()) {
      auto end = secret.find('\n', start);
      auto line = secret.substr(start, end == std::string_view::npos ? secret.npos : end - start);
      if (!line.empty()) out_ << "::add-mask::" << escape_command_data(line) << '\n';
      if (end == std::string_view::npos) break;
      start = end + 1;
    }
  }
}

void StreamWorkflow::pause_commands() {
  if (!actions_ || !pause_token_.empty()) return;
  pause_token_ = make_output_delimiter("");
  out_ << "::stop-commands::" << pause_token_ << '\n';
}

void StreamWorkflow::resume_commands() {
  if (pause_token_.empty()) return;
  out_ << "::" << pause_token_ << "::\n";
  pause_token_.clear();
}

void StreamWorkflow::log(std::string_view line) {
  out_ << redact(line) << '\n';
  out_.flush();
}

std::unique_ptr<StreamWorkflow> make_workflow(const Environment& env, std::ostream& out) {
  WorkflowFiles files;
  if (auto p = env.get_nonempty("GITHUB_OUTPUT")) files.output = *p;
  if (auto p = env.get_nonempty("GITHUB_STEP_SUMMARY")) files.summary = *p;
  const bool actions = env.get("GITHUB_ACTIONS").value_or("") == "true";
  return std::make_unique<StreamWorkflow>(out, std::move(files), actions);
}

}  // namespace gatekit
