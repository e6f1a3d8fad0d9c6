#include "gatekit/files.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <istream>
#include <system_error>

namespace gatekit {

Error read_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot read " + path.string() + ": " + std::string(reason));
}

Error write_error(const std::filesystem::path& path, std::string_view reason) {
  return could_not_evaluate("cannot write " + path.string() + ": " + std::string(reason));
}

namespace {

std::string too_large(std::size_t limit) {
  return "larger than the limit of " + std::to_string(limit) + " bytes";
}

Status write_mode(const std::filesystem::path& path, std::string_view content, std::ios::openmode mode) {
  errno = 0;
  std::ofstream out(path, mode | std::ios::binary);
  if (!out) return write_error(path, errno != 0 ? std::strerror(errno) : "cannot open");
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.flush();
  if (!out) return write_error(path, errno != 0 ? std::strerror(errno) : "write failed");
  return {};
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

Status SystemFiles::write(const std::filesystem::path& path, std::string_view content) {
  return write_mode(path, content, std::ios::out | std::ios::trunc);
}

Status SystemFiles::append(const std::filesystem::path& path, std::string_view content) {
  return write_mode(path, content, std::ios::out | std::ios::app);
}

bool SystemFiles::exists(const std::filesystem::path& path) const {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

Result<std::string> MemoryFiles::do_read(const std::filesystem::path& path, std::size_t limit) const {
  auto it = files.find(path.string());
  if (it == files.end()) return read_error(path, std::strerror(ENOENT));
  if (it->second.size() > limit) return read_error(path, too_large(limit));
  return it->second;
}

Status MemoryFiles::write(const std::filesystem::path& path, std::string_view content) {
  files[path.string()] = std::string(content);
  return {};
}

Status MemoryFiles::append(const std::filesystem::path& path, std::string_view content) {
  files[path.string()] += content;
  return {};
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
