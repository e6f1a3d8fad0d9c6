// Baselines on disk: a JUnit report (any run), or suite-baseline.json as main runs store it
// (the format is described in growth.hpp: versions 3 and 2 are JSON Lines of identities; version 1,
// one object of whole ids, is still read). Both are read in pieces through the Files seam.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/text.hpp"
#include "growth.hpp"

namespace gatekit::suite_report {

namespace json = boost::json;

namespace {

constexpr std::size_t kMaxBaselineBytes = std::size_t{1} << 30;
constexpr std::size_t kWriteChunk = std::size_t{1} << 20;
constexpr std::string_view kIdentityScheme = "sha256-128+64";

// The first character that is not whitespace or a byte order mark: '<' (JUnit XML) or '{'.
char first_char(std::string_view text) {
  for (char c : text)
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '\xEF' && c != '\xBB' && c != '\xBF') return c;
  return 0;
}

// Hands each case of a report, as growth sees it, to `visit`; `read` runs the core reader
// (on a file or a text) with a case handler. A case without name or classname is the k-th
// unnamed test: one test each, never merged.
template <class Read>
Status visit_cases(const Read& read, const std::string& junit_prefix, const ReportVisitor& visit, bool identities) {
  Status failed;
  std::size_t ordinal = 0, unnamed = 0;
  std::string built;  // an id the case does not hold whole (junit::TestCase::id), reused from case to case
  junit::Occurrences occurrences;  // a name's distinct cases, numbered as every tool numbers them
  junit::ReadOptions options;
  options.junit_prefix = junit_prefix;
  auto stats = read(
      [&](const junit::TestCase& test) {
        if (!failed) return;
        if (test.name.empty() && test.classname.empty()) {
          ++unnamed;
          failed = visit(ReportCase{identities ? TestIdentity::unnamed(unnamed) : TestIdentity{}, {}, unnamed,
                                    test.time_s, ordinal++, test.report_line});
          return;
        }
        // The id as the reader holds it (the node id of nearly every case of a pytest report):
        // no copy, and `built`'s storage reused where it has to be put together.
        std::size_t occurrence = 1;
        const std::string_view id = occurrences.id(test, built, &occurrence);
        failed = visit(ReportCase{identities ? TestIdentity::of(id) : TestIdentity{}, id, 0, test.time_s, ordinal++,
                                  test.report_line, test.suite_in_id() || occurrence > 1});
      },
      options);
  if (!stats) return stats.error();
  return failed;
}

// Why a reading stopped early: `enough` said so (not an error of the file).
constexpr std::string_view kEnough = "enough read";

// A report's cases, each to `visit.add`, with the display names `visit.keep_name` asks for
// (when `names` is given); `stopped` tells a stop that `visit.enough` asked for.
template <class Read>
Status add_cases(const Read& read, const std::string& origin, const std::string& junit_prefix,
                 const BaselineVisit& visit, Names* names, bool& stopped) {
  return visit_cases(read, junit_prefix, [&](const ReportCase& c) -> Status {
    auto added = visit.add(c.identity, c.seconds);
    if (!added)
      return could_not_evaluate(origin + ":" + std::to_string(c.line) + ": test `" + c.display() + "`: " +
                                added.error().message);
    if (*added && names != nullptr && visit.keep_name && visit.keep_name(c.identity)) names->emplace(c.identity, c.display());
    if (visit.enough && visit.enough()) {
      stopped = true;
      return could_not_evaluate(std::string(kEnough));
    }
    return {};
  }, true);
}

// A BaselineVisit that gathers the tests into `snapshot`.
BaselineVisit into(Snapshot& snapshot, const KeepName& keep_name) {
  return {[&snapshot](const TestIdentity& id, double seconds) -> Result<bool> {
            const bool seen = snapshot.find(id) != nullptr;
            if (auto added = snapshot.add(id, seconds); !added) return added.error();
            return !seen;
          },
          keep_name, {}};
}

Result<ConfigKey> parse_key(const json::value* value, const std::string& where) {
  if (value == nullptr || !value->is_object()) return could_not_evaluate(where + ": `key` is missing or not an object");
  const auto& object = value->get_object();
  ConfigKey key;
  for (auto [name, field] : {std::pair{"workflow", &key.workflow}, std::pair{"job", &key.job},
                             std::pair{"python", &key.python}, std::pair{"selection", &key.selection}}) {
    auto text = json_string_at(object, name);
    if (!text) return could_not_evaluate(where + ": `key." + name + "` is missing or not a string");
    *field = *text;
  }
  return key;
}

Result<std::vector<HistoryPoint>> parse_history(const json::value* value, const std::string& where) {
  std::vector<HistoryPoint> history;
  if (value == nullptr) return history;
  if (!value->is_array()) return could_not_evaluate(where + ": `history` is not a list");
  for (const auto& item : value->get_array()) {
    if (!item.is_object()) return could_not_evaluate(where + ": a `history` entry is not an object");
    const auto& object = item.get_object();
    HistoryPoint point;
    point.sha = json_string_at(object, "sha").value_or("");
    point.run_id = json_string_at(object, "run").value_or("");
    point.date = json_string_at(object, "date").value_or("");
    const auto* tests = json_find(object, "tests");
    const auto* seconds = json_find(object, "seconds");
    if (tests == nullptr || !tests->is_number() || seconds == nullptr || !seconds->is_number())
      return could_not_evaluate(where + ": a `history` entry lacks numeric `tests` and `seconds`");
    point.tests = static_cast<std::size_t>(std::max(0.0, tests->to_number<double>()));
    point.seconds = std::max(0.0, seconds->to_number<double>());
    history.push_back(std::move(point));
  }
  return history;
}

// What a version 1 baseline cannot say reliably: ids gatekit cut (the JUnit reader's
// "[... N bytes left out]"), or cases without name or classname merged into one "" id.
std::optional<std::string> v1_defect(const std::string& id) {
  static const Regex cut(R"( \[\.\.\. [0-9]+ bytes left out\]$)");
  if (id.empty()) return std::string("it merged the cases without name or classname into one");
  if (cut.found_in(id)) return "it holds a test id cut short (`" + display_id(id) + "`)";
  return std::nullopt;
}

Result<Baseline> parse_v1(const json::object& root, const std::string& path, const BaselineVisit& visit) {
  Baseline baseline;
  baseline.source = path;
  baseline.legacy_ids = true;
  auto key = parse_key(json_find(root, "key"), path);
  if (!key) return key.error();
  baseline.key = *key;
  auto history = parse_history(json_find(root, "history"), path);
  if (!history) return history.error();
  baseline.history = std::move(*history);
  const auto* tests = json_find(root, "tests");
  if (tests == nullptr || !tests->is_object()) return could_not_evaluate(path + ": `tests` is missing or not an object");
  // Version 1 sorted its ids; read them in that order, so the removed ones list sorted.
  std::vector<std::pair<std::string_view, const json::value*>> entries;
  for (const auto& entry : tests->get_object()) entries.emplace_back(std::string_view(entry.key()), &entry.value());
  std::sort(entries.begin(), entries.end());
  for (const auto& [name, value] : entries) {
    const std::string id(name);
    if (!value->is_number()) return could_not_evaluate(path + ": `tests` values must be seconds (numbers)");
    if (auto defect = v1_defect(id))
      return could_not_evaluate(path + ": a version 1 suite baseline, written by an older gatekit, and " + *defect +
                                ": growth is compared again once a push to the baseline branch stores a version 3 "
                                "baseline (nothing to do but wait for that run, or re-run the last one)");
    const auto identity = TestIdentity::of(id);
    auto added = visit.add(identity, std::max(0.0, value->to_number<double>()));
    if (!added) return could_not_evaluate(path + ": `tests`: `" + display_id(id) + "`: " + added.error().message);
    if (*added && visit.keep_name && visit.keep_name(identity)) baseline.names.emplace(identity, display_id(id));
    if (visit.enough && visit.enough()) break;
  }
  return baseline;
}

// suite-baseline.json, fed in pieces: the first line decides. A version 3 or 2 header is followed
// by test lines, each parsed as it completes, so that only the current line is held; a version
// 1 baseline (one JSON object, on one line or laid out over several by hand) is gathered whole
// and parsed at the end, as that version always was.
class BaselineLines {
 public:
  BaselineLines(std::string path, const BaselineVisit& visit) : path_(std::move(path)), visit_(visit) {
    baseline_.source = path_;
  }

  Status feed(std::string_view piece) {
    while (!piece.empty()) {
      if (mode_ == Mode::v1) {
        v1_text_ += piece;
        return {};
      }
      const auto end = piece.find('\n');
      partial_ += piece.substr(0, end);
      if (partial_.size() > kMaxLineBytes)
        return could_not_evaluate(path_ + ":" + std::to_string(line_no_ + 1) + ": a line longer than " +
                                  std::to_string(kMaxLineBytes) + " bytes");
      if (end == std::string_view::npos) return {};
      piece.remove_prefix(end + 1);
      if (auto done = complete_line(); !done) return done;
      if (mode_ == Mode::v1) v1_text_ += '\n';
    }
    return {};
  }

  Result<Baseline> finish() {
    if (!partial_.empty() && mode_ != Mode::v1)
      if (auto done = complete_line(); !done) return done.error();
    if (mode_ == Mode::v1) return parse_whole_v1();
    if (mode_ == Mode::header) return could_not_evaluate(path_ + ": not a suite baseline: empty");
    if (tests_ != count_)
      return could_not_evaluate(path_ + ": cut short? the header announces " + std::to_string(count_) + " tests, " +
                                std::to_string(tests_) + " follow");
    return std::move(baseline_);
  }

  // What was read before `visit.enough` stopped the reading.
  bool stopped() const { return stopped_; }
  Baseline take() { return std::move(baseline_); }

 private:
  static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
  enum class Mode { header, v1, v2 };

  Status complete_line() {
    ++line_no_;
    const std::string line = std::move(partial_);
    partial_.clear();
    if (mode_ == Mode::v2) return test_line(line);
    if (line.find_first_not_of(" \t\r\xEF\xBB\xBF") == std::string::npos) return {};  // before the header
    boost::system::error_code ec;
    json::value doc = json::parse(line, ec);
    const auto* root = !ec && doc.is_object() ? &doc.get_object() : nullptr;
    const auto version = root == nullptr ? std::nullopt : json_int_at(*root, "version");
    if (root == nullptr || json_string_at(*root, "format").value_or("") != "gatekit-suite-baseline" ||
        (version != 2 && version != 3)) {
      // Version 1, or not a baseline at all: parse_whole_v1 says which.
      mode_ = Mode::v1;
      v1_text_ = line;
      return {};
    }
    baseline_.legacy_ids = version == 2;
    return header(*root);
  }

  Status header(const json::object& root) {
    const std::string where = path_ + ":" + std::to_string(line_no_);
    if (json_string_at(root, "identity") != std::string(kIdentityScheme))
      return could_not_evaluate(where + ": `identity` is not \"" + std::string(kIdentityScheme) + "\"");
    auto key = parse_key(json_find(root, "key"), where);
    if (!key) return key.error();
    baseline_.key = *key;
    auto history = parse_history(json_find(root, "history"), where);
    if (!history) return history.error();
    baseline_.history = std::move(*history);
    const auto count = json_int_at(root, "tests");
    if (!count || *count < 0) return could_not_evaluate(where + ": `tests` is not the number of test lines");
    count_ = static_cast<std::size_t>(*count);
    mode_ = Mode::v2;
    return {};
  }

  Status test_line(std::string_view line) {
    if (line.empty()) return {};
    const std::string where = path_ + ":" + std::to_string(line_no_);
    boost::system::error_code ec;
    json::value value = json::parse(line, ec);
    const auto* items = !ec && value.is_array() ? &value.get_array() : nullptr;
    if (items == nullptr || items->size() != 3 || !(*items)[0].is_string() || !(*items)[1].is_number() ||
        !(*items)[2].is_string())
      return could_not_evaluate(where + ": a test line is not [\"<identity>\", <seconds>, \"<display>\"]");
    const auto identity = TestIdentity::from_hex(std::string_view((*items)[0].get_string()));
    if (!identity) return could_not_evaluate(where + ": the identity is not 48 hex digits");
    const auto added = visit_.add(*identity, std::max(0.0, (*items)[1].to_number<double>()));
    if (!added || !*added)
      return could_not_evaluate(where + ": the test `" + std::string((*items)[2].get_string()) +
                                "` is listed twice, or shares its identity with another");
    ++tests_;
    if (visit_.keep_name && visit_.keep_name(*identity))
      baseline_.names.emplace(*identity, std::string((*items)[2].get_string()));
    if (visit_.enough && visit_.enough()) {
      stopped_ = true;
      return could_not_evaluate(std::string(kEnough));
    }
    return {};
  }

  Result<Baseline> parse_whole_v1() const {
    boost::system::error_code ec;
    json::value doc = json::parse(v1_text_, ec);
    if (ec) return could_not_evaluate(path_ + ": not a suite baseline: invalid JSON (" + ec.message() + ")");
    if (!doc.is_object()) return could_not_evaluate(path_ + ": not a suite baseline: not a JSON object");
    const auto& root = doc.get_object();
    if (json_string_at(root, "format").value_or("") != "gatekit-suite-baseline")
      return could_not_evaluate(path_ + ": not a suite baseline: `format` is not \"gatekit-suite-baseline\"");
    if (json_int_at(root, "version").value_or(0) != 1)
      return could_not_evaluate(path_ + ": unsupported suite baseline version (this gatekit reads versions 1, 2 and 3)");
    return parse_v1(root, path_, visit_);
  }

  std::string path_;
  const BaselineVisit& visit_;
  Mode mode_ = Mode::header;
  std::string partial_;   // the line being read
  std::string v1_text_;   // a version 1 baseline, gathered whole
  std::size_t line_no_ = 0;
  std::size_t count_ = 0;  // test lines the header announces
  std::size_t tests_ = 0;  // test lines read
  bool stopped_ = false;
  Baseline baseline_;
};

// The first character that is not whitespace or a byte order mark, from the file's first
// pieces; 0 when there is none.
Result<char> first_char_of(const Files& files, const std::string& path) {
  char found = 0;
  auto read = files.read_pieces(path, [&](std::string_view piece) -> Status {
    found = first_char(piece);
    return found == 0 ? Status{} : Status{could_not_evaluate("")};  // found: stop reading
  }, kMaxBaselineBytes);
  if (found == 0 && !read) return read.error();
  return found;
}

}  // namespace

Status visit_report(const Files& files, const std::string& path, const std::string& junit_prefix,
                    const ReportVisitor& visit, bool identities) {
  return visit_cases([&](const junit::CaseHandler& on_case, const junit::ReadOptions& options) {
    return junit::read_file(files, path, on_case, options);
  }, junit_prefix, visit, identities);
}

Result<Snapshot> read_report_snapshot(const Files& files, const std::string& path, const std::string& junit_prefix) {
  Snapshot snapshot;
  bool stopped = false;
  auto read = add_cases([&](const junit::CaseHandler& on_case, const junit::ReadOptions& options) {
    return junit::read_file(files, path, on_case, options);
  }, path, junit_prefix, into(snapshot, {}), nullptr, stopped);
  if (!read) return read.error();
  return snapshot;
}

Result<Baseline> visit_baseline(const Files& files, const std::string& path, const BaselineVisit& visit) {
  auto first = first_char_of(files, path);
  if (!first) return first.error();
  if (*first == '<') {
    Baseline baseline{std::nullopt, {}, {}, {}, path};
    bool stopped = false;
    auto read = add_cases([&](const junit::CaseHandler& on_case, const junit::ReadOptions& options)
                              -> Result<junit::ReadStats> {
      junit::Reader reader(path, on_case, options);
      auto pieces = files.read_pieces(path, [&](std::string_view piece) -> Status {
        return stopped ? Status{could_not_evaluate(std::string(kEnough))} : reader.feed(piece);
      }, kMaxBaselineBytes);
      if (!pieces) return pieces.error();
      return reader.finish();
    }, path, "", visit, &baseline.names, stopped);
    if (!read && !stopped) return read.error();
    return baseline;
  }
  if (*first != '{') return could_not_evaluate(path + ": neither a JUnit report nor a suite baseline");
  BaselineLines lines(path, visit);
  auto read = files.read_pieces(path, [&](std::string_view piece) { return lines.feed(piece); }, kMaxBaselineBytes);
  if (lines.stopped()) return lines.take();
  if (!read) return read.error();
  return lines.finish();
}

Result<Baseline> read_baseline(const Files& files, const std::string& path, const KeepName& keep_name) {
  Snapshot tests;
  auto baseline = visit_baseline(files, path, into(tests, keep_name));
  if (!baseline) return baseline.error();
  baseline->tests = std::move(tests);
  return baseline;
}

namespace {

json::array history_json(const std::vector<HistoryPoint>& history) {
  json::array points;
  const std::size_t skip = history.size() > kHistoryLimit ? history.size() - kHistoryLimit : 0;
  for (std::size_t i = skip; i < history.size(); ++i) {
    const auto& p = history[i];
    points.push_back(json::object{{"sha", p.sha}, {"run", p.run_id}, {"date", p.date}, {"tests", p.tests}, {"seconds", p.seconds}});
  }
  return points;
}

std::string baseline_header(const ConfigKey& key, const std::vector<HistoryPoint>& history, std::size_t tests) {
  json::object root;
  root["format"] = "gatekit-suite-baseline";
  root["version"] = 3;
  root["identity"] = kIdentityScheme;
  root["key"] = json::object{{"workflow", key.workflow}, {"job", key.job}, {"python", key.python}, {"selection", key.selection}};
  root["history"] = history_json(history);
  root["tests"] = tests;
  return json::serialize(root) + "\n";
}

}  // namespace

namespace {

// A test line's parts as json::serialize writes them, without a json::value or a string per
// part (a million lines): the tests hold them to json::serialize's output byte for byte.
void append_hex(std::string& out, const TestIdentity& id) {
  static constexpr char kHex[] = "0123456789abcdef";
  char text[48];
  std::size_t at = 0;
  for (const std::uint64_t word : {id.hi, id.lo, id.check})
    for (int shift = 60; shift >= 0; shift -= 4) text[at++] = kHex[(word >> shift) & 0xF];
  out.append(text, sizeof text);
}

// A finite double as Boost.JSON writes it (Ryu's shortest digits: 2.5E-1, 1E0, 0E0): the same
// shortest digits std::to_chars gives, with its exponent written as Ryu does (E, no '+', no
// leading zeros). Anything else as json::serialize writes it.
void append_number(std::string& out, double value) {
  char text[64];
  const auto made = std::isfinite(value) ? std::to_chars(text, text + sizeof text, value, std::chars_format::scientific)
                                         : std::to_chars_result{text, std::errc::value_too_large};
  const std::string_view digits(text, static_cast<std::size_t>(made.ptr - text));
  const auto e = digits.find('e');
  if (made.ec != std::errc{} || e == std::string_view::npos) {
    out += json::serialize(json::value(value));
    return;
  }
  out.append(digits.substr(0, e));
  out += 'E';
  std::size_t at = e + 1;
  if (digits[at] == '-') out += digits[at++];
  else if (digits[at] == '+') ++at;
  while (at + 1 < digits.size() && digits[at] == '0') ++at;
  out.append(digits.substr(at));
}

}  // namespace

BaselineWriter::BaselineWriter(Files& files, std::string path)
    : files_(files), path_(std::move(path)), names_path_(path_ + ".tests.tmp"), whole_path_(path_ + ".tmp") {}

// This writer's own scratch file, new: one a killed run left is removed first.
Status BaselineWriter::fresh(const std::string& path, std::string_view content) {
  if (files_.exists(path)) (void)files_.remove(path);
  return files_.create(path, content);
}

BaselineWriter::~BaselineWriter() {
  if (started_) (void)files_.remove(names_path_);
}

Status BaselineWriter::flush() {
  if (!status_ || pending_.empty()) return status_;
  status_ = started_ ? files_.append(names_path_, pending_) : fresh(names_path_, pending_);
  started_ = true;  // even when it failed: some of it may be there, to remove
  pending_.clear();
  return status_;
}

Status BaselineWriter::add(std::string_view display) {
  if (!status_) return status_;
  append_json_string(pending_, display);  // escaped: no '\n' inside
  pending_ += '\n';
  ++added_;
  return pending_.size() >= kWriteChunk ? flush() : status_;
}

Status BaselineWriter::fail(Status failed) {
  (void)files_.remove(whole_path_);
  if (started_) (void)files_.remove(names_path_);
  started_ = false;
  pending_.clear();
  status_ = failed;
  return failed;
}

Status BaselineWriter::lines_of(std::string_view names, const TestAt& test_at, std::string& out) {
  while (!names.empty()) {
    const auto end = names.find('\n');
    if (end == std::string_view::npos || lines_ >= added_)
      return could_not_evaluate("cannot read " + names_path_ + ": not the names written");
    const TestLine test = test_at(lines_++);
    // ["<identity>", <seconds>, "<display>"]
    out += "[\"";
    append_hex(out, test.id);
    out += "\",";
    append_number(out, test.seconds);
    out += ',';
    out.append(names.substr(0, end));
    out += "]\n";
    names.remove_prefix(end + 1);
  }
  return {};
}

Status BaselineWriter::copy_lines(const TestAt& test_at) {
  std::string partial, chunk;
  auto read = files_.read_pieces(names_path_, [&](std::string_view piece) -> Status {
    // Whole names only: a name cut by the piece's end waits for the rest.
    const auto last = piece.rfind('\n');
    if (last == std::string_view::npos) {
      partial += piece;
      return {};
    }
    Status made;
    if (!partial.empty()) {
      partial += piece.substr(0, last + 1);
      made = lines_of(partial, test_at, chunk);
      partial.clear();
    } else {
      made = lines_of(piece.substr(0, last + 1), test_at, chunk);
    }
    if (!made) return made;
    partial += piece.substr(last + 1);
    if (chunk.size() < kWriteChunk) return {};
    auto appended = files_.append(whole_path_, chunk);
    chunk.clear();
    return appended;
  }, std::numeric_limits<std::size_t>::max());  // the file is this writer's own
  if (!read) return read;
  if (!partial.empty()) return could_not_evaluate("cannot read " + names_path_ + ": not the names written");
  if (!chunk.empty()) return files_.append(whole_path_, chunk);
  return {};
}

Status BaselineWriter::finish(const ConfigKey& key, const std::vector<HistoryPoint>& history, std::size_t tests,
                              const TestAt& test_at) {
  if (finished_ || !status_) return status_;
  if (added_ != tests)
    return fail(could_not_evaluate("cannot write " + path_ + ": " + std::to_string(added_) + " tests written, " +
                                   std::to_string(tests) + " announced"));
  std::string whole = baseline_header(key, history, tests);
  if (!started_) {
    // Every name is still at hand (under 1 MiB of them): the whole file in one write.
    if (auto made = lines_of(pending_, test_at, whole); !made) return fail(made);
    pending_.clear();
    if (auto written = fresh(whole_path_, whole); !written) return fail(written);
  } else {
    if (auto flushed = flush(); !flushed) return fail(flushed);
    if (auto written = fresh(whole_path_, whole); !written) return fail(written);
    if (auto copied = copy_lines(test_at); !copied) return fail(copied);
    if (auto removed = files_.remove(names_path_); !removed) return fail(removed);
    started_ = false;
  }
  if (lines_ != added_) return fail(could_not_evaluate("cannot read " + names_path_ + ": not the names written"));
  if (auto renamed = files_.rename(whole_path_, path_); !renamed) return fail(renamed);
  finished_ = true;
  return {};
}

}  // namespace gatekit::suite_report
