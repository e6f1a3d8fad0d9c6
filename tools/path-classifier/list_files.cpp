#include "list_files.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit::path_classifier {

namespace json = boost::json;

namespace {

bool shell_safe(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view(",._+:@%/-").find(c) != std::string_view::npos;
}
bool csv_safe(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("._+:@%/-").find(c) != std::string_view::npos;
}
// JavaScript's \s, ASCII part (the only part a byte-wise test can see).
bool js_space(char c) { return std::string_view(" \t\n\v\f\r").find(c) != std::string_view::npos; }

template <class Pred>
bool all_of(std::string_view s, Pred pred) {
  return std::all_of(s.begin(), s.end(), pred);
}

// A name that begins with '-' reads as an option: `./-x` is the same repo-relative file.
std::string not_an_option(std::string_view name) {
  return !name.empty() && name[0] == '-' ? "./" + std::string(name) : std::string(name);
}

}  // namespace

std::optional<ListFormat> parse_list_format(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "none") return ListFormat::none;
  if (lower == "json") return ListFormat::json;
  if (lower == "csv") return ListFormat::csv;
  if (lower == "shell") return ListFormat::shell;
  if (lower == "escape") return ListFormat::escape;
  return std::nullopt;
}

std::string shell_escape(std::string_view value) {
  if (value.empty()) return "";
  if (all_of(value, shell_safe)) return std::string(value);
  if (value.find('\'') != std::string_view::npos) {
    if (all_of(value, [](char c) { return shell_safe(c) || c == '\'' || js_space(c); }))
      return "\"" + std::string(value) + "\"";
    std::string out;
    std::size_t start = 0;
    while (true) {
      const auto quote = value.find('\'', start);
      out += shell_escape(value.substr(start, quote == std::string_view::npos ? std::string_view::npos : quote - start));
      if (quote == std::string_view::npos) break;
      out += "\\'";
      start = quote + 1;
    }
    return out;
  }
  return "'" + std::string(value) + "'";
}

std::string backslash_escape(std::string_view value) {
  std::string out;
  std::size_t i = 0;
  while (i < value.size()) {
    const char c = value[i];
    if (shell_safe(c)) {
      out += c;
      ++i;
    } else if (c == '\n') {
      out += "'\n'";
      ++i;
    } else {
      // One backslash per character, as the JavaScript regex does for each UTF-16 unit.
      const auto ch = decode_utf8(value, i);
      out += '\\';
      out.append(value.substr(i, ch.length));
      i += ch.length;
    }
  }
  return out;
}

std::string csv_escape(std::string_view value) {
  if (value.empty()) return "";
  if (all_of(value, csv_safe)) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {

// A file name as a JSON string: valid UTF-8 (nearly every name) goes in without a repaired copy.
json::string json_text(std::string_view name) {
  return is_valid_utf8(name) ? json::string(name) : json::string(to_valid_utf8(name));
}

// `name` as JSON.stringify writes it, appended to `out`: valid UTF-8 (nearly every name, and
// any printable ASCII one) as it is, anything else repaired first; Boost.JSON's bytes either
// way (gatekit/text.hpp).
void append_name(std::string& out, std::string_view name) {
  if (is_valid_utf8(name))
    append_json_string(out, name);
  else
    append_json_string(out, to_valid_utf8(name));
}

// One name of a list as `format` writes it, appended to `out`: json ["a","b"] is what
// json::serialize writes for an array of the names; the others are paths-filter's escapers.
void append_entry(std::string& out, std::string_view name, ListFormat format) {
  switch (format) {
    case ListFormat::none: return;
    case ListFormat::json: append_name(out, name); return;
    case ListFormat::csv: out += csv_escape(name); return;
    case ListFormat::shell: out += shell_escape(not_an_option(name)); return;
    case ListFormat::escape: out += backslash_escape(not_an_option(name)); return;
  }
}

// A list's text around its entries: json's brackets (none elsewhere) and the separator.
struct ListSyntax {
  std::string_view open, close;
  char separator = ' ';
};
ListSyntax syntax_of(ListFormat format) {
  if (format == ListFormat::json) return {"[", "]", ','};
  if (format == ListFormat::csv) return {"", "", ','};
  return {"", "", ' '};
}

// Every path's entry, worked out the first time a list holds it: a path that several filters
// match is escaped once. Entries lie end to end in one string.
class Entries {
 public:
  Entries(const std::vector<std::string>& paths, ListFormat format)
      : paths_(paths), format_(format), at_(paths.size(), kNone) {}

  std::string_view of(std::size_t path) {
    if (at_[path] == kNone) {
      const auto start = text_.size();
      append_entry(text_, paths_[path], format_);
      at_[path] = {start, text_.size() - start};
    }
    return {text_.data() + at_[path].first, at_[path].second};
  }

 private:
  static constexpr std::pair<std::size_t, std::size_t> kNone{SIZE_MAX, 0};
  const std::vector<std::string>& paths_;
  ListFormat format_;
  std::vector<std::pair<std::size_t, std::size_t>> at_;  // offset and length in text_
  std::string text_;
};

// The list of `files` (the entries, separated and bracketed), sized first and then copied in.
std::string list_text(const std::vector<std::size_t>& files, Entries& entries, ListFormat format) {
  const auto syntax = syntax_of(format);
  std::size_t size = syntax.open.size() + syntax.close.size() + (files.empty() ? 0 : files.size() - 1);
  for (const auto i : files) size += entries.of(i).size();  // makes every entry: `of` only reads from here on
  std::string out(size, '\0');
  char* at = out.data();
  auto put = [&at](std::string_view text) {
    if (!text.empty()) std::memcpy(at, text.data(), text.size());
    at += text.size();
  };
  put(syntax.open);
  for (std::size_t k = 0; k < files.size(); ++k) {
    if (k != 0) *at++ = syntax.separator;
    put(entries.of(files[k]));
  }
  put(syntax.close);
  return out;
}

}  // namespace

std::string format_list(const std::vector<std::string>& files, ListFormat format) {
  if (format == ListFormat::none) return "";
  Entries entries(files, format);
  std::vector<std::size_t> all(files.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  return list_text(all, entries, format);
}

ListPlan plan_lists(const Decision& decision, ListFormat format, bool evaluated) {
  ListPlan plan;
  plan.format = format;
  plan.complete = evaluated && !decision.fail_open;
  Entries entries(decision.paths, format);
  std::size_t total = 0;
  for (const auto& f : decision.filters) {
    FilterList l;
    l.filter = f.filter;
    l.count = f.files.size();
    if (format != ListFormat::none) {
      l.text = list_text(f.files, entries, format);
      if (l.text.size() <= kInlineListLimit && total + l.text.size() <= kInlineTotalLimit) {
        total += l.text.size();
        l.inlined = true;
      }
    }
    plan.lists.push_back(std::move(l));
  }
  return plan;
}

namespace {

// What json::serialize writes for `object`, its strings written by append_json_string (the
// same bytes; a long inlined list is escaped between its quotes, not byte by byte).
std::string serialize_object(const json::object& object) {
  std::string out = "{";
  for (const auto& entry : object) {
    if (out.size() > 1) out += ',';
    append_json_string(out, entry.key());
    out += ':';
    if (const auto* text = entry.value().if_string()) append_json_string(out, std::string_view(*text));
    else out += json::serialize(entry.value());
  }
  out += '}';
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> with_lists(std::vector<std::pair<std::string, std::string>> outputs,
                                                            const ListPlan& plan) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [key, value] : outputs) {
    const auto list = std::find_if(plan.lists.begin(), plan.lists.end(), [&k = key](const auto& l) { return l.filter == k; });
    if (key == "filters") {
      auto parsed = json::parse(value);
      auto& object = parsed.as_object();
      json::object merged;
      for (const auto& entry : object) {
        const auto name = entry.key();
        merged[name] = entry.value();
        const auto it = std::find_if(plan.lists.begin(), plan.lists.end(),
                                     [&](const auto& l) { return l.filter == std::string_view(name); });
        if (it == plan.lists.end()) continue;
        merged[std::string(name) + "_count"] = it->count;
        if (it->inlined) merged[std::string(name) + "_files"] = to_valid_utf8(it->text);
      }
      out.emplace_back(key, serialize_object(merged));
      continue;
    }
    out.emplace_back(key, std::move(value));
    if (list == plan.lists.end()) continue;
    out.emplace_back(key + "_count", std::to_string(list->count));
    if (list->inlined) out.emplace_back(key + "_files", list->text);
  }
  out.emplace_back("files-complete", plan.complete ? "true" : "false");
  return out;
}

std::string lists_json(const Decision& decision) {
  json::object root;
  for (const auto& f : decision.filters) {
    json::array files;
    for (const auto i : f.files) files.emplace_back(json_text(decision.paths[i]));
    root[f.filter] = std::move(files);
  }
  return json::serialize(root);
}

std::string lists_json(const Decision& decision, const ListPlan& plan) {
  // The plan's texts are the lists' JSON when the format is JSON and each filter has its
  // own; otherwise (another format, or names that an object would merge) serialize anew.
  bool reuse = plan.format == ListFormat::json && plan.lists.size() == decision.filters.size();
  std::size_t size = 2;
  for (std::size_t i = 0; reuse && i < plan.lists.size(); ++i) {
    reuse = plan.lists[i].filter == decision.filters[i].filter;
    for (std::size_t j = 0; reuse && j < i; ++j) reuse = plan.lists[j].filter != plan.lists[i].filter;
    size += plan.lists[i].filter.size() + plan.lists[i].text.size() + 4;
  }
  if (!reuse) return lists_json(decision);
  std::string out;
  out.reserve(size);
  out += '{';
  for (std::size_t i = 0; i < plan.lists.size(); ++i) {
    if (i != 0) out += ',';
    append_json_string(out, plan.lists[i].filter);
    out += ':';
    out += plan.lists[i].text;
  }
  out += '}';
  return out;
}

std::string lists_summary_markdown(const Decision& decision, const ListPlan& plan) {
  constexpr std::size_t kShown = 5;
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : decision.filters) {
    std::string shown;
    for (std::size_t i = 0; i < f.files.size() && i < kShown; ++i)
      shown += (i ? ", " : "") + markdown_code(decision.paths[f.files[i]]);
    if (f.files.size() > kShown) shown += ", and " + std::to_string(f.files.size() - kShown) + " more";
    rows.push_back({markdown_code(f.filter), std::to_string(f.files.size()), shown.empty() ? "—" : shown});
  }
  std::string out = "#### Changed files per filter\n\n" + markdown_table({"Filter", "Files", "First files"}, rows);
  if (!plan.complete)
    out += "\nThese lists are partial: the gate did not get a complete listing of the change (every filter runs).\n";
  return out;
}

std::vector<std::string> list_warnings(const ListPlan& plan, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& l : plan.lists) {
    if (l.inlined || plan.format == ListFormat::none) continue;
    std::string message = "the file list of filter '" + l.filter + "' (" + std::to_string(l.count) + " files, " +
                          std::to_string(l.text.size()) + " bytes) is too long for a step output, so `" + l.filter +
                          "_files` is not set";
    message += path.empty() ? " (set RUNNER_TEMP to get every list in a file)"
                            : "; every list is in the file named by the `list-files-path` output";
    out.push_back(std::move(message));
  }
  return out;
}

}  // namespace gatekit::path_classifier
