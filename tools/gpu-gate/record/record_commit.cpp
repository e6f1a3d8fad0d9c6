// The strict reader of record commit objects (record.hpp, parse_record_commit): refs from
// other machines are hostile input, and git and gatekit must read the same commit.
#include <charconv>

#include "gatekit/text.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {
namespace {

Error not_the_form(std::string_view problem) {
  return bad_input("the record commit is not in the form gpu-gate writes: " + std::string(problem));
}

bool digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

// NAME <EMAIL> SECONDS ZONE: the seconds, or nullopt when the line is not in that form.
std::optional<std::int64_t> ident_time(std::string_view ident) {
  const auto close = ident.rfind("> ");
  if (ident.find('<') == std::string_view::npos || close == std::string_view::npos) return std::nullopt;
  const auto when = ident.substr(close + 2);
  const auto space = when.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto seconds = when.substr(0, space);
  const auto zone = when.substr(space + 1);
  if (!digits(seconds) || seconds.size() > 12 || zone.size() != 5 || (zone[0] != '+' && zone[0] != '-') ||
      !digits(zone.substr(1)))
    return std::nullopt;
  std::int64_t value = 0;
  std::from_chars(seconds.data(), seconds.data() + seconds.size(), value);
  return value;
}

// The headers in the one order gpu-gate writes them; the signature header is optional.
constexpr std::string_view kOrder[] = {"tree", "author", "committer", "gpgsig"};

}  // namespace

Result<RecordCommit> parse_record_commit(std::string_view object) {
  const auto end = object.find("\n\n");
  if (end == std::string_view::npos) return not_the_form("it has no message");
  RecordCommit out;
  out.message = object.substr(end + 2);
  const auto headers = object.substr(0, end + 1);
  std::optional<std::int64_t> author_time;
  bool committed = false;
  std::size_t next = 0;  // the index in kOrder the next header may take, at the earliest
  for (std::size_t pos = 0; pos < headers.size();) {
    const auto eol = headers.find('\n', pos);
    const std::string_view line = headers.substr(pos, eol - pos);
    pos = eol + 1;
    const auto space = line.find(' ');
    if (space == std::string_view::npos || space == 0) return not_the_form("a header line without a value");
    std::string_view key = line.substr(0, space);
    const std::string_view value = line.substr(space + 1);
    const std::string shown = quote_for_message(key, 40);
    if (key == "gpgsig-sha256") key = "gpgsig";
    std::size_t at = 0;
    while (at < std::size(kOrder) && kOrder[at] != key) ++at;
    if (at == std::size(kOrder)) return not_the_form("a header " + shown + " (a parent, an encoding or another header gpu-gate never writes)");
    if (at < next) return not_the_form("header " + shown + (at + 1 == next ? " given twice" : " out of order"));
    if (at != next) return not_the_form("no " + std::string(kOrder[next]) + " header before " + shown);
    next = at + 1;
    if (at == 0) {
      if (!is_object_name(value)) return not_the_form("its tree is not a full object name");
      out.tree = std::string(value);
    } else if (at == 1 || at == 2) {
      const auto time = ident_time(value);
      if (!time) return not_the_form("its " + std::string(key) + " line is not NAME <EMAIL> SECONDS ZONE");
      if (at == 1) author_time = time;
      else {
        out.committer_time = *time;
        committed = true;
      }
    } else {
      out.signature = std::string(value);
      // The signature's continuation lines: each starts with one space, which git adds.
      while (pos < headers.size() && headers[pos] == ' ') {
        const auto more = headers.find('\n', pos);
        out.signature += "\n" + std::string(headers.substr(pos + 1, more - pos - 1));
        pos = more + 1;
      }
    }
  }
  if (!committed) return not_the_form(out.tree.empty() ? "it has no tree header" : "it has no committer header");
  if (*author_time != out.committer_time) return not_the_form("its author date is not its committer date");
  return out;
}

}  // namespace gatekit::gpu_gate
