#pragma once
// Test-only model of how the GitHub Actions runner reads a step's output, written from the
// runner's source (github.com/actions/runner):
//   src/Runner.Sdk/ProcessInvoker.cs           stdout and stderr are read with
//                                              StreamReader.ReadLine: lines end at LF, CR or CRLF
//   src/Runner.Worker/ActionCommandManager.cs  the registered commands; TryParseV2 is tried
//                                              before the legacy TryParse; stop-commands and its
//                                              resume token
//   src/Runner.Common/ActionCommand.cs         TryParseV2: after TrimStart, `::name props::data`
//                                              (props split at `,`, then at the first `=`);
//                                              TryParse: `##[name props]data` ANYWHERE in the
//                                              line (props split at `;`); the unescape tables
//   src/Runner.Worker/FileCommandManager.cs    GITHUB_OUTPUT: `name=value` lines and
//                                              `name<<DELIMITER` heredocs, LF-separated on Linux
// https://github.com/actions/runner/blob/main/src/Runner.Common/ActionCommand.cs
// https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs
//
// The runner finds `::` and `##[` with .NET's culture-aware StartsWith/IndexOf, which skip
// characters ICU ignores (controls, zero-width and other format characters). This model reads
// every line twice, as written and with those characters removed, and reports a command when
// either reading has one: it may see more commands than the runner, never fewer.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gatekit::fuzzing {

struct RunnerCommand {
  std::string name;                            // lower case
  std::map<std::string, std::string> properties;  // keys lower case (the runner ignores case)
  std::string data;
  std::size_t line = 0;  // 0-based, in runner_lines order
};

namespace runner_detail {

inline std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// One UTF-8 code point at `i` (an invalid byte counts as one code point of its own).
inline std::pair<std::uint32_t, std::size_t> decode(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  auto cont = [&](std::size_t k) {
    return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
  };
  auto bits = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k]) & 0x3F); };
  if (b < 0x80) return {b, 1};
  if (b >= 0xC2 && b < 0xE0 && cont(1)) return {((b & 0x1Fu) << 6) | bits(1), 2};
  if (b >= 0xE0 && b < 0xF0 && cont(1) && cont(2)) return {((b & 0x0Fu) << 12) | (bits(1) << 6) | bits(2), 3};
  if (b >= 0xF0 && b < 0xF5 && cont(1) && cont(2) && cont(3))
    return {((b & 0x07u) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3), 4};
  return {0xFFFD, 1};
}

// char.IsWhiteSpace (plus U+001C..U+001F, which Python also counts): what TrimStart removes.
inline bool whitespace(std::uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// Controls and Unicode's default-ignorable code points: what culture-aware search may skip.
inline bool ignorable(std::uint32_t c) {
  if (whitespace(c)) return false;
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xAD || c == 0x34F || c == 0x61C ||
         (c >= 0x115F && c <= 0x1160) || (c >= 0x17B4 && c <= 0x17B5) || (c >= 0x180B && c <= 0x180F) ||
         (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) ||
         c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF || c == 0xFFA0 || (c >= 0xFFF0 && c <= 0xFFF8) ||
         (c >= 0x1BCA0 && c <= 0x1BCA3) || (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE0FFF);
}

inline std::string without_ignorable(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto [c, n] = decode(s, i);
    if (!ignorable(c)) out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

inline std::string_view trim_start(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto [c, n] = decode(s, i);
    if (!whitespace(c)) break;
    i += n;
  }
  return s.substr(i);
}

inline std::string_view trim_end(std::string_view s) {
  // Walk forward, remembering where the last non-whitespace code point ended.
  std::size_t keep = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto [c, n] = decode(s, i);
    i += n;
    if (!whitespace(c)) keep = i;
  }
  return s.substr(0, keep);
}

inline std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

// String.Replace in table order, as ActionCommand.UnescapeData / UnescapeProperty / Unescape do.
inline std::string unescape(std::string s, std::initializer_list<std::pair<std::string_view, std::string_view>> table) {
  for (const auto& [escaped, plain] : table) s = replace_all(std::move(s), escaped, plain);
  return s;
}
inline std::string unescape_data(std::string_view s) {
  return unescape(std::string(s), {{"%0D", "\r"}, {"%0A", "\n"}, {"%25", "%"}});
}
inline std::string unescape_property(std::string_view s) {
  return unescape(std::string(s), {{"%0D", "\r"}, {"%0A", "\n"}, {"%3A", ":"}, {"%2C", ","}, {"%25", "%"}});
}
inline std::string unescape_legacy(std::string_view s) {
  return unescape(std::string(s), {{"%3B", ";"}, {"%0D", "\r"}, {"%0A", "\n"}, {"%5D", "]"}, {"%25", "%"}});
}

// s.Split(separator, StringSplitOptions.RemoveEmptyEntries)
inline std::vector<std::string_view> split_nonempty(std::string_view s, char separator) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == separator) {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// s.Split('=', count: 2, RemoveEmptyEntries) when it yields two parts: the key before the
// first `=` that follows text, the value after it with any `=` right behind it skipped.
inline std::optional<std::pair<std::string_view, std::string_view>> split_pair(std::string_view s) {
  std::size_t current = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '=') continue;
    if (i == current) {  // an empty part, removed
      current = i + 1;
      continue;
    }
    const auto key = s.substr(current, i - current);
    std::size_t rest = i + 1;
    while (rest < s.size() && s[rest] == '=') ++rest;
    if (rest >= s.size()) return std::nullopt;
    return std::make_pair(key, s.substr(rest));
  }
  return std::nullopt;
}

inline const std::set<std::string>& builtin_commands() {
  static const std::set<std::string> names{"add-mask", "add-matcher", "add-path", "debug", "echo", "endgroup",
                                           "error", "group", "notice", "remove-matcher", "save-state",
                                           "set-env", "set-output", "stop-commands", "warning",
                                           // registered only while a runner plugin runs; kept to stay strict
                                           "internal-set-repo-path"};
  return names;
}

inline std::optional<RunnerCommand> parse_v2(std::string_view line, const std::set<std::string>& registered) {
  const auto message = trim_start(line);
  if (message.substr(0, 2) != "::") return std::nullopt;
  const auto end = message.find("::", 2);
  if (end == std::string_view::npos) return std::nullopt;
  const auto info = message.substr(2, end - 2);
  const auto space = info.find(' ');
  RunnerCommand command;
  command.name = lower(info.substr(0, space));
  if (!registered.count(command.name)) return std::nullopt;
  if (space != std::string_view::npos && space > 0) {
    const auto props = trim_end(trim_start(info.substr(space + 1)));
    for (auto entry : split_nonempty(props, ','))
      if (auto pair = split_pair(entry)) command.properties[lower(pair->first)] = unescape_property(pair->second);
  }
  command.data = unescape_data(message.substr(end + 2));
  return command;
}

inline std::optional<RunnerCommand> parse_legacy(std::string_view line, const std::set<std::string>& registered) {
  const auto prefix = line.find("##[");
  if (prefix == std::string_view::npos) return std::nullopt;
  const auto bracket = line.find(']', prefix);
  if (bracket == std::string_view::npos) return std::nullopt;
  const auto info = line.substr(prefix + 3, bracket - prefix - 3);
  const auto space = info.find(' ');
  RunnerCommand command;
  command.name = lower(info.substr(0, space));
  if (!registered.count(command.name)) return std::nullopt;
  if (space != std::string_view::npos && space > 0) {
    for (auto entry : split_nonempty(info.substr(space + 1), ';'))
      if (auto pair = split_pair(entry)) command.properties[lower(pair->first)] = unescape_legacy(pair->second);
  }
  command.data = unescape_legacy(line.substr(bracket + 1));
  return command;
}

}  // namespace runner_detail

// The lines the runner reads from a stream, as StreamReader.ReadLine splits them.
inline std::vector<std::string> runner_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::string current;
  bool open = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r' || c == '\n') {
      lines.push_back(std::move(current));
      current.clear();
      open = false;
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      continue;
    }
    current += c;
    open = true;
  }
  if (open) lines.push_back(std::move(current));
  return lines;
}

// The workflow commands the runner would act on in `text` (a step's stdout or stderr), in
// order, with their unescaped properties and data. While commands are stopped only the
// resume token counts; the stop and resume lines are reported too.
inline std::vector<RunnerCommand> runner_commands(std::string_view text) {
  using namespace runner_detail;
  std::set<std::string> registered = builtin_commands();
  std::optional<std::string> stop_token;
  std::vector<RunnerCommand> out;
  const auto lines = runner_lines(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    std::optional<RunnerCommand> command;
    for (const std::string& reading : {lines[n], without_ignorable(lines[n])}) {
      command = parse_v2(reading, registered);
      if (!command) command = parse_legacy(reading, registered);
      if (command) break;
    }
    if (!command) continue;
    command->line = n;
    if (stop_token) {
      if (command->name != lower(*stop_token)) continue;
      registered.erase(lower(*stop_token));
      stop_token.reset();
    } else if (command->name == "stop-commands") {
      stop_token = command->data;
      registered.insert(lower(command->data));
    }
    out.push_back(std::move(*command));
  }
  return out;
}

// GITHUB_OUTPUT as the runner reads it (Linux: lines end at LF): the name/value pairs, or
// the runner's complaint.
struct RunnerOutputs {
  std::vector<std::pair<std::string, std::string>> values;
  std::string error;  // empty when the runner accepts the file
};

inline RunnerOutputs runner_outputs(std::string_view text) {
  RunnerOutputs result;
  std::size_t index = 0;
  // ReadLine: the text up to the next LF; `newline` false when the text ended without one.
  auto read_line = [&](bool& newline) -> std::optional<std::string_view> {
    if (index >= text.size()) {
      newline = false;
      return std::nullopt;
    }
    const auto start = index;
    const auto lf = text.find('\n', index);
    newline = lf != std::string_view::npos;
    index = newline ? lf + 1 : text.size();
    return text.substr(start, (newline ? lf : text.size()) - start);
  };
  bool newline = false;
  for (auto line = read_line(newline); line; line = read_line(newline)) {
    if (line->empty()) continue;
    const auto equals = line->find('=');
    const auto heredoc = line->find("<<");
    if (equals != std::string_view::npos && (heredoc == std::string_view::npos || equals < heredoc)) {
      result.values.emplace_back(std::string(line->substr(0, equals)), std::string(line->substr(equals + 1)));
      continue;
    }
    if (heredoc == std::string_view::npos) {
      result.error = "Invalid format '" + std::string(*line) + "'";
      return result;
    }
    const auto key = line->substr(0, heredoc);
    const auto delimiter = line->substr(heredoc + 2);
    if (key.empty() || delimiter.empty()) {
      result.error = "Invalid format '" + std::string(*line) + "'. Name must not be empty and delimiter must not be empty";
      return result;
    }
    const auto start = index;
    auto end = index;
    for (auto value_line = read_line(newline); !value_line || *value_line != delimiter;
         value_line = read_line(newline)) {
      if (!value_line) {
        result.error = "Invalid value. Matching delimiter not found '" + std::string(delimiter) + "'";
        return result;
      }
      if (!newline) {
        result.error = "Invalid value. EOF marker missing new line.";
        return result;
      }
      end = index - 1;
    }
    result.values.emplace_back(std::string(key), std::string(text.substr(start, end > start ? end - start : 0)));
  }
  return result;
}

}  // namespace gatekit::fuzzing
