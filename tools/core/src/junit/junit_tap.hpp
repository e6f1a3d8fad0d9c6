#pragma once
// What a pass-through writer needs of a report as the reader reads it: the bytes the parser
// is fed (after the UTF-8 repairs), and where the elements the reader takes start and end in
// them. Private to the core: junit::rewrite is its one user (junit_rewrite.cpp).
#include <cstdint>
#include <string>
#include <string_view>

#include "gatekit/junit_reader.hpp"

namespace gatekit::junit::detail {

// An element as the reader took it: `test` is a <testcase> it reads as a case (not one nested
// in another); `failure` and `error` are those elements directly inside such a case (the ones
// that decide its outcome and count against its suites), `rerun_failure` and `rerun_error`
// Surefire's <rerunFailure>/<rerunError> there; everything else is `other`.
enum class TapElement { suites, suite, test, failure, error, skipped, rerun_failure, rerun_error, other };

class Tap {
 public:
  virtual ~Tap() = default;
  // Every byte the parser is fed, in order, before it parses them.
  virtual void bytes(std::string_view fed) = 0;
  // A start tag: [begin, begin + length) in the bytes fed (an empty element's whole tag), its
  // attributes as expat gives them (name, value, ..., nullptr), values whole and unescaped.
  virtual void start(TapElement element, const char** attributes, std::uint64_t begin, std::uint64_t length) = 0;
  // An end tag: [begin, begin + length); length 0 for an empty element (its start tag held it).
  virtual void end(TapElement element, std::uint64_t begin, std::uint64_t length) = 0;
  // Text (or a part of it) that ends before `end`: nothing before it changes any more.
  virtual void text(std::uint64_t end) = 0;
};

// The file at `path`, read through `files` in pieces into `reader`, then finished: read_file's
// work for a Reader made elsewhere (with a tap), with its errors.
Result<ReadStats> read_into(Reader& reader, const Files& files, const std::string& path);

}  // namespace gatekit::junit::detail
