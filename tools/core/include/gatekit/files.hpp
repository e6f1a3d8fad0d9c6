#pragma once
// Files behind an interface, as ninja's DiskInterface: every touch of the file system by the
// tools goes through it (reads, streamed reads, writes, atomic replaces, folders, renames,
// removals, temporary folders, stat, links, the current folder), with one wording for
// failures, and tests use MemoryFiles instead of temporary folders. Only SystemFiles (and
// the platform folder) call std::filesystem or open a stream on a file;
// tests/core/test_file_calls.py keeps it so.
//
// Errors name the file and the reason:
//   "cannot read rules.yml: No such file or directory"
//   "cannot write out/report.json: Permission denied"
//   "cannot read big.xml: larger than the limit of 268435456 bytes"
//   "cannot create folder out/reports: Not a directory"
//   "cannot rename a.tmp to a.json: No such file or directory"
//   "cannot remove out: Permission denied"
//   "cannot list folder .github/workflows: No such file or directory"
// and have the kind could_not_evaluate; a caller for whom the file is the user's own input
// (a rules file named on the command line) re-labels it with as_bad_input().
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit {

class Files;

// What stat() says of a path (symbolic links followed).
struct FileStatus {
  enum class Type { none, file, directory, other };
  Type type = Type::none;  // none: nothing there (not an error)
  std::uintmax_t size = 0;  // of a file
  bool executable = false;  // a file its owner may run
  bool exists() const { return type != Type::none; }
  bool is_file() const { return type == Type::file; }
  bool is_directory() const { return type == Type::directory; }
};

// A temporary folder, removed with everything in it when the handle goes (or at remove()).
// Made by Files::make_temp_folder; movable, not copyable.
class TempFolder {
 public:
  TempFolder(Files& files, std::filesystem::path path) : files_(&files), path_(std::move(path)) {}
  ~TempFolder();
  TempFolder(TempFolder&& other) noexcept : files_(other.files_), path_(std::move(other.path_)) { other.files_ = nullptr; }
  TempFolder& operator=(TempFolder&&) = delete;
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }
  // Removes it now (the destructor then does nothing); the destructor ignores errors.
  Status remove();

 private:
  Files* files_;
  std::filesystem::path path_;
};

// An advisory lock on a file (flock), held until the handle goes (or release()). The system
// lets go of it when its holder ends, however it ends (SIGKILL included): a lock that can be
// taken is held by nobody, so whatever its last holder was doing has stopped. Made by
// Files::try_lock; movable, not copyable.
class FileLock {
 public:
  explicit FileLock(std::function<void()> release) : release_(std::move(release)) {}
  ~FileLock() { release(); }
  FileLock(FileLock&& other) noexcept : release_(std::move(other.release_)) { other.release_ = nullptr; }
  FileLock& operator=(FileLock&&) = delete;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  void release() {
    auto release = std::move(release_);
    release_ = nullptr;
    if (release) release();
  }

 private:
  std::function<void()> release_;
};

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
  // Each line of the file (without its '\n') to `line`, read through read_pieces, so that a
  // large file (a JSON Lines history) is never held whole; stops at the first error `line`
  // returns. A line longer than `line_limit` is an error ("cannot read F: line 7 is longer
  // than ...").
  Status for_each_line(const std::filesystem::path& path, const std::function<Status(std::string_view)>& line,
                       std::size_t line_limit = std::size_t{16} << 20) const;
  // There is no plain overwrite: a file that replaces an earlier one goes through replace(),
  // so a full disk or a kill mid-write never leaves a good file cut short (the seam has no
  // call that truncates a file in place).
  //
  // A new file with this content (parent folders must exist). Something already at the path
  // is an error, "cannot write P: File exists": a file that may hold earlier content is
  // replace()d, never created over. Written whole and flushed to the disk (fsync) before it
  // returns; when the disk cannot take it all ("No space left on device"), the part written is
  // removed, so a failed create leaves nothing behind.
  virtual Status create(const std::filesystem::path& path, std::string_view content) = 0;
  // A new file as create() makes it, its content made piece by piece by `produce`, which
  // hands each piece, in order, to the Sink it is given (a merged report written as its input
  // is read): the content is never held whole. The same rules as create(): a new file only,
  // flushed to the disk before it returns, and nothing left behind on failure, whether the
  // disk refused a piece or `produce` returned an Error (that Error is returned). A Sink that
  // failed keeps returning its Error; `produce` returns it.
  using Sink = std::function<Status(std::string_view piece)>;
  using Producer = std::function<Status(const Sink& write)>;
  virtual Status create_streamed(const std::filesystem::path& path, const Producer& produce) = 0;
  // Adds to the end of the file (creating it): a log or a stream written piece by piece. A
  // failure may leave part of `content` written, as on any disk.
  virtual Status append(const std::filesystem::path& path, std::string_view content) = 0;
  // Replaces the file's content atomically (or creates it): created as the sibling PATH.tmp
  // (one a killed run left there is removed first), then renamed over PATH, so a reader, a
  // kill mid-write or a full disk never sees half a file. On failure the sibling is removed
  // and PATH is as it was.
  Status replace(const std::filesystem::path& path, std::string_view content);
  // replace() with the content made piece by piece (create_streamed into PATH.tmp, then the
  // rename): a file larger than memory replaces another with the same guarantees.
  Status replace_streamed(const std::filesystem::path& path, const Producer& produce);
  // Takes the lock of the file at PATH (made, empty, when missing) without waiting: nullopt
  // when someone else holds it. "cannot lock P: REASON" when the file cannot be opened.
  virtual Result<std::optional<FileLock>> try_lock(const std::filesystem::path& path) = 0;
  // True when something is there (a file or a folder).
  bool exists(const std::filesystem::path& path) const;
  // What is at the path; nothing there is a FileStatus of type none, not an error.
  virtual Result<FileStatus> stat(const std::filesystem::path& path) const = 0;
  // The folder and its missing parents ("mkdir -p"); an existing folder is fine.
  virtual Status make_directories(const std::filesystem::path& path) = 0;
  // Moves a file or folder, replacing a file at `to` ("cannot rename FROM to TO: REASON").
  virtual Status rename(const std::filesystem::path& from, const std::filesystem::path& to) = 0;
  // Removes a file or an empty folder; nothing there is fine.
  virtual Status remove(const std::filesystem::path& path) = 0;
  // Removes a file or a folder with everything in it; nothing there is fine.
  virtual Status remove_tree(const std::filesystem::path& path) = 0;
  // The names of what a folder holds (files, folders, links; not "." and ".."), sorted. A
  // missing path or a file is an error ("cannot list folder P: No such file or directory",
  // "...: Not a directory").
  virtual Result<std::vector<std::string>> list_folder(const std::filesystem::path& path) const = 0;
  // A new, empty folder named PREFIX followed by random characters, in the temporary folder
  // (TMPDIR); removed when the handle goes.
  Result<TempFolder> make_temp_folder(std::string_view prefix);
  // The target a symbolic link holds, as written in the link.
  virtual Result<std::filesystem::path> read_link(const std::filesystem::path& path) const = 0;
  // The process's working folder, and a path made absolute against it (not resolved).
  virtual Result<std::filesystem::path> current_folder() const = 0;
  Result<std::filesystem::path> absolute(const std::filesystem::path& path) const;
  // The absolute path with links resolved as far as the path exists, the rest normalized
  // (std::filesystem::weakly_canonical).
  virtual Result<std::filesystem::path> canonical(const std::filesystem::path& path) const = 0;

 protected:
  virtual Result<std::string> do_read(const std::filesystem::path& path, std::size_t limit) const = 0;
  // By default: read() whole, then handed over in pieces. SystemFiles streams.
  virtual Status do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece, std::size_t limit) const;
  // A fresh folder whose name starts with `prefix`, in the temporary folder.
  virtual Result<std::filesystem::path> do_make_temp_folder(std::string_view prefix) = 0;
};

class SystemFiles final : public Files {
 public:
  Status create(const std::filesystem::path& path, std::string_view content) override;
  Status create_streamed(const std::filesystem::path& path, const Producer& produce) override;
  Status append(const std::filesystem::path& path, std::string_view content) override;
  Result<std::optional<FileLock>> try_lock(const std::filesystem::path& path) override;
  Result<FileStatus> stat(const std::filesystem::path& path) const override;
  Status make_directories(const std::filesystem::path& path) override;
  Status rename(const std::filesystem::path& from, const std::filesystem::path& to) override;
  Status remove(const std::filesystem::path& path) override;
  Status remove_tree(const std::filesystem::path& path) override;
  Result<std::vector<std::string>> list_folder(const std::filesystem::path& path) const override;
  Result<std::filesystem::path> read_link(const std::filesystem::path& path) const override;
  Result<std::filesystem::path> current_folder() const override;
  Result<std::filesystem::path> canonical(const std::filesystem::path& path) const override;

 protected:
  Result<std::string> do_read(const std::filesystem::path& path, std::size_t limit) const override;
  Status do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece, std::size_t limit) const override;
  Result<std::filesystem::path> do_make_temp_folder(std::string_view prefix) override;
};

// In-memory fake: a map from path to content, and the folders made. A file's parent folders
// exist implicitly (a test puts files["a/b.yml"] without making "a"); a folder made or
// implied is a directory to stat(). As on the disk, a path names a file by its lexically
// normal form relative to `cwd`: "a/b", "./a/b", "a//b", "a/./b" and CWD/a/b are one file,
// whichever spelling a test put in the maps; an entry a call makes is keyed by its path made
// lexically normal ("./out//r.json" is files["out/r.json"]). Links are not followed, so ".."
// is taken lexically (tests/core/test_files.cpp compares both implementations).
class MemoryFiles final : public Files {
 public:
  MemoryFiles() = default;
  MemoryFiles(std::initializer_list<std::pair<const std::string, std::string>> initial) : files(initial) {}
  Status create(const std::filesystem::path& path, std::string_view content) override;
  Status create_streamed(const std::filesystem::path& path, const Producer& produce) override;
  Status append(const std::filesystem::path& path, std::string_view content) override;
  Result<std::optional<FileLock>> try_lock(const std::filesystem::path& path) override;
  Result<FileStatus> stat(const std::filesystem::path& path) const override;
  Status make_directories(const std::filesystem::path& path) override;
  Status rename(const std::filesystem::path& from, const std::filesystem::path& to) override;
  Status remove(const std::filesystem::path& path) override;
  Status remove_tree(const std::filesystem::path& path) override;
  Result<std::vector<std::string>> list_folder(const std::filesystem::path& path) const override;
  Result<std::filesystem::path> read_link(const std::filesystem::path& path) const override;
  Result<std::filesystem::path> current_folder() const override { return cwd; }
  Result<std::filesystem::path> canonical(const std::filesystem::path& path) const override;

  std::map<std::string, std::string> files;
  std::set<std::string> folders;      // made by make_directories / make_temp_folder
  std::set<std::string> executables;  // files stat() calls executable
  std::map<std::string, std::string> links;  // link -> target, for read_link
  std::set<std::string> locked;  // files whose lock is held (by a FileLock, or a test's other process)
  std::filesystem::path cwd = "/work";
  std::filesystem::path temp = "/tmp";
  // When set, every change (create, append, replace, folder, rename, removal) fails with this
  // reason, as on a full or read-only disk: "cannot write out.json: Read-only file system".
  std::string write_failure;
  // A disk that fills up: when set, the bytes it can still take. A create or append that needs
  // more writes what fits, then fails with "No space left on device" (create then removes its
  // part, as SystemFiles does; an append's part stays); a removal gives the bytes back.
  std::optional<std::size_t> space_left;
  // The disk write_failure and space_left stand for, as a mount point: only paths under this
  // folder meet them ("" : every path), as a full disk mounted at one folder.
  std::string disk;

 protected:
  Result<std::string> do_read(const std::filesystem::path& path, std::size_t limit) const override;
  // In pieces of the stored content, without a copy of it (as SystemFiles streams).
  Status do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece, std::size_t limit) const override;
  Result<std::filesystem::path> do_make_temp_folder(std::string_view prefix) override;

 private:
  // Whether `path` lies on `disk`.
  bool on_disk(const std::filesystem::path& path) const;
  // The failure a change of `path` meets (write_failure on the disk), or "".
  std::string failure_at(const std::filesystem::path& path) const;
  // Takes the room for `bytes` more at `path`; what does not fit makes the Error, and `fits`
  // says how many of them the disk took.
  Status take_space(const std::filesystem::path& path, std::size_t bytes, std::size_t& fits);
  void give_space(const std::filesystem::path& path, std::size_t bytes);

  int temp_count_ = 0;
};

// At most `limit` bytes of a stream (stdin), named `name` in errors; more is an error with the
// files' wording, so outside data never becomes an unbounded allocation.
Result<std::string> read_stream(std::istream& in, std::string_view name,
                                std::size_t limit = Files::default_read_limit);

// The one wording (used by both implementations, and by code that reads through a stream).
Error read_error(const std::filesystem::path& path, std::string_view reason);
Error write_error(const std::filesystem::path& path, std::string_view reason);
Error folder_error(const std::filesystem::path& path, std::string_view reason);  // "cannot create folder P: R"
Error rename_error(const std::filesystem::path& from, const std::filesystem::path& to, std::string_view reason);
Error remove_error(const std::filesystem::path& path, std::string_view reason);
Error list_error(const std::filesystem::path& path, std::string_view reason);  // "cannot list folder P: R"
Error lock_error(const std::filesystem::path& path, std::string_view reason);  // "cannot lock P: R"

template <class T>
Result<T> as_bad_input(Result<T> result) {
  if (result) return result;
  Error error = result.error();
  error.kind = ErrorKind::bad_input;
  return error;
}

}  // namespace gatekit
