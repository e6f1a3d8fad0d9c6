// The pass-through writer (see junit_rewrite.hpp for the contract), on the reader's tap.
#include "gatekit/junit_rewrite.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "junit_tap.hpp"

namespace gatekit::junit {

namespace {

// How much lower a suite's declared counts become.
struct Recount {
  std::size_t failures = 0, errors = 0;
};
using Recounts = std::map<std::uint64_t, Recount>;  // by the suite's start tag offset
using Edits = std::map<std::uint64_t, const CaseEdit*>;  // by the case's offset

Error changed(const std::string& path, const std::string& why) {
  return could_not_evaluate(path + " changed since it was read: " + why + "; it was not written again");
}

// The first pass: the suites around each case an edit makes pass, and how many <failure> and
// <error> elements that case has (pytest 9 writes one per failed subtest); and the first such
// case that is marked skipped too, which no edit can make read as passed.
class RecountTap final : public detail::Tap {
 public:
  explicit RecountTap(const Edits& edits) : edits_(edits) {}
  Recounts recounts;
  const CaseEdit* skipped_too = nullptr;

  void bytes(std::string_view) override {}
  void text(std::uint64_t) override {}
  void start(detail::TapElement element, const char**, std::uint64_t begin, std::uint64_t) override {
    using detail::TapElement;
    if (element == TapElement::suites || element == TapElement::suite) open_.push_back(begin);
    if (element == TapElement::test) {
      const auto edit = edits_.find(begin);
      counting_ = edit != edits_.end() && edit->second->passed;
      case_ = counting_ ? edit->second : nullptr;
    }
    if (counting_ && element == TapElement::skipped && skipped_too == nullptr) skipped_too = case_;
    if (counting_ && (element == TapElement::failure || element == TapElement::error))
      for (const std::uint64_t suite : open_) {
        Recount& r = recounts[suite];
        (element == TapElement::failure ? r.failures : r.errors) += 1;
      }
  }
  void end(detail::TapElement element, std::uint64_t, std::uint64_t) override {
    using detail::TapElement;
    if ((element == TapElement::suites || element == TapElement::suite) && !open_.empty()) open_.pop_back();
    if (element == TapElement::test) counting_ = false;
  }

 private:
  const Edits& edits_;
  std::vector<std::uint64_t> open_;  // the open suites' start tags, outermost first
  bool counting_ = false;
  const CaseEdit* case_ = nullptr;  // the edit of the case being counted
};

// A count lowered by `by`; nullopt when the value is not a plain count (left as written).
std::optional<std::string> lowered(std::string_view value, std::size_t by) {
  if (value.empty() || value.size() > 12 || !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  const std::size_t count = std::stoull(std::string(value));
  return std::to_string(count > by ? count - by : 0);
}

// A start tag written again from its attributes, in their order, each value escaped again
// (the same value a reader gets back); `replace` gives a new value for some of them.
template <class Replace>
std::string start_tag(std::string_view element, const char** attributes, bool empty, Replace replace) {
  std::string out = "<" + std::string(element);
  for (std::size_t i = 0; attributes[i] != nullptr; i += 2) {
    const std::optional<std::string> changed_value = replace(std::string_view(attributes[i]), std::string_view(attributes[i + 1]));
    out.append(" ").append(attributes[i]).append("=\"");
    out += xml_escape(changed_value ? *changed_value : std::string_view(attributes[i + 1]), true);
    out += "\"";
  }
  return out + (empty ? "/>" : ">");
}

constexpr auto unchanged = [](std::string_view, std::string_view) -> std::optional<std::string> { return std::nullopt; };

// The second pass: the bytes as read, to `write`, with the edits made.
class WriteTap final : public detail::Tap {
 public:
  WriteTap(const std::string& path, const Edits& edits, const Recounts& recounts, const Files::Sink& write)
      : path_(path), edits_(edits), recounts_(recounts), write_(write) {}

  Status status;            // the first Error of `write`, or a report that changed
  std::size_t held_peak = 0;
  std::size_t edited = 0, recounted = 0;

  void bytes(std::string_view fed) override {
    pending_.append(fed);
    held_peak = std::max(held_peak, pending_.size());
  }
  void text(std::uint64_t end) override { safe_ = std::max(safe_, end); }

  void start(detail::TapElement element, const char** attributes, std::uint64_t begin, std::uint64_t length) override {
    using detail::TapElement;
    const std::uint64_t end = begin + length;
    if (element == TapElement::suites || element == TapElement::suite) recount(element, attributes, begin, end);
    else if (element == TapElement::test) begin_case(attributes, begin, end);
    else if (editing_ != nullptr && editing_->passed && flaky_name(element) != nullptr)
      // A result element's text becomes the attempt's <stackTrace>; a rerun element has one.
      replace(begin, end, start_tag(flaky_name(element), attributes, is_empty(end), unchanged) +
                              (is_empty(end) || !is_result(element) ? "" : "<stackTrace>"));
    safe_ = std::max(safe_, end);
  }

  static bool is_result(detail::TapElement element) {
    return element == detail::TapElement::failure || element == detail::TapElement::error;
  }
  // What an element of a case that passed in the end becomes: each failed run a flaky one.
  static const char* flaky_name(detail::TapElement element) {
    using detail::TapElement;
    switch (element) {
      case TapElement::failure:
      case TapElement::rerun_failure: return "flakyFailure";
      case TapElement::error:
      case TapElement::rerun_error: return "flakyError";
      default: return nullptr;
    }
  }

  void end(detail::TapElement element, std::uint64_t begin, std::uint64_t length) override {
    using detail::TapElement;
    const std::uint64_t end = begin + length;
    if (editing_ != nullptr && length > 0) {
      if (editing_->passed && flaky_name(element) != nullptr)
        replace(begin, end, std::string(is_result(element) ? "</stackTrace></" : "</") + flaky_name(element) + ">");
      if (element == TapElement::test) {
        emit(begin);
        put(attempts(*editing_));
      }
    }
    if (element == TapElement::test) editing_ = nullptr;
    safe_ = std::max(safe_, end);
  }

  // What the reader made of the case that just ended: the one an edit named, or the report
  // changed since the offsets were taken.
  void check_case(const TestCase& c) {
    const auto edit = edits_.find(c.byte_offset);
    if (edit == edits_.end() || !status) return;
    if (c.base_id(scratch_) != edit->second->base_id)
      status = changed(path_, "the test case at byte " + std::to_string(c.byte_offset) + " is not " + edit->second->base_id);
    ++edited;
  }

  // After each piece: out goes everything nothing can change any more.
  void flush() {
    emit(std::min(safe_, pending_begin_ + pending_.size()));
    pending_.erase(0, static_cast<std::size_t>(written_ - pending_begin_));
    pending_begin_ = written_;
  }
  void finish() {
    safe_ = pending_begin_ + pending_.size();
    flush();
  }

 private:
  const std::string& path_;
  const Edits& edits_;
  const Recounts& recounts_;
  const Files::Sink& write_;
  std::string pending_;              // bytes read, not yet written: from pending_begin_
  std::uint64_t pending_begin_ = 0;
  std::uint64_t written_ = 0;        // bytes before this are written (or replaced)
  std::uint64_t safe_ = 0;           // bytes before this are final
  const CaseEdit* editing_ = nullptr;  // the case being edited
  std::string scratch_;

  bool is_empty(std::uint64_t end) const {
    return end >= pending_begin_ + 2 && pending_[static_cast<std::size_t>(end - pending_begin_ - 2)] == '/';
  }

  void put(std::string_view text) {
    if (status && !text.empty()) status = write_(text);
  }
  void emit(std::uint64_t upto) {
    if (upto <= written_) return;
    put(std::string_view(pending_).substr(static_cast<std::size_t>(written_ - pending_begin_),
                                          static_cast<std::size_t>(upto - written_)));
    written_ = upto;
  }
  // [begin, end) written as `text` instead.
  void replace(std::uint64_t begin, std::uint64_t end, std::string_view text) {
    emit(begin);
    put(text);
    written_ = end;
  }

  static std::string attempts(const CaseEdit& edit) {
    std::string out;
    for (const auto& a : edit.attempts) out += write_attempt(a, edit.passed);
    return out;
  }

  void recount(detail::TapElement element, const char** attributes, std::uint64_t begin, std::uint64_t end) {
    const auto found = recounts_.find(begin);
    if (found == recounts_.end()) return;
    const Recount& by = found->second;
    auto count = [&](std::string_view key, std::string_view value) {
      if (key == "failures" && by.failures > 0) return lowered(value, by.failures);
      if (key == "errors" && by.errors > 0) return lowered(value, by.errors);
      return std::optional<std::string>();
    };
    bool changes = false;
    for (std::size_t i = 0; attributes[i] != nullptr; i += 2) changes = changes || count(attributes[i], attributes[i + 1]);
    if (!changes) return;  // it declares no count this lowers: as it was
    const char* name = element == detail::TapElement::suites ? "testsuites" : "testsuite";
    replace(begin, end, start_tag(name, attributes, is_empty(end), count));
    ++recounted;
  }

  void begin_case(const char** attributes, std::uint64_t begin, std::uint64_t end) {
    const auto edit = edits_.find(begin);
    if (edit == edits_.end()) return;
    editing_ = edit->second;
    // A case written as one empty tag has no element to change; its attempts need a body.
    if (is_empty(end) && !editing_->attempts.empty())
      replace(begin, end, start_tag("testcase", attributes, false, unchanged) + attempts(*editing_) + "</testcase>");
    if (is_empty(end)) editing_ = nullptr;
  }
};

Result<ReadStats> read_with(detail::Tap& tap, const Files& files, const std::string& path, const CaseHandler& on_case,
                            const ReadOptions& options) {
  Reader reader(path, on_case, options, &tap);
  return detail::read_into(reader, files, path);
}

}  // namespace

Result<RewriteStats> rewrite(const Files& files, const std::string& path, const std::vector<CaseEdit>& edits,
                             const Files::Sink& write, const ReadOptions& options) {
  Edits by_offset;
  for (const auto& e : edits) by_offset.emplace(e.byte_offset, &e);
  RewriteStats stats;
  Recounts recounts;
  std::optional<std::size_t> first_bytes;
  if (std::any_of(edits.begin(), edits.end(), [](const CaseEdit& e) { return e.passed; })) {
    RecountTap counting(by_offset);
    auto read = read_with(counting, files, path, [](const TestCase&) {}, options);
    if (!read) return read.error();
    if (counting.skipped_too != nullptr)
      return could_not_evaluate(path + ": the test case " + counting.skipped_too->base_id + " at byte " +
                                std::to_string(counting.skipped_too->byte_offset) +
                                " is marked both failed and skipped: a rerun that passed cannot be written into it; "
                                "it was not written again");
    recounts = std::move(counting.recounts);
    first_bytes = read->bytes;
  }
  WriteTap writing(path, by_offset, recounts, write);
  Reader reader(path, [&](const TestCase& c) { writing.check_case(c); }, options, &writing);
  bool read_any = false;
  auto read = files.read_pieces(path, [&](std::string_view piece) -> Status {
    read_any = true;
    if (auto fed = reader.feed(piece); !fed) return fed;
    writing.flush();
    return writing.status;
  }, std::numeric_limits<std::size_t>::max());
  if (!read) {
    if (!read_any) return could_not_evaluate(path + ": cannot read the report (missing or unreadable)");
    return read.error();
  }
  auto finished = reader.finish();
  if (!finished) return finished.error();
  writing.finish();
  if (!writing.status) return writing.status.error();
  if (first_bytes && *first_bytes != finished->bytes)
    return changed(path, std::to_string(*first_bytes) + " bytes, then " + std::to_string(finished->bytes));
  if (writing.edited != by_offset.size())
    return changed(path, std::to_string(by_offset.size() - writing.edited) + " of the test cases to change are gone");
  stats.read = *finished;
  stats.edited = writing.edited;
  stats.suites_recounted = writing.recounted;
  stats.held_peak = writing.held_peak;
  return stats;
}

}  // namespace gatekit::junit
