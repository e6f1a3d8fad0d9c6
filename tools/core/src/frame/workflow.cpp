#include "gatekit/workflow.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <random>

#include "gatekit/files.hpp"
#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::notice: return "notice";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

namespace {

// A byte the runner's culture-aware matching may skip: controls and anything non-ASCII
// (zero-width and other format characters, Unicode spaces). Treating all of them as
// skippable is stricter than the runner, never looser.
bool maybe_ignored(unsigned char c) { return c < 0x20 || c == 0x7F || c >= 0x80; }

// `##[` (with skippable bytes anywhere between) loses its `[`: no legacy command can start.
std::string break_legacy_commands(std::string_view text, std::string_view bracket = "\\x5b") {
  // Plain printable ASCII has no skippable byte: only a literal `##[` needs breaking.
  if (is_printable_ascii(text) && text.find("##[") == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  int hashes = 0;
  for (char ch : text) {
    if (maybe_ignored(static_cast<unsigned char>(ch))) {
      out += ch;
      continue;
    }
    if (ch == '[' && hashes >= 2) {
      out += bracket;
      hashes = 0;
      continue;
    }
    hashes = ch == '#' ? hashes + 1 : 0;
    out += ch;
  }
  return out;
}

// Command data that starts with a non-ASCII character could glue to the `::` before it.
std::string guard_data_start(std::string data) {
  if (!data.empty() && static_cast<unsigned char>(data.front()) >= 0x80) data.insert(0, 1, ' ');
  return data;
}

}  // namespace

std::string inert_line(std::string_view text) {
  std::string line = break_legacy_commands(visible_controls(text, /*keep_tabs=*/true));
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || maybe_ignored(static_cast<unsigned char>(line[i])))) ++i;
  if (i < line.size() && line[i] == ':') line.replace(i, 1, "\\x3a");
  return line;
}

std::string inert_lines(std::string_view text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    auto line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out += inert_line(line);
    if (!last) out += '\n';
    start = end + 1;
  }
  return out;
}

namespace {

void append_json_escape(std::string& out, char32_t unit) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(unit));
  out += buffer;
}

// The code point as JSON \u escapes (a surrogate pair above U+FFFF).
void append_json_code_point(std::string& out, char32_t cp) {
  if (cp < 0x10000) return append_json_escape(out, cp);
  cp -= 0x10000;
  append_json_escape(out, 0xD800 + (cp >> 10));
  append_json_escape(out, 0xDC00 + (cp & 0x3FF));
}

}  // namespace

std::string inert_json(std::string_view json) {
  if (inert_line(json) == json) return std::string(json);
  // Only string contents can hold what the runner would read (a `##[`, a line separator, a
  // character it ignores between the marks): escape them there, so the value is unchanged.
  std::string out;
  out.reserve(json.size() + json.size() / 4);
  bool in_string = false;
  for (std::size_t i = 0; i < json.size();) {
    const auto c = static_cast<unsigned char>(json[i]);
    if (!in_string || c == '"') {
      in_string = in_string ? false : c == '"';
      out += json[i++];
    } else if (c == '\\') {
      out.append(json.substr(i, 2));  // an escape the serializer wrote: \" \\ \n \u00XX ...
      i += 2;
    } else if (c == '[') {
      out += "\\u005b";
      ++i;
    } else if (c < 0x80) {
      out += json[i++];
    } else {
      const auto ch = decode_utf8(json, i);
      append_json_code_point(out, ch.valid ? ch.code_point : 0xFFFD);
      i += ch.length;
    }
  }
  return out;
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
    props += escape_command_property(break_legacy_commands(value));
  };
  if (!a.file.empty()) add("file", a.file);
  if (a.line > 0) add("line", std::to_string(a.line));
  if (a.column > 0) add("col", std::to_string(a.column));
  if (!a.title.empty()) add("title", a.title);
  // A trailing space keeps the `::` after a non-ASCII last value findable; the runner trims it.
  if (!props.empty() && static_cast<unsigned char>(props.back()) >= 0x80) props += ' ';
  return "::" + std::string(to_string(a.severity)) + props + "::" +
         guard_data_start(escape_command_data(break_legacy_commands(a.message)));
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

void append_output_entry(std::string& out, std::string_view name, std::string_view value,
                         std::string_view delimiter) {
  out += name;
  if (value.find('\n') == std::string_view::npos && value.find('\r') == std::string_view::npos) {
    out += '=';
    out += value;
    out += '\n';
    return;
  }
  out += "<<";
  out += delimiter;
  out += '\n';
  // The runner drops the line break before the delimiter: one is always added, so a value
  // that ends with a line break keeps it.
  out += value;
  out += '\n';
  out += delimiter;
  out += '\n';
}

std::string format_output_entry(std::string_view name, std::string_view value,
                                std::string_view delimiter) {
  std::string out;
  append_output_entry(out, name, value, delimiter);
  return out;
}

StreamWorkflow::StreamWorkflow(std::ostream& out, WorkflowFiles files, bool actions, Files& disk)
    : out_(out), files_(std::move(files)), disk_(disk), actions_(actions) {}

namespace {

// What GitHub accepts as an output name; anything else could break the GITHUB_OUTPUT format.
bool valid_output_name(std::string_view name) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (name.empty() || !letter(name.front())) return false;
  for (char c : name)
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '-') return false;
  return true;
}

}  // namespace

std::string StreamWorkflow::redact(std::string_view text) const {
  std::string out(text);
  for (const auto& secret : secrets_) {
    for (auto pos = out.find(secret); pos != std::string::npos; pos = out.find(secret, pos + 3))
      out.replace(pos, secret.size(), "***");
  }
  return out;
}

void StreamWorkflow::append_file(const std::string& path, std::string_view text) {
  if (!disk_.append(path, text)) write_errors_.push_back("cannot write " + path);
}

bool StreamWorkflow::add_output(std::string& text, std::string_view name, std::string_view value) {
  names_.emplace(name);
  if (!valid_output_name(name)) {
    write_errors_.push_back("invalid output name '" + visible_controls(name) + "'");
    return false;
  }
  std::string redacted;
  std::string_view clean = value;
  if (!secrets_.empty()) clean = redacted = redact(value);
  if (files_.output) {
    append_output_entry(text, name, clean, make_output_delimiter(clean));
  } else if (!actions_) {
    out_ << inert_line("output " + std::string(name) + " = " + std::string(clean)) << '\n';
  }
  return true;
}

void StreamWorkflow::set_output(std::string_view name, std::string_view value) {
  std::string text;
  add_output(text, name, value);
  if (!text.empty()) append_file(*files_.output, text);
}

void StreamWorkflow::set_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  // One text, sized up front, each value copied once into it (lists can be megabytes), and
  // one append to GITHUB_OUTPUT.
  std::size_t size = 0;
  for (const auto& [name, value] : outputs) size += name.size() + value.size() + 64;
  std::string text;
  if (files_.output) text.reserve(size);
  for (const auto& [name, value] : outputs) add_output(text, name, value);
  if (!text.empty()) append_file(*files_.output, text);
}

void StreamWorkflow::append_summary(std::string_view markdown) {
  if (files_.summary) append_file(*files_.summary, redact(markdown));
}

void StreamWorkflow::annotate(const Annotation& a) {
  Annotation clean = a;
  clean.message = redact(a.message);
  clean.title = redact(a.title);
  clean.file = redact(a.file);
  if (actions_) {
    out_ << format_annotation_command(clean) << '\n';
    return;
  }
  std::string line = std::string(to_string(a.severity)) + ": ";
  if (!clean.file.empty()) {
    line += clean.file;
    if (a.line > 0) line += ':' + std::to_string(a.line);
    if (a.column > 0) line += ':' + std::to_string(a.column);
    line += ": ";
  }
  if (!clean.title.empty()) line += clean.title + ": ";
  out_ << inert_line(line + clean.message) << '\n';
}

void StreamWorkflow::begin_group(std::string_view title) {
  ++group_depth_;
  if (actions_)
    out_ << "::group::" << guard_data_start(escape_command_data(break_legacy_commands(redact(title)))) << '\n';
  else out_ << inert_line("── " + redact(title)) << '\n';
}

void StreamWorkflow::end_group() {
  if (group_depth_ == 0) return;
  --group_depth_;
  if (actions_) out_ << "::endgroup::\n";
}

void StreamWorkflow::mask(std::string_view secret) {
  if (secret.empty()) return;
  secrets_.emplace_back(secret);
  // Multi-line secrets are masked line by line, as the runner does, in the log and in
  // everything gatekit writes.
  std::size_t start = 0;
  while (start <= secret.size()) {
    auto end = secret.find('\n', start);
    auto line = secret.substr(start, end == std::string_view::npos ? secret.npos : end - start);
    if (!line.empty() && line != secret) secrets_.emplace_back(line);
    if (!line.empty() && actions_) out_ << "::add-mask::" << escape_command_data(line) << '\n';
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  // Longer secrets first, so a secret holding a shorter one is hidden whole.
  std::stable_sort(secrets_.begin(), secrets_.end(), [](const auto& x, const auto& y) { return x.size() > y.size(); });
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
  out_ << inert_line(redact(line)) << '\n';
  out_.flush();
}

const std::array<std::string_view, 5>& step_file_variables() {
  static constexpr std::array<std::string_view, 5> names{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH",
                                                         "GITHUB_STEP_SUMMARY", "GITHUB_STATE"};
  return names;
}

std::unique_ptr<StreamWorkflow> make_workflow(const Environment& env, std::ostream& out, Files& disk) {
  WorkflowFiles files;
  if (auto p = env.get_nonempty("GITHUB_OUTPUT")) files.output = *p;
  if (auto p = env.get_nonempty("GITHUB_STEP_SUMMARY")) files.summary = *p;
  const bool actions = env.get("GITHUB_ACTIONS").value_or("") == "true";
  return std::make_unique<StreamWorkflow>(out, std::move(files), actions, disk);
}

}  // namespace gatekit
