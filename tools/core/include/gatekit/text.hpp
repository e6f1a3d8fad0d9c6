#pragma once
// Small text helpers shared by the tools: suggestions, Markdown tables, durations.
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gatekit {

std::size_t edit_distance(std::string_view a, std::string_view b);
// The closest candidate within a small distance, for "did you mean" hints.
std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string_view> candidates);

// A GitHub-flavoured Markdown table; cells are escaped for `|` and newlines.
std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows);
std::string escape_markdown_cell(std::string_view text);

// Outside text (paths, test names, API text) shown to a person. Every helper below keeps it
// on one line and keeps it from acting as markup, whatever bytes it holds.
//
// Control characters as visible escapes: LF `\n`, CR `\r`, TAB `\t` (unless keep_tabs),
// other C0 bytes and DEL `\xHH`, C1 controls and the Unicode line and paragraph separators
// `\uHHHH`. Everything else, invalid UTF-8 included, is kept as it is.
std::string visible_controls(std::string_view text, bool keep_tabs = false);
// A Markdown code span showing exactly `text` (controls as visible escapes): no HTML, link,
// emphasis, math or block can start inside it. Safe in a markdown_table cell. "" for "".
std::string markdown_code(std::string_view text);
// Markdown prose showing `text` literally, controls made visible: the characters that start
// inline markup (\ ` * _ [ ] < & ~ $) are backslash-escaped, and so is a leading block mark
// (# > - + = | and the above) or the `.`/`)` of a leading `1.`, so no block can start either.
// Safe in a table cell, after a list marker, or inside a line. `line_start` false: the text
// follows other text on its line, so the leading mark needs no escape.
std::string markdown_text(std::string_view text, bool line_start = true);
// A link whose text is markdown_text(text); the plain text when `url` is not an absolute
// http(s) URL. Characters that could end the link destination are percent-encoded.
std::string markdown_link(std::string_view text, std::string_view url);
// Text for HTML content or a quoted attribute (`<details><summary>` lines): & < > " ' as
// entities, controls made visible.
std::string html_text(std::string_view text);

// `text` as a JSON string, appended to `out`, byte for byte what Boost.JSON's serializer writes
// for it (quotes; '"', '\\' and controls below 0x20 escaped with its escapes; every other byte
// as it is), found eight bytes at a time and copied whole between the escapes. For writers of
// large JSON files line by line, without a json::value per string.
void append_json_string(std::string& out, std::string_view text);

// "850ms", "4.2s", "3m 05s", "1h 02m"
std::string format_duration(std::chrono::milliseconds d);
// ISO 8601 in UTC, "2023-11-14T23:13:20Z", as GitHub writes timestamps.
std::string format_utc(std::int64_t epoch_seconds);
// The inverse of format_utc: "2023-11-14T23:13:20Z" (GitHub's form; fractional seconds and
// offsets are refused) -> seconds since the epoch; nullopt for anything else.
std::optional<std::int64_t> parse_utc(std::string_view text);

std::string join(const std::vector<std::string>& items, std::string_view separator);
std::vector<std::string> split_lines(std::string_view text);
std::string trim(std::string_view text);
// Every occurrence of `from` in `text` replaced by `to`, left to right; what `to` puts in is
// never searched again (so `{x}` -> `{x}{x}` ends). An empty `from` changes nothing.
std::string replace_all(std::string text, std::string_view from, std::string_view to);
// True when the text holds an ASCII control character (below 0x20, or DEL): outside text that
// must be one line of plain words (a test name, a node id, a marker expression) is refused then.
bool has_control(std::string_view text);

}  // namespace gatekit
