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

// "850ms", "4.2s", "3m 05s", "1h 02m"
std::string format_duration(std::chrono::milliseconds d);
// ISO 8601 in UTC, "2023-11-14T23:13:20Z", as GitHub writes timestamps.
std::string format_utc(std::int64_t epoch_seconds);

std::string join(const std::vector<std::string>& items, std::string_view separator);
std::vector<std::string> split_lines(std::string_view text);
std::string trim(std::string_view text);

}  // namespace gatekit
