#pragma once
// Files behind an interface: every whole-file read and write of the tools goes through it,
// with one wording for failures, and tests use MemoryFiles instead of temporary folders.
//
// Errors name the file and the reason:
//   "cannot read rules.yml: No such file or directory"
//   "cannot write out/report.json: Permission denied"
//   "cannot read big.xml: larger than the limit of 268435456 bytes"
// and have the kind could_not_evaluate; a caller for whom the file is the user's own input
// (a rules file named on the command line) re-labels it with as_bad_input().
#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>

#include "gatekit/result.hpp"

namespace gatekit {

class Files {
 public:
  // Outside data never becomes an unbounded allocation: reads stop at a limit.
  static constexpr std::size_t default_read_limit = std::size_t{256} << 20;

  virtual ~Files() = default;
  Result<std::string> read(const std::filesystem::path& path, std::size_t limit = default_read_limit) const {
    return do_read(path, limit);
  }
  // The file in order, in pieces of at most 64 KiB, each handed to `on_piece` as it is read,
  // so that a large file is never held whole; the same errors and limit as read(). The first
  // Error `on_piece` returns stops the reading and is returned.
  using PieceHandler = std::function<Status(std::string_view piece)>;
  Status read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece,
                     std::size_t limit = default_read_limit) const {
    return do_read_pieces(path, on_piece, limit);
  }
  // Replaces the file's content (creates it; parent folders must exist).
  virtual Status write(const std::filesystem::path& path, std::string_view content) = 0;
  virtual Status append(const std::filesystem::path& path, std::string_view content) = 0;
  virtual bool exists(const std::filesystem::path& path) const = 0;

 protected:
  virtual Result<std::string> do_read(const std::filesystem::path& path, std::size_t limit) const = 0;
  // By default: read() whole, then handed over in pieces. SystemFiles streams.
  virtual Status do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece, std::size_t limit) const;
};

class SystemFiles final : public Files {
 public:
  Status write(const std::filesystem::path& path, std::string_view content) override;
  Status append(const std::filesystem::path& path, std::string_view content) override;
  bool exists(const std::filesystem::path& path) const override;

 protected:
  Result<std::string> do_read(const std::filesystem::path& path, std::size_t limit) const override;
  Status do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece, std::size_t limit) const override;
};

// In-memory fake: a map from path (as written) to content.
class MemoryFiles final : public Files {
 public:
  MemoryFiles() = default;
  MemoryFiles(std::initializer_list<std::pair<const std::string, std::string>> initial) : files(initial) {}
  Status write(const std::filesystem::path& path, std::string_view content) override;
  Status append(const std::filesystem::path& path, std::string_view content) override;
  bool exists(const std::filesystem::path& path) const override { return files.count(path.string()) > 0; }

  std::map<std::string, std::string> files;

 protected:
  Result<std::string> do_read(const std::filesystem::path& path, std::size_t limit) const override;
};

// At most `limit` bytes of a stream (stdin), named `name` in errors; more is an error with the
// files' wording, so outside data never becomes an unbounded allocation.
Result<std::string> read_stream(std::istream& in, std::string_view name,
                                std::size_t limit = Files::default_read_limit);

// The one wording (used by both implementations, and by code that reads through a stream).
Error read_error(const std::filesystem::path& path, std::string_view reason);
Error write_error(const std::filesystem::path& path, std::string_view reason);

template <class T>
Result<T> as_bad_input(Result<T> result) {
  if (result) return result;
  Error error = result.error();
  error.kind = ErrorKind::bad_input;
  return error;
}

}  // namespace gatekit
