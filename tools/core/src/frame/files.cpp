#include "gatekit/files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <random>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace gatekit {

Error read_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot read " + path.string() + ": " + std::string(reason));
}

Error write_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot write " + path.string() + ": " + std::string(reason));
}

Error folder_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot create folder " + path.string() + ": " + std::string(reason));
}

Error rename_error(const std::filesystem::path& from, const std::filesystem::path& to, std::string_view reason) {
  return could_not_evaluate("cannot rename " + from.string() + " to " + to.string() + ": " + std::string(reason));
}

Error remove_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot remove " + path.string() + ": " + std::string(reason));
}

Error list_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot list folder " + path.string() + ": " + std::string(reason));
}

Error lock_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot lock " + path.string() + ": " + std::string(reason));
}

// ---- the operations every implementation shares ------------------------------------------

TempFolder::~TempFolder() {
  if (files_ != nullptr) (void)files_->remove_tree(path_);
}

Status TempFolder::remove() {
  if (files_ == nullptr) return {};
  Files* files = files_;
  files_ = nullptr;
  return files->remove_tree(path_);
}

namespace {

// Writes PATH.tmp through `create`, then renames it over PATH; on failure the sibling is
// removed and PATH is as it was.
Status replace_through(Files& files, const std::filesystem::path& path,
                       const std::function<Status(const std::filesystem::path& tmp)>& create) {
  const std::filesystem::path tmp(path.string() + ".tmp");
  if (files.exists(tmp)) (void)files.remove(tmp);  // a killed run's; if it stays, create names it
  if (auto written = create(tmp); !written) {
    (void)files.remove(tmp);
    return written;
  }
  if (auto renamed = files.rename(tmp, path); !renamed) {
    (void)files.remove(tmp);
    return renamed;
  }
  return {};
}

}  // namespace

Status Files::replace(const std::filesystem::path& path, std::string_view content) {
  return replace_through(*this, path, [&](const std::filesystem::path& tmp) { return create(tmp, content); });
}

Status Files::replace_streamed(const std::filesystem::path& path, const Producer& produce) {
  return replace_through(*this, path, [&](const std::filesystem::path& tmp) { return create_streamed(tmp, produce); });
}

bool Files::exists(const std::filesystem::path& path) const {
  auto status = stat(path);
  return status && status->exists();
}

Result<TempFolder> Files::make_temp_folder(std::string_view prefix) {
  auto made = do_make_temp_folder(prefix);
  if (!made) return made.error();
  return TempFolder(*this, std::move(*made));
}

Result<std::filesystem::path> Files::absolute(const std::filesystem::path& path) const {
  if (path.is_absolute()) return path;
  auto cwd = current_folder();
  if (!cwd) return cwd.error();
  return path.empty() ? *cwd : *cwd / path;
}

namespace {

std::string too_large(std::size_t limit) {
  return "larger than the limit of " + std::to_string(limit) + " bytes";
}

// Every byte of `content` to `fd`, through short writes and interrupted calls; the errno of
// the write that failed (ENOSPC on a full disk), or 0.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const auto n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

int close_checked(int fd) {
  // A close that fails reports data the file system could not keep (NFS, quotas); it is not
  // retried (POSIX leaves the descriptor's state unspecified after EINTR).
  return ::close(fd) == 0 || errno == EINTR ? 0 : errno;
}

}  // namespace

constexpr std::size_t kPiece = std::size_t{1} << 16;

Status Files::do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece, std::size_t limit) const {
  auto content = do_read(path, limit);
  if (!content) return content.error();
  const std::string_view text = *content;
  for (std::size_t at = 0; at < text.size(); at += kPiece)
    if (auto handled = on_piece(text.substr(at, kPiece)); !handled) return handled;
  return {};
}

Status SystemFiles::do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece,
                                   std::size_t limit) const {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return read_error(path, "is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return read_error(path, errno != 0 ? std::strerror(errno) : "cannot open");
  std::string buffer(kPiece, '\0');
  std::size_t total = 0;
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    total += n;
    if (total > limit) return read_error(path, too_large(limit));
    if (auto handled = on_piece(std::string_view(buffer.data(), n)); !handled) return handled;
  }
  if (in.bad()) return read_error(path, "read failed");
  return {};
}

Result<std::string> SystemFiles::do_read(const std::filesystem::path& path, std::size_t limit) const {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return read_error(path, "is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return read_error(path, errno != 0 ? std::strerror(errno) : "cannot open");
  std::string content;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    if (content.size() + n > limit) return read_error(path, too_large(limit));
    content.append(buffer, n);
  }
  if (in.bad()) return read_error(path, "read failed");
  return content;
}

namespace {

std::string line_too_long(std::size_t number, std::size_t limit) {
  return "line " + std::to_string(number) + " is longer than " + std::to_string(limit) + " bytes";
}

}  // namespace

Status Files::for_each_line(const std::filesystem::path& path, const std::function<Status(std::string_view)>& line,
                            std::size_t line_limit) const {
  std::string current;
  std::size_t number = 1;
  auto read = read_pieces(path, [&](std::string_view chunk) -> Status {
    while (!chunk.empty()) {
      const auto end = chunk.find('\n');
      const auto piece = chunk.substr(0, end);
      if (current.size() + piece.size() > line_limit) return read_error(path, line_too_long(number, line_limit));
      current.append(piece);
      if (end == std::string_view::npos) break;
      if (auto st = line(current); !st) return st;
      current.clear();
      ++number;
      chunk.remove_prefix(end + 1);
    }
    return {};
  }, std::numeric_limits<std::size_t>::max());  // lines are bounded; the file need not be
  if (!read) return read;
  if (!current.empty()) return line(current);
  return {};
}

Status SystemFiles::create(const std::filesystem::path& path, std::string_view content) {
  return create_streamed(path, [content](const Sink& write) { return write(content); });
}

Status SystemFiles::create_streamed(const std::filesystem::path& path, const Producer& produce) {
  // O_EXCL: never over an existing file (nor through a link planted at the path).
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return write_error(path, std::strerror(errno));
  int failed = 0;
  std::string buffer;  // small pieces are gathered into writes of kPiece
  auto drain = [&] {
    if (failed == 0 && !buffer.empty()) failed = write_all(fd, buffer);
    buffer.clear();
  };
  const Sink sink = [&](std::string_view piece) -> Status {
    if (failed == 0 && buffer.size() + piece.size() > kPiece) drain();
    if (failed == 0) {
      if (piece.size() >= kPiece) failed = write_all(fd, piece);
      else buffer.append(piece);
    }
    if (failed != 0) return write_error(path, std::strerror(failed));
    return {};
  };
  const Status produced = produce(sink);
  drain();
  // fsync: a full disk, a quota or a delayed allocation can refuse the data only here, and a
  // replace must not rename a file whose blocks the disk could not take.
  if (produced && failed == 0 && ::fsync(fd) != 0 && errno != EINVAL) failed = errno;
  const int closed = close_checked(fd);
  if (failed == 0) failed = closed;
  if (produced && failed == 0) return {};
  (void)::unlink(path.c_str());  // no half file is left behind
  if (!produced) return produced;
  return write_error(path, std::strerror(failed));
}

Status SystemFiles::append(const std::filesystem::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0) return write_error(path, std::strerror(errno));
  int failed = write_all(fd, content);
  const int closed = close_checked(fd);
  if (failed == 0) failed = closed;
  if (failed == 0) return {};
  return write_error(path, std::strerror(failed));
}

Result<std::optional<FileLock>> SystemFiles::try_lock(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return lock_error(path, std::strerror(errno));
  int locked = 0;
  do locked = ::flock(fd, LOCK_EX | LOCK_NB);
  while (locked != 0 && errno == EINTR);
  if (locked != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) return std::optional<FileLock>();
    return lock_error(path, std::strerror(error));
  }
  return std::optional<FileLock>(FileLock([fd] { ::close(fd); }));  // closing lets go of the lock
}

Result<FileStatus> SystemFiles::stat(const std::filesystem::path& path) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  FileStatus out;
  if (status.type() == fs::file_type::not_found) return out;
  if (ec) return could_not_evaluate("cannot stat " + path.string() + ": " + ec.message());
  switch (status.type()) {
    case fs::file_type::regular: out.type = FileStatus::Type::file; break;
    case fs::file_type::directory: out.type = FileStatus::Type::directory; break;
    default: out.type = FileStatus::Type::other; break;
  }
  if (out.is_file()) {
    out.size = fs::file_size(path, ec);
    if (ec) out.size = 0;
    out.executable = ::access(path.c_str(), X_OK) == 0;
  }
  return out;
}

Status SystemFiles::make_directories(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return folder_error(path, ec.message());
  return {};
}

Status SystemFiles::rename(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code ec;
  std::filesystem::rename(from, to, ec);
  if (ec) return rename_error(from, to, ec.message());
  return {};
}

Status SystemFiles::remove(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (ec) return remove_error(path, ec.message());
  return {};
}

Status SystemFiles::remove_tree(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  if (ec) return remove_error(path, ec.message());
  return {};
}

Result<std::vector<std::string>> SystemFiles::list_folder(const std::filesystem::path& path) const {
  std::error_code ec;
  std::vector<std::string> names;
  std::filesystem::directory_iterator it(path, ec);
  for (const std::filesystem::directory_iterator end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  if (ec) return list_error(path, ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::filesystem::path> SystemFiles::read_link(const std::filesystem::path& path) const {
  std::error_code ec;
  auto target = std::filesystem::read_symlink(path, ec);
  if (ec) return could_not_evaluate("cannot read link " + path.string() + ": " + ec.message());
  return target;
}

Result<std::filesystem::path> SystemFiles::current_folder() const {
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  if (ec) return could_not_evaluate("cannot find the current folder: " + ec.message());
  return cwd;
}

Result<std::filesystem::path> SystemFiles::canonical(const std::filesystem::path& path) const {
  std::error_code ec;
  auto resolved = std::filesystem::weakly_canonical(path, ec);
  if (ec) return could_not_evaluate("cannot resolve " + path.string() + ": " + ec.message());
  return resolved;
}

Result<std::filesystem::path> SystemFiles::do_make_temp_folder(std::string_view prefix) {
  std::error_code ec;
  const auto base = std::filesystem::temp_directory_path(ec);
  if (ec) return could_not_evaluate("cannot create a temporary folder: " + ec.message());
  std::random_device random;
  for (int attempt = 0; attempt < 8; ++attempt) {
    auto candidate = base / (std::string(prefix) + std::to_string(random()) + "-" + std::to_string(random()));
    if (std::filesystem::create_directory(candidate, ec)) return candidate;
    if (ec) return folder_error(candidate, ec.message());
  }
  return could_not_evaluate("cannot create a temporary folder in " + base.string() + ": every name tried exists");
}

// ---- MemoryFiles ---------------------------------------------------------------------------

namespace {

// A folder's key: as written, without a trailing '/' ("/" stays "/").
std::string folder_key(const std::filesystem::path& path) {
  std::string key = path.string();
  while (key.size() > 1 && key.back() == '/') key.pop_back();
  return key;
}

bool inside(const std::string& key, const std::string& folder) {
  if (folder == "/") return key.size() > 1 && key.front() == '/';
  return key.size() > folder.size() + 1 && key.compare(0, folder.size(), folder) == 0 && key[folder.size()] == '/';
}

// Whether a key is already lexically normal: no empty, "." or ".." part and no trailing '/'
// (most keys a test writes), so its identity needs no std::filesystem normalisation.
bool plain(std::string_view key) {
  if (key.empty() || (key.size() > 1 && key.back() == '/')) return false;
  std::size_t start = key.front() == '/' ? 1 : 0;
  while (start <= key.size()) {
    const auto end = std::min(key.find('/', start), key.size());
    const auto part = key.substr(start, end - start);
    if ((part.empty() && key != "/") || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

// The file a path names, as the disk resolves it (links aside): absolute against the current
// folder, lexically normal, without a trailing '/'. "a/b", "./a/b", "a//b", "a/./b" and
// "CWD/a/b" are one file.
class Identity {
 public:
  explicit Identity(const std::filesystem::path& cwd) : base_(folder_key(cwd.lexically_normal())) {}
  std::string of(std::string_view key) const {
    if (plain(key)) {
      if (key.front() == '/') return std::string(key);
      return base_ == "/" ? "/" + std::string(key) : base_ + "/" + std::string(key);
    }
    const std::filesystem::path path(key);
    return folder_key((path.is_absolute() ? path : std::filesystem::path(base_) / path).lexically_normal());
  }
  std::string of(const std::filesystem::path& path) const { return of(std::string_view(path.string())); }

 private:
  std::string base_;
};

const std::string& key_of(const std::string& key) { return key; }
const std::string& key_of(const std::pair<const std::string, std::string>& entry) { return entry.first; }

// The entry of a map or set (keyed as a test or a call wrote the path) that names the same
// file as `path`: the key as written first, else any key of the same identity.
template <class Entries>
auto find_entry(Entries& entries, const std::filesystem::path& path, const Identity& identity) {
  if (auto it = entries.find(path.string()); it != entries.end()) return it;
  const std::string wanted = identity.of(path);
  for (auto it = entries.begin(); it != entries.end(); ++it)
    if (identity.of(std::string_view(key_of(*it))) == wanted) return it;
  return entries.end();
}

// The key a new entry gets: the path as written, lexically normal ("./out//a" is "out/a").
std::string new_key(const std::filesystem::path& path) {
  const auto normal = path.lexically_normal();
  return folder_key(normal.empty() ? std::filesystem::path(".") : normal);
}

}  // namespace

Result<std::string> MemoryFiles::do_read(const std::filesystem::path& path, std::size_t limit) const {
  auto it = find_entry(files, path, Identity(cwd));
  if (it == files.end()) {
    if (stat(path)->is_directory()) return read_error(path, "is a directory");
    return read_error(path, std::strerror(ENOENT));
  }
  if (it->second.size() > limit) return read_error(path, too_large(limit));
  return it->second;
}

Status MemoryFiles::do_read_pieces(const std::filesystem::path& path, const PieceHandler& on_piece,
                                   std::size_t limit) const {
  auto it = find_entry(files, path, Identity(cwd));
  if (it == files.end()) return do_read(path, limit).error();
  const std::string_view text = it->second;
  if (text.size() > limit) return read_error(path, too_large(limit));
  for (std::size_t at = 0; at < text.size(); at += kPiece)
    if (auto handled = on_piece(text.substr(at, kPiece)); !handled) return handled;
  return {};
}

// Whether `path` lies on the disk that write_failure and space_left stand for.
bool MemoryFiles::on_disk(const std::filesystem::path& path) const {
  if (disk.empty()) return true;
  const Identity identity(cwd);
  const std::string key = identity.of(path);
  const std::string mount = identity.of(std::string_view(disk));
  return key == mount || inside(key, mount);
}

std::string MemoryFiles::failure_at(const std::filesystem::path& path) const {
  if (write_failure.empty()) return {};
  return on_disk(path) ? write_failure : std::string();
}

Status MemoryFiles::take_space(const std::filesystem::path& path, std::size_t bytes, std::size_t& fits) {
  fits = bytes;
  if (!space_left || !on_disk(path)) return {};
  fits = std::min(bytes, *space_left);
  *space_left -= fits;
  if (fits < bytes) return write_error(path, std::strerror(ENOSPC));
  return {};
}

void MemoryFiles::give_space(const std::filesystem::path& path, std::size_t bytes) {
  if (space_left && on_disk(path)) *space_left += bytes;
}

Status MemoryFiles::create(const std::filesystem::path& path, std::string_view content) {
  if (auto failure = failure_at(path); !failure.empty()) return write_error(path, failure);
  if (stat(path)->exists()) return write_error(path, std::strerror(EEXIST));
  std::size_t fits = 0;
  if (auto taken = take_space(path, content.size(), fits); !taken) {
    give_space(path, fits);  // the part written is removed again
    return taken;
  }
  files[new_key(path)] = std::string(content);
  return {};
}

Status MemoryFiles::create_streamed(const std::filesystem::path& path, const Producer& produce) {
  if (auto failure = failure_at(path); !failure.empty()) return write_error(path, failure);
  if (stat(path)->exists()) return write_error(path, std::strerror(EEXIST));
  std::string content;
  std::size_t taken = 0;
  Status full;
  const Sink sink = [&](std::string_view piece) -> Status {
    if (!full) return full;
    std::size_t fits = 0;
    full = take_space(path, piece.size(), fits);
    taken += fits;
    if (full) content.append(piece);
    return full;
  };
  if (auto produced = produce(sink); !produced) {
    give_space(path, taken);  // the part written is removed again
    return produced;
  }
  if (!full) {
    give_space(path, taken);
    return full;
  }
  files[new_key(path)] = std::move(content);
  return {};
}

Status MemoryFiles::append(const std::filesystem::path& path, std::string_view content) {
  if (auto failure = failure_at(path); !failure.empty()) return write_error(path, failure);
  const Identity identity(cwd);
  if (find_entry(folders, path, identity) != folders.end()) return write_error(path, "is a directory");
  std::size_t fits = 0;
  auto taken = take_space(path, content.size(), fits);
  auto it = find_entry(files, path, identity);
  const std::string key = it != files.end() ? it->first : new_key(path);
  files[key] += content.substr(0, fits);  // a full disk keeps the part it took
  return taken;
}

Result<std::optional<FileLock>> MemoryFiles::try_lock(const std::filesystem::path& path) {
  const Identity identity(cwd);
  if (find_entry(locked, path, identity) != locked.end()) return std::optional<FileLock>();
  std::string key;
  if (!stat(path)->exists()) {
    if (auto failure = failure_at(path); !failure.empty()) return lock_error(path, failure);
    key = new_key(path);
    files[key];
  } else if (!stat(path)->is_file()) {
    return lock_error(path, std::strerror(EISDIR));
  } else {
    key = find_entry(files, path, identity)->first;
  }
  locked.insert(key);
  return std::optional<FileLock>(FileLock([this, key] { locked.erase(key); }));
}

Result<FileStatus> MemoryFiles::stat(const std::filesystem::path& path) const {
  FileStatus out;
  const Identity identity(cwd);
  if (auto it = find_entry(files, path, identity); it != files.end()) {
    out.type = FileStatus::Type::file;
    out.size = it->second.size();
    out.executable = find_entry(executables, it->first, identity) != executables.end();
    return out;
  }
  const std::string folder = identity.of(path);
  for (const auto& made : folders) {
    const std::string key = identity.of(std::string_view(made));
    if (key == folder || inside(key, folder)) out.type = FileStatus::Type::directory;
  }
  for (const auto& [name, content] : files)
    if (inside(identity.of(std::string_view(name)), folder)) out.type = FileStatus::Type::directory;
  return out;
}

Status MemoryFiles::make_directories(const std::filesystem::path& path) {
  if (auto failure = failure_at(path); !failure.empty()) return folder_error(path, failure);
  const Identity identity(cwd);
  for (auto at = std::filesystem::path(identity.of(path)); !at.empty(); at = at.parent_path()) {
    if (find_entry(files, at, identity) != files.end()) return folder_error(path, std::strerror(ENOTDIR));
    if (at == at.parent_path()) break;
  }
  if (find_entry(folders, path, identity) == folders.end()) folders.insert(new_key(path));
  return {};
}

Status MemoryFiles::rename(const std::filesystem::path& from, const std::filesystem::path& to) {
  if (auto failure = failure_at(to); !failure.empty()) return rename_error(from, to, failure);
  const Identity identity(cwd);
  if (identity.of(from) == identity.of(to)) return {};
  if (auto it = find_entry(files, from, identity); it != files.end()) {
    if (stat(to)->is_directory()) return rename_error(from, to, std::strerror(EISDIR));
    std::string target = new_key(to);
    if (auto replaced = find_entry(files, to, identity); replaced != files.end()) {
      give_space(to, replaced->second.size());
      target = replaced->first;  // the same file, under the name it has
      files.erase(replaced);
    }
    const std::string source = it->first;
    std::string content = std::move(it->second);
    files.erase(it);
    files[target] = std::move(content);
    // The file keeps its mode: `to` is executable exactly when `from` was.
    if (auto was = find_entry(executables, to, identity); was != executables.end()) executables.erase(was);
    if (auto is = find_entry(executables, source, identity); is != executables.end()) {
      executables.erase(is);
      executables.insert(target);
    }
    return {};
  }
  if (!stat(from)->is_directory()) return rename_error(from, to, std::strerror(ENOENT));
  const std::string folder = identity.of(from);
  const std::string target = new_key(to);
  auto moves = [&](const std::string& key) {
    const std::string id = identity.of(std::string_view(key));
    return id == folder || inside(id, folder) ? std::optional<std::string>(target + id.substr(folder.size()))
                                              : std::nullopt;
  };
  std::map<std::string, std::string> kept_files;
  for (auto& [name, content] : files) kept_files[moves(name).value_or(name)] = std::move(content);
  files = std::move(kept_files);
  std::set<std::string> kept_folders;
  for (const auto& name : folders) kept_folders.insert(moves(name).value_or(name));
  folders = std::move(kept_folders);
  return {};
}

Status MemoryFiles::remove(const std::filesystem::path& path) {
  if (auto failure = failure_at(path); !failure.empty()) return remove_error(path, failure);
  const Identity identity(cwd);
  if (auto it = find_entry(files, path, identity); it != files.end()) {
    give_space(path, it->second.size());
    if (auto exec = find_entry(executables, it->first, identity); exec != executables.end()) executables.erase(exec);
    files.erase(it);
    return {};
  }
  const std::string folder = identity.of(path);
  for (const auto& [name, content] : files)
    if (inside(identity.of(std::string_view(name)), folder)) return remove_error(path, std::strerror(ENOTEMPTY));
  for (const auto& name : folders)
    if (inside(identity.of(std::string_view(name)), folder)) return remove_error(path, std::strerror(ENOTEMPTY));
  std::erase_if(folders, [&](const std::string& name) { return identity.of(std::string_view(name)) == folder; });
  return {};
}

Status MemoryFiles::remove_tree(const std::filesystem::path& path) {
  if (auto failure = failure_at(path); !failure.empty()) return remove_error(path, failure);
  const Identity identity(cwd);
  const std::string folder = identity.of(path);
  auto under = [&](const std::string& key) {
    const std::string id = identity.of(std::string_view(key));
    return id == folder || inside(id, folder);
  };
  std::erase_if(files, [&](const auto& entry) {
    const bool gone = under(entry.first);
    if (gone) give_space(entry.first, entry.second.size());
    return gone;
  });
  std::erase_if(executables, under);
  std::erase_if(folders, under);
  return {};
}

Result<std::vector<std::string>> MemoryFiles::list_folder(const std::filesystem::path& path) const {
  const auto status = stat(path);
  if (!status) return status.error();
  if (status->is_file()) return list_error(path, std::strerror(ENOTDIR));
  if (!status->is_directory()) return list_error(path, std::strerror(ENOENT));
  const Identity identity(cwd);
  const std::string folder = identity.of(path);
  std::set<std::string> names;
  auto take = [&](const std::string& name) {
    const std::string key = identity.of(std::string_view(name));
    if (!inside(key, folder)) return;
    const auto rest = key.substr(folder == "/" ? 1 : folder.size() + 1);
    names.insert(rest.substr(0, rest.find('/')));
  };
  for (const auto& [name, content] : files) take(name);
  for (const auto& name : folders) take(name);
  for (const auto& [name, target] : links) take(name);
  return std::vector<std::string>(names.begin(), names.end());
}

Result<std::filesystem::path> MemoryFiles::read_link(const std::filesystem::path& path) const {
  auto it = find_entry(links, path, Identity(cwd));
  if (it == links.end()) return could_not_evaluate("cannot read link " + path.string() + ": " + std::strerror(EINVAL));
  return std::filesystem::path(it->second);
}

Result<std::filesystem::path> MemoryFiles::canonical(const std::filesystem::path& path) const {
  auto absolute_path = absolute(path);
  if (!absolute_path) return absolute_path.error();
  return absolute_path->lexically_normal();
}

Result<std::filesystem::path> MemoryFiles::do_make_temp_folder(std::string_view prefix) {
  if (auto failure = failure_at(temp / std::string(prefix)); !failure.empty())
    return folder_error(temp / std::string(prefix), failure);
  std::filesystem::path made;
  do {
    made = temp / (std::string(prefix) + std::to_string(++temp_count_));
  } while (stat(made)->exists());
  folders.insert(folder_key(made));
  return made;
}

Result<std::string> read_stream(std::istream& in, std::string_view name, std::size_t limit) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    if (text.size() + n > limit) return read_error(std::string(name), too_large(limit));
    text.append(buffer, n);
  }
  if (in.bad()) return read_error(std::string(name), "read failed");
  return text;
}

}  // namespace gatekit
