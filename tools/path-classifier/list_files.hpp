#pragma once
// The changed files each filter matched, as dorny/paths-filter's `list-files` writes them:
// `<filter>_count` and `<filter>_files` step outputs, the same entries in the `filters` JSON,
// and every list in a JSON file when RUNNER_TEMP is set. Pure text functions; gate.cpp
// writes the file.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "classify.hpp"

namespace gatekit::path_classifier {

enum class ListFormat { none, json, csv, shell, escape };
std::optional<ListFormat> parse_list_format(std::string_view name);  // case-insensitive, as paths-filter

// paths-filter's escapers (src/list-format/*.ts), with its multi-line regex flaw removed:
// its `^...$/m` tests pass a name when any one of its lines is safe, so `a<LF>$(cmd)` came out
// unquoted. Here the whole name must pass.
// shell: unchanged when every byte is in [A-Za-z0-9,._+:@%/-]; else '...' (or "..." when it
// holds single quotes, whitespace and safe bytes only; else split on ' and joined by \').
std::string shell_escape(std::string_view name);
// escape: a backslash before every character outside that set; a line feed, which a
// backslash would join to the next line, is written as '<LF>' instead.
std::string backslash_escape(std::string_view name);
// csv: unchanged when every byte is in [A-Za-z0-9._+:@%/-]; else "..." with " doubled (RFC 4180).
std::string csv_escape(std::string_view name);

// One list as paths-filter's `serializeExport` writes it: json `["a","b"]` (JSON.stringify;
// invalid UTF-8 replaced by U+FFFD), csv joined by ',', shell and escape joined by ' '. In
// the shell formats a name starting with '-' is written `./-name` (the same file), so that no
// file name can reach a command as an option.
std::string format_list(const std::vector<std::string>& files, ListFormat format);

// What is written inline. GitHub keeps at most 1 MB of outputs per job (approximated in
// UTF-16, "Defining outputs for jobs" in GitHub's Actions docs), and Linux passes one
// environment variable of at most 128 KiB (MAX_ARG_STRLEN) to a `run:` step through `env:`.
// A list longer than kInlineListLimit, or past kInlineTotalLimit for all lists together
// (each is written twice: its output and its `filters` entry), is left out of the outputs;
// the JSON file named by `list-files-path` holds every list.
inline constexpr std::size_t kInlineListLimit = 64 * 1024;
inline constexpr std::size_t kInlineTotalLimit = 256 * 1024;

struct FilterList {
  std::string filter;
  std::size_t count = 0;
  std::string text;      // the formatted list, serialized once: for the outputs and the lists file
  bool inlined = false;  // false: too long to write inline (left out of the outputs)
};

struct ListPlan {
  ListFormat format = ListFormat::none;
  bool complete = true;  // false: the decision failed open or did not evaluate the listing
  std::vector<FilterList> lists;
};

ListPlan plan_lists(const Decision& decision, ListFormat format, bool evaluated);

// `outputs` (report.hpp's step_outputs) with `<f>_count` and `<f>_files` after each filter's
// own output, the same entries (count as a number, files as the formatted text) in the
// `filters` JSON object, and `files-complete` last.
std::vector<std::pair<std::string, std::string>> with_lists(std::vector<std::pair<std::string, std::string>> outputs,
                                                            const ListPlan& plan);

// Every filter's matched files, {"cpu": ["src/a.cpp"], ...} (the file behind `list-files-path`).
std::string lists_json(const Decision& decision);
// The same bytes; when the plan's lists are JSON already, they are reused, not serialized again.
std::string lists_json(const Decision& decision, const ListPlan& plan);

// The job summary's section: per filter, how many files it matched and the first few (as
// code spans: outside text never acts as markup); says when the lists are partial.
std::string lists_summary_markdown(const Decision& decision, const ListPlan& plan);

// Warnings for the lists left out of the outputs; `path` is the file holding them ("" none).
std::vector<std::string> list_warnings(const ListPlan& plan, const std::string& path);

}  // namespace gatekit::path_classifier
