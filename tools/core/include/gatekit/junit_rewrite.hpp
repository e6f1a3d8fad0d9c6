#pragma once
// Writing a JUnit report again with a few of its test cases changed, streamed: the report is
// read in pieces through the core's reader (expat) and each piece goes out as soon as nothing
// in it can change any more, so memory holds one piece and one tag, never the report nor its
// cases. Everything outside the changed cases passes byte for byte as the reader read it: the
// XML declaration (its encoding included), comments, <properties>, every attribute, text and
// CDATA, <system-out>/<system-err>, suite times, whitespace, the order of cases. The reader's
// one change to a byte: invalid UTF-8 and characters XML 1.0 forbids become U+FFFD, as it
// reads them (junit_reader.hpp), so the report written is well-formed whatever its input.
//
// What an edit changes (docs/junit.md, "Writing a report again"):
// - a case that passed in the end (CaseEdit::passed): each of its <failure>/<error>
//   elements becomes a <flakyFailure>/<flakyError> with the same attributes, its text inside
//   a <stackTrace> (where Surefire puts an attempt's trace), as does each <rerunFailure>/
//   <rerunError> Surefire recorded (its content kept), and every <testsuite>/<testsuites>
//   around it declares that many fewer `failures`/`errors` (the start tag of one that declares
//   such a count is written again: the same attributes in the same order, the counts lowered;
//   a count absent or not a number is left alone, and a tag with none stays as it was);
// - the attempts it adds go just before its </testcase>, one element each (write_attempt):
//   <flakyFailure>/<flakyError> when it passed, <rerunFailure>/<rerunError> when not.
// The case's start tag, its other children and its text stay as they were.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_writer.hpp"
#include "gatekit/result.hpp"

namespace gatekit::junit {

// How one case of the report changes.
struct CaseEdit {
  std::uint64_t byte_offset = 0;  // TestCase::byte_offset, from an earlier read of the same report
  std::string base_id;            // its TestCase::base_id: the case met there must have it
  bool passed = false;            // it passed in the end (its failures become flaky attempts)
  std::vector<JunitAttempt> attempts;  // later runs, added before its </testcase>
};

struct RewriteStats {
  ReadStats read;                  // of the report, as the reader counted it
  std::size_t edited = 0;          // cases changed
  std::size_t suites_recounted = 0;  // suite start tags written again with lower counts
  std::size_t held_peak = 0;       // most bytes read and not yet written at one time
};

// Writes the report at `path` to `write`, changed only by `edits` (by byte offset; an offset
// no case starts at, or a case there with another id, is an Error: "PATH changed since it was
// read: ..."). A report whose suites must be recounted (an edit with `passed`) is read twice:
// first to find the suites around each such case, then to write it. `options` must be those
// of the read that gave the offsets (the ids depend on them). Errors: the reader's (could not
// evaluate, naming the report), and the first Error `write` returns.
Result<RewriteStats> rewrite(const Files& files, const std::string& path, const std::vector<CaseEdit>& edits,
                             const Files::Sink& write, const ReadOptions& options = {});

}  // namespace gatekit::junit
