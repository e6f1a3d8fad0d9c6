#pragma once
// A Files that hands every call to another Files: the base of a test's Files that watches or
// changes a few calls (CountingFiles, flaky-tracker's WatchedFiles) and overrides only those.
// The temporary folders it makes live as long as it does, at the latest.
//   class Watching final : public ForwardingFiles {
//     using ForwardingFiles::ForwardingFiles;
//     Status create(const std::filesystem::path& p, std::string_view c) override { ...; return inner().create(p, c); }
//   };
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/files.hpp"

namespace gatekit::testing {

class ForwardingFiles : public Files {
 public:
  explicit ForwardingFiles(Files& inner) : inner_(inner) {}

  Status create(const std::filesystem::path& p, std::string_view content) override { return inner_.create(p, content); }
  Status create_streamed(const std::filesystem::path& p, const Producer& produce) override {
    return inner_.create_streamed(p, produce);
  }
  Status append(const std::filesystem::path& p, std::string_view content) override { return inner_.append(p, content); }
  Result<std::optional<FileLock>> try_lock(const std::filesystem::path& p) override { return inner_.try_lock(p); }
  Result<FileStatus> stat(const std::filesystem::path& p) const override { return inner_.stat(p); }
  Status make_directories(const std::filesystem::path& p) override { return inner_.make_directories(p); }
  Status rename(const std::filesystem::path& from, const std::filesystem::path& to) override {
    return inner_.rename(from, to);
  }
  Status remove(const std::filesystem::path& p) override { return inner_.remove(p); }
  Status remove_tree(const std::filesystem::path& p) override { return inner_.remove_tree(p); }
  Result<std::vector<std::string>> list_folder(const std::filesystem::path& p) const override {
    return inner_.list_folder(p);
  }
  Result<std::filesystem::path> read_link(const std::filesystem::path& p) const override { return inner_.read_link(p); }
  Result<std::filesystem::path> current_folder() const override { return inner_.current_folder(); }
  Result<std::filesystem::path> canonical(const std::filesystem::path& p) const override { return inner_.canonical(p); }

 protected:
  Files& inner() const { return inner_; }

  Result<std::string> do_read(const std::filesystem::path& p, std::size_t limit) const override {
    return inner_.read(p, limit);
  }
  Status do_read_pieces(const std::filesystem::path& p, const PieceHandler& on_piece, std::size_t limit) const override {
    return inner_.read_pieces(p, on_piece, limit);
  }
  Result<std::filesystem::path> do_make_temp_folder(std::string_view prefix) override {
    auto folder = inner_.make_temp_folder(prefix);
    if (!folder) return folder.error();
    auto path = folder->path();
    held_.push_back(std::move(*folder));  // the caller's handle removes it; this one at the latest
    return path;
  }

 private:
  Files& inner_;
  std::vector<TempFolder> held_;
};

}  // namespace gatekit::testing
