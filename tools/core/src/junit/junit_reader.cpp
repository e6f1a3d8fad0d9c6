// The streaming JUnit reader on expat (see junit_reader.hpp for the contract). expat stays
// inside this file: no gatekit header includes it.
#include "gatekit/junit_reader.hpp"

#include <expat.h>

#include <exception>
#include <limits>
#include <optional>
#include <vector>

#include "gatekit/files.hpp"
#include "junit_node_id.hpp"
#include "junit_tap.hpp"
#include "junit_text.hpp"

namespace gatekit::junit {

bool repeats_are_attempts(Family family) { return family == Family::pytest || family == Family::gotestsum; }

bool TestCase::suite_in_id() const {
  return family == Family::other && node_id.empty() && !suite.empty() && suite != classname &&
         !(classname.empty() && name.empty());
}

std::string_view TestCase::base_id(std::string& scratch) const {
  if (!node_id.empty()) return node_id;
  if (classname.empty() && name.empty()) {
    scratch.assign("(unnamed test case, report line ").append(std::to_string(report_line)).append(")");
    return scratch;
  }
  const bool with_suite = suite_in_id();
  if (!with_suite && classname.empty()) return name;
  scratch.clear();
  if (with_suite) scratch.append(suite).append("::");
  if (!classname.empty()) scratch.append(classname).append("::");
  scratch.append(name);
  return scratch;
}

std::string_view TestCase::id(std::string& scratch) const {
  const std::string_view base = base_id(scratch);
  if (occurrence <= 1) return base;
  if (base.data() != scratch.data()) scratch.assign(base);
  scratch.append(" #").append(std::to_string(occurrence));
  return scratch;
}

std::string TestCase::id() const {
  std::string built;
  const std::string_view view = id(built);
  if (view.data() == built.data()) return built;  // built here: handed over, not copied
  return std::string(view);
}

std::size_t Occurrences::next(const TestCase& test) {
  if (repeats_are_attempts(test.family) || (test.name.empty() && test.classname.empty())) return 1;
  const std::uint64_t key = std::hash<std::string_view>{}(test.base_id(scratch_));
  return ++seen_[key];
}

std::string_view Occurrences::id(const TestCase& test, std::string& scratch, std::size_t* occurrence) {
  const std::size_t k = next(test);
  if (occurrence != nullptr) *occurrence = k;
  if (k <= 1) return test.id(scratch);
  const std::string_view base = test.base_id(scratch);
  if (base.data() != scratch.data()) scratch.assign(base);
  scratch.append(" #").append(std::to_string(k));
  return scratch;
}

namespace {

constexpr std::size_t kChunk = 64 * 1024;

int rank(JunitOutcome outcome) {
  switch (outcome) {
    case JunitOutcome::passed: return 0;
    case JunitOutcome::skipped: return 1;
    case JunitOutcome::failure: return 2;
    case JunitOutcome::error: return 3;
  }
  return 0;
}

// Whether the NUL-terminated `key` is `name`, compared in place: no strlen of every attribute
// name of every element.
bool is_name(const XML_Char* key, std::string_view name) {
  std::size_t k = 0;
  while (k < name.size() && key[k] == name[k]) ++k;
  return k == name.size() && key[k] == '\0';
}

std::string_view attribute(const XML_Char** atts, std::string_view name) {
  for (std::size_t i = 0; atts[i] != nullptr; i += 2)
    if (is_name(atts[i], name)) return atts[i + 1];
  return {};
}

// The attributes of a <testcase> the reader takes, found in one pass over its attribute list
// (a report holds a million cases; expat refuses a repeated attribute, so the first is the one).
struct CaseAttributes {
  std::string_view classname, name, file, line, time, status;
};

CaseAttributes case_attributes(const XML_Char** atts) {
  CaseAttributes found;
  for (std::size_t i = 0; atts[i] != nullptr; i += 2) {
    const XML_Char* key = atts[i];
    std::string_view* slot = nullptr;
    switch (key[0]) {
      case 'c': slot = is_name(key, "classname") ? &found.classname : nullptr; break;
      case 'n': slot = is_name(key, "name") ? &found.name : nullptr; break;
      case 'f': slot = is_name(key, "file") ? &found.file : nullptr; break;
      case 'l': slot = is_name(key, "line") ? &found.line : nullptr; break;
      case 't': slot = is_name(key, "time") ? &found.time : nullptr; break;
      case 's': slot = is_name(key, "status") ? &found.status : nullptr; break;
      default: break;
    }
    if (slot != nullptr) *slot = atts[i + 1];
  }
  return found;
}

// A `failures`/`errors` count; nullopt when absent or not a number (nothing declared).
std::optional<std::size_t> parse_count(std::string_view text) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  std::size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return value;
}

int parse_line(std::string_view text) {
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9' || value > 100'000'000) return 0;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace

struct Reader::Impl {
  Impl(std::string origin_, CaseHandler on_case_, ReadOptions options_)
      : origin(std::move(origin_)), on_case(std::move(on_case_)), options(options_),
        detail(options_.excerpt_bytes), out(options_.excerpt_bytes), err(options_.excerpt_bytes) {
    parser = XML_ParserCreate("UTF-8");  // the sanitiser guarantees UTF-8 whatever the prolog says
    XML_SetUserData(parser, this);
    XML_SetElementHandler(parser, &Impl::on_start, &Impl::on_end);
    XML_SetCharacterDataHandler(parser, &Impl::on_text);
    XML_SetEntityDeclHandler(parser, &Impl::on_entity_decl);
  }
  ~Impl() { XML_ParserFree(parser); }

  std::string origin;
  CaseHandler on_case;
  ReadOptions options;
  detail::Tap* tap = nullptr;
  XML_Parser parser = nullptr;
  detail::Utf8Sanitizer sanitizer;
  std::string buffer;
  ReadStats stats;
  std::optional<Error> error;
  std::exception_ptr thrown;

  // An open <testsuites>/<testsuite>: what it declares and what its cases showed so far.
  struct Frame {
    bool root = false;  // <testsuites>
    std::string name;
    int line = 0;
    std::optional<std::size_t> declared;  // failures + errors; nullopt: neither attribute
    std::size_t seen = 0;                 // <failure>/<error> elements of the cases inside
    bool pytest = false;                  // a <testsuite name="pytest">
    bool pytest_root = false;             // a <testsuites name="pytest tests">
    bool go = false;                      // its <properties> hold go.version (gotestsum)
  };

  // The open elements, innermost last (a nested type: a member's type from the anonymous
  // namespace trips gcc's -Wsubobject-linkage in the release preset's unity build).
  enum class Elem { suites, suite, test, result, flaky, rerun, out, err, other };
  std::vector<Elem> stack;
  std::vector<Frame> frames;
  std::size_t pytest_open = 0;
  std::size_t pytest_root_open = 0;
  std::string suite_name;  // of the innermost open <testsuite>
  bool in_case = false;
  std::size_t case_results = 0;  // <failure>/<error> elements of the open case
  TestCase current;
  std::string ctest_status;  // CTest's status attribute: run, fail, notrun, disabled
  detail::Excerpt detail, out, err;
  detail::Excerpt* target = nullptr;

  std::string where() const {
    return origin + ":" + std::to_string(XML_GetCurrentLineNumber(parser)) + ":" +
           std::to_string(XML_GetCurrentColumnNumber(parser) + 1);
  }

  void fail(std::string message) {
    if (!error) error = could_not_evaluate(where() + ": " + message);
    XML_StopParser(parser, XML_FALSE);
  }

  void start(std::string_view name, const XML_Char** atts) {
    if (stack.size() >= options.max_depth) {
      fail("elements nested deeper than " + std::to_string(options.max_depth) + " levels");
      return;
    }
    if (stack.empty() && name != "testsuites" && name != "testsuite") {
      fail("the root element <" + detail::bounded(name, 64) +
           "> is not a JUnit report (expected <testsuites> or <testsuite>)");
      return;
    }
    const bool in_test = in_case && !stack.empty() && stack.back() == Elem::test;
    Elem kind = Elem::other;
    target = nullptr;
    if (name == "testsuites") {
      kind = Elem::suites;
      begin_suite(atts, true);
    } else if (name == "testsuite") {
      kind = Elem::suite;
      ++stats.suites;
      begin_suite(atts, false);
    } else if (name == "testcase" && !in_case) {
      kind = Elem::test;
      begin_case(atts);
    } else if (in_test && (name == "failure" || name == "error" || name == "skipped")) {
      kind = Elem::result;
      take_result(name, atts);
    } else if (in_test && (name == "flakyFailure" || name == "flakyError")) {
      kind = Elem::flaky;
      if (++current.flaky_attempts == 1 && current.outcome == JunitOutcome::passed) take_flaky(atts);
    } else if (first_flaky_open() && name == "stackTrace") {
      target = &detail;  // Surefire puts the attempt's trace in a <stackTrace> child
    } else if (in_test && (name == "rerunFailure" || name == "rerunError")) {
      kind = Elem::rerun;
      ++current.rerun_failures;
    } else if (!in_case && name == "property") {
      take_property(atts);
    } else if (in_test && name == "system-out") {
      kind = Elem::out;
      target = &out;
    } else if (in_test && name == "system-err") {
      kind = Elem::err;
      target = &err;
    }
    if (tap != nullptr) tap->start(tap_element(kind, name), atts, event_begin(), event_length());
    stack.push_back(kind);
  }

  std::uint64_t event_begin() const { return static_cast<std::uint64_t>(XML_GetCurrentByteIndex(parser)); }
  std::uint64_t event_length() const { return static_cast<std::uint64_t>(XML_GetCurrentByteCount(parser)); }

  static detail::TapElement tap_element(Elem kind, std::string_view name) {
    switch (kind) {
      case Elem::suites: return detail::TapElement::suites;
      case Elem::suite: return detail::TapElement::suite;
      case Elem::test: return detail::TapElement::test;
      case Elem::result:
        return name == "failure" ? detail::TapElement::failure
               : name == "error" ? detail::TapElement::error
               : name == "skipped" ? detail::TapElement::skipped
                                   : detail::TapElement::other;
      case Elem::rerun: return name == "rerunFailure" ? detail::TapElement::rerun_failure : detail::TapElement::rerun_error;
      default: return detail::TapElement::other;
    }
  }

  // An attribute that is part of a test's identity: whole, or the report is refused. Assigned
  // into `into`, whose storage the next case reuses.
  void identity(std::string& into, std::string_view value, std::string_view element, std::string_view name) {
    if (value.size() > options.max_identity_bytes && !error)
      fail("<" + std::string(element) + "> attribute `" + std::string(name) + "` is " + std::to_string(value.size()) +
           " bytes long, more than the " + std::to_string(options.max_identity_bytes) +
           " a test's identity may have (it is never cut: two names that differ late would become one test)");
    if (error) into.clear();
    else into.assign(value);
  }

  void begin_suite(const XML_Char** atts, bool root) {
    Frame frame;
    frame.root = root;
    identity(frame.name, attribute(atts, "name"), root ? "testsuites" : "testsuite", "name");
    frame.line = static_cast<int>(XML_GetCurrentLineNumber(parser));
    const auto failures = parse_count(attribute(atts, "failures"));
    const auto errors = parse_count(attribute(atts, "errors"));
    if (failures || errors) frame.declared = failures.value_or(0) + errors.value_or(0);
    frame.pytest = !root && frame.name == "pytest";
    // pytest 8.4 and later name the root so, whatever junit_suite_name says.
    frame.pytest_root = root && frame.name == "pytest tests";
    pytest_open += frame.pytest;
    pytest_root_open += frame.pytest_root;
    if (!root) suite_name = frame.name;
    frames.push_back(std::move(frame));
  }

  void end_suite() {
    Frame frame = std::move(frames.back());
    frames.pop_back();
    pytest_open -= frame.pytest;
    pytest_root_open -= frame.pytest_root;
    if (frame.declared && *frame.declared > frame.seen) {
      if (stats.undercounted.size() < ReadStats::kMaxUndercounted)
        stats.undercounted.push_back({frame.root ? "testsuites" : "testsuite",
                                      detail::bounded(frame.name, 200), frame.line, *frame.declared, frame.seen});
      ++stats.undercounted_suites;
    }
    if (!frames.empty()) frames.back().seen += frame.seen;
    suite_name.clear();
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
      if (!it->root) {
        suite_name = it->name;
        break;
      }
  }

  void begin_case(const XML_Char** atts) {
    in_case = true;
    reset(current);
    detail.clear();
    out.clear();
    err.clear();
    case_results = 0;
    current.suite = suite_name;
    const CaseAttributes found = case_attributes(atts);
    identity(current.classname, found.classname, "testcase", "classname");
    identity(current.name, found.name, "testcase", "name");
    identity(current.file, found.file, "testcase", "file");
    current.line = parse_line(found.line);
    current.time_s = detail::parse_seconds(found.time);
    current.report_line = static_cast<int>(XML_GetCurrentLineNumber(parser));
    current.byte_offset = event_begin();
    if (found.status.size() <= 16) ctest_status.assign(found.status);
    else ctest_status = detail::bounded(found.status, 16);
  }

  // An empty case that keeps its strings' storage: no allocation per case once the longest
  // field has been seen.
  static void reset(TestCase& c) {
    for (std::string* field : {&c.suite, &c.classname, &c.name, &c.file, &c.node_id, &c.type, &c.message, &c.detail,
                               &c.system_out, &c.system_err})
      field->clear();
    c.line = 0;
    c.outcome = JunitOutcome::passed;
    c.time_s = 0;
    c.flaky_attempts = 0;
    c.rerun_failures = 0;
    c.report_line = 0;
    c.family = Family::other;
    c.occurrence = 1;
  }

  // A suite's <property>: gotestsum names the Go version in every package's suite.
  void take_property(const XML_Char** atts) {
    if (!frames.empty() && !frames.back().root && attribute(atts, "name") == "go.version") frames.back().go = true;
  }

  // The family of the closing case (Family): pytest's marks first, then gotestsum's suite,
  // then CTest's status attribute.
  Family family_of(bool node_ids) const {
    if (node_ids || pytest_root_open > 0 || pytest_open > 0 || current.file.ends_with(".py")) return Family::pytest;
    if (!frames.empty() && frames.back().go) return Family::gotestsum;
    if (ctest_status == "run" || ctest_status == "fail" || ctest_status == "notrun" || ctest_status == "disabled")
      return Family::ctest;
    return Family::other;
  }

  // A case that passed after flaky attempts: its first attempt says what went wrong.
  void take_flaky(const XML_Char** atts) {
    current.type = detail::bounded(attribute(atts, "type"), options.excerpt_bytes);
    current.message = detail::bounded(attribute(atts, "message"), options.excerpt_bytes);
    detail.clear();
  }
  bool first_flaky_open() const {
    return in_case && !stack.empty() && stack.back() == Elem::flaky && current.flaky_attempts == 1 &&
           current.outcome == JunitOutcome::passed;
  }

  void take_result(std::string_view name, const XML_Char** atts) {
    const JunitOutcome outcome = name == "failure" ? JunitOutcome::failure
                                 : name == "error" ? JunitOutcome::error
                                                   : JunitOutcome::skipped;
    case_results += outcome != JunitOutcome::skipped;
    if (rank(outcome) <= rank(current.outcome)) return;  // the worse result already decides
    current.outcome = outcome;
    current.type = detail::bounded(attribute(atts, "type"), options.excerpt_bytes);
    current.message = detail::bounded(attribute(atts, "message"), options.excerpt_bytes);
    detail.clear();
    target = &detail;
  }

  void end(std::string_view name) {
    const Elem kind = stack.back();
    if (tap != nullptr) tap->end(tap_element(kind, name), event_begin(), event_length());
    stack.pop_back();
    target = nullptr;
    if (kind == Elem::suite || kind == Elem::suites) {
      end_suite();
    } else if (kind == Elem::test) {
      finish_case();
    }
  }

  void finish_case() {
    in_case = false;
    detail.str_into(current.detail);
    out.str_into(current.system_out);
    err.str_into(current.system_err);
    // CTest writes a disabled test with no <skipped> element, only status="disabled".
    if (current.outcome == JunitOutcome::passed && (ctest_status == "disabled" || ctest_status == "notrun")) {
      current.outcome = JunitOutcome::skipped;
      current.message = ctest_status;
    }
    const bool pytest = options.node_ids == NodeIds::pytest ||
                        (options.node_ids == NodeIds::detect && (pytest_open > 0 || current.file.ends_with(".py")));
    current.family = family_of(pytest);
    if (pytest) {
      set_node_id();
      if (current.file.empty() && !current.node_id.empty())  // in place: the file's storage is kept for the next case
        current.file.assign(current.node_id, 0, current.node_id.find("::"));
    }
    ++stats.cases;
    switch (current.outcome) {
      case JunitOutcome::passed: ++stats.passed; break;
      case JunitOutcome::failure: ++stats.failures; break;
      case JunitOutcome::error: ++stats.errors; break;
      case JunitOutcome::skipped: ++stats.skipped; break;
    }
    stats.flaky += current.flaky_attempts > 0;
    if (!frames.empty()) frames.back().seen += case_results;
    try {
      on_case(current);
    } catch (...) {
      thrown = std::current_exception();
      XML_StopParser(parser, XML_FALSE);
    }
  }

  // pytest_node_id(classname, name, file, prefix) into current.node_id; the head (module and
  // classes) is derived once per run of cases with the same classname and file.
  std::string head_classname, head_file, head;
  bool head_known = false;
  void set_node_id() {
    if (!pytest_plain_name(current.name)) return;
    if (!head_known || head_classname != current.classname || head_file != current.file) {
      head = pytest_node_id_head(current.classname, current.file, options.junit_prefix);
      head_classname.assign(current.classname);
      head_file.assign(current.file);
      head_known = true;
    }
    if (head.empty()) return;
    current.node_id.assign(head).append("::").append(current.name);
  }

  // After a failure expat may still report events (the end of an empty element whose start
  // failed, so nothing was pushed): they are ignored.
  static void on_start(void* self, const XML_Char* name, const XML_Char** atts) {
    if (auto* impl = static_cast<Impl*>(self); !impl->error) impl->start(name, atts);
  }
  static void on_end(void* self, const XML_Char* name) {
    if (auto* impl = static_cast<Impl*>(self); !impl->error) impl->end(name);
  }
  static void on_text(void* self, const XML_Char* text, int length) {
    auto* impl = static_cast<Impl*>(self);
    if (impl->target != nullptr) impl->target->append(std::string_view(text, static_cast<std::size_t>(length)));
    if (impl->tap != nullptr) impl->tap->text(impl->event_begin() + impl->event_length());
  }
  static void on_entity_decl(void* self, const XML_Char*, int, const XML_Char*, int, const XML_Char*,
                             const XML_Char*, const XML_Char*, const XML_Char*) {
    static_cast<Impl*>(self)->fail("entity declarations are not accepted in a JUnit report");
  }

  Status parse(std::string_view bytes, bool final) {
    if (tap != nullptr && !bytes.empty()) tap->bytes(bytes);
    const auto status = XML_Parse(parser, bytes.data(), static_cast<int>(bytes.size()), final ? 1 : 0);
    buffer.clear();
    if (thrown) std::rethrow_exception(thrown);
    if (error) return *error;
    if (status == XML_STATUS_OK) return {};
    const auto code = XML_GetErrorCode(parser);
    const std::string what = XML_ErrorString(code);
    if (stats.bytes == 0 || (final && code == XML_ERROR_NO_ELEMENTS && stack.empty() && stats.suites == 0))
      error = could_not_evaluate(origin + ": empty report: no XML element in it");
    else if (final && (code == XML_ERROR_NO_ELEMENTS || code == XML_ERROR_UNCLOSED_TOKEN ||
                       code == XML_ERROR_UNCLOSED_CDATA_SECTION || code == XML_ERROR_PARTIAL_CHAR))
      error = could_not_evaluate(where() + ": the report ends early (cut short?): " + what);
    else
      error = could_not_evaluate(where() + ": not well-formed XML: " + what);
    return *error;
  }
};

Reader::Reader(std::string origin, CaseHandler on_case, ReadOptions options)
    : impl_(std::make_unique<Impl>(std::move(origin), std::move(on_case), options)) {}
Reader::Reader(std::string origin, CaseHandler on_case, ReadOptions options, detail::Tap* tap)
    : Reader(std::move(origin), std::move(on_case), options) {
  impl_->tap = tap;
}
Reader::~Reader() = default;

Status Reader::feed(std::string_view bytes) {
  if (impl_->error) return *impl_->error;
  while (!bytes.empty()) {
    const auto piece = bytes.substr(0, kChunk);
    bytes.remove_prefix(piece.size());
    impl_->stats.bytes += piece.size();
    // Most reports are ASCII text: such a piece needs no sanitising and goes to expat as it is.
    if (impl_->sanitizer.passes_unchanged(piece)) {
      if (auto status = impl_->parse(piece, false); !status) return status;
      continue;
    }
    impl_->sanitizer.feed(piece, impl_->buffer);
    if (auto status = impl_->parse(impl_->buffer, false); !status) return status;
  }
  return {};
}

Result<ReadStats> Reader::finish() {
  if (impl_->error) return *impl_->error;
  impl_->sanitizer.finish(impl_->buffer);
  if (auto status = impl_->parse(impl_->buffer, true); !status) return status.error();
  impl_->stats.replaced_chars = impl_->sanitizer.replaced();
  return impl_->stats;
}

Status check_declared_counts(const ReadStats& stats, std::string_view origin) {
  if (stats.undercounted.empty()) return {};
  const SuiteCount& s = stats.undercounted.front();
  std::string message = std::string(origin) + ":" + std::to_string(s.report_line) + ": <" + s.element +
                        (s.name.empty() ? "" : " name=\"" + s.name + "\"") + "> declares " +
                        std::to_string(s.declared) + " failures and errors, but its test cases show " +
                        std::to_string(s.seen) +
                        ": the runner failed outside any test, or the report was cut short; the report cannot "
                        "say whether the tests passed";
  if (stats.undercounted_suites > 1)
    message += " (and " + std::to_string(stats.undercounted_suites - 1) + " more such suite" +
               (stats.undercounted_suites > 2 ? "s" : "") + ")";
  return could_not_evaluate(message);
}

Result<ReadStats> read_text(std::string_view text, const std::string& origin, const CaseHandler& on_case,
                            const ReadOptions& options) {
  Reader reader(origin, on_case, options);
  if (auto status = reader.feed(text); !status) return status.error();
  return reader.finish();
}

Result<ReadStats> detail::read_into(Reader& reader, const Files& files, const std::string& path) {
  bool read_any = false;
  bool reader_failed = false;
  // No limit on the file: the reader holds a bounded amount whatever its size.
  auto read = files.read_pieces(path, [&](std::string_view piece) -> Status {
    read_any = true;
    auto fed = reader.feed(piece);
    reader_failed = !fed;
    return fed;
  }, std::numeric_limits<std::size_t>::max());
  if (!read) {
    if (reader_failed) return read.error();
    if (!read_any) return could_not_evaluate(path + ": cannot read the report (missing or unreadable)");
    return could_not_evaluate(path + ": read error");
  }
  return reader.finish();
}

Result<ReadStats> read_file(const Files& files, const std::string& path, const CaseHandler& on_case,
                            const ReadOptions& options) {
  Reader reader(path, on_case, options);
  return detail::read_into(reader, files, path);
}

}  // namespace gatekit::junit
