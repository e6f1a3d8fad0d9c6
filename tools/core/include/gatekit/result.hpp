#pragma once
// The core's one error model.
//
// Leaf functions return Result<T>: a value, or an Error with a human message and a kind.
// The kind says what failed, never which exit code follows: exit_code_of() below is the one
// place that maps kinds to the shared exit codes (docs/exit-codes.md). Code that cannot go
// on throws the Error as a Failure (value_or_throw, throw_if_error, fail); the tool frame
// (gatekit/cli.hpp) is the one catch site that prints `<tool>: error: ...` and exits.
#include <cassert>
#include <exception>
#include <string>
#include <utility>
#include <variant>

#include "gatekit/exit_code.hpp"

namespace gatekit {

enum class ErrorKind {
  // The caller's input is wrong (command line, configuration, a file it named): fix the call.
  bad_input,
  // Inputs or infrastructure failed (network, git, a child process, unreadable data): no
  // verdict was reached. Never reported as a pass.
  could_not_evaluate,
};

struct Error {
  ErrorKind kind = ErrorKind::could_not_evaluate;
  std::string message;  // one line a person can act on; names the file, line and field
  // Set by the GitHub client when GitHub answered with an error status (404, 422, ...);
  // 0 for every other failure (network, decoding, budget, anything outside the client).
  int http_status = 0;
  // Set by the GitHub client when GitHub answered but its answer could not be read (not JSON,
  // not the shape expected): that answer is bad, the API may well be up (github::is_unreadable_answer).
  bool unreadable_answer = false;
};

inline Error bad_input(std::string message) { return Error{ErrorKind::bad_input, std::move(message)}; }
inline Error could_not_evaluate(std::string message) {
  return Error{ErrorKind::could_not_evaluate, std::move(message)};
}

// The one mapping from error kinds to exit codes.
constexpr ExitCode exit_code_of(ErrorKind kind) {
  return kind == ErrorKind::bad_input ? ExitCode::usage_error : ExitCode::could_not_evaluate;
}
inline ExitCode exit_code_of(const Error& error) { return exit_code_of(error.kind); }

// An Error on its way to the frame's catch site.
class Failure : public std::exception {
 public:
  explicit Failure(Error error) : error_(std::move(error)) {}
  const Error& error() const { return error_; }
  const char* what() const noexcept override { return error_.message.c_str(); }

 private:
  Error error_;
};

[[noreturn]] inline void fail(Error error) { throw Failure(std::move(error)); }
[[noreturn]] inline void fail_bad_input(std::string message) { fail(bad_input(std::move(message))); }
[[noreturn]] inline void fail_could_not_evaluate(std::string message) {
  fail(could_not_evaluate(std::move(message)));
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(state_); }
  const T& value() const& { assert(ok()); return std::get<0>(state_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { assert(!ok_); return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

// The value, or the error thrown as a Failure for the frame to report.
template <class T>
T value_or_throw(Result<T>&& result) {
  if (!result) fail(result.error());
  return std::move(result).value();
}
inline void throw_if_error(const Status& status) {
  if (!status) fail(status.error());
}

}  // namespace gatekit
