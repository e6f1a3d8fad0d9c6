#pragma once
// A Files that counts the reads of each path, logs each change ("create P", "append P",
// "rename F T", "remove P") and hands every call to another Files: a test checks that a
// command reads a file once through the seam, or in which order it changes files. It can fail
// the appends to the paths that start with `failing_prefix` after the first `appends_allowed`,
// as a disk that fills up.
//   MemoryFiles memory{{"r.xml", "..."}};
//   CountingFiles files(memory);
//   ... run with `files` in the Context ...
//   CHECK(files.reads["r.xml"] == 1);
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/files.hpp"

namespace gatekit::testing {

class CountingFiles final : public Files {
 public:
  explicit CountingFiles(Files& inner) : inner_(inner) {}

  // Whole reads and streamed reads (read_pieces, for_each_line), by path as given.
  mutable std::map<std::string, int> reads;
  std::vector<std::string> changes;
  std::string failing_prefix;
  int appends_allowed = 0;

  Status create(const std::filesystem::path& p, std::string_view content) override {
    changes.push_back("create " + p.string());
    return inner_.create(p, content);
  }
  Status create_streamed(const std::filesystem::path& p, const Producer& produce) override {
    changes.push_back("create " + p.string());
    return inner_.create_streamed(p, produce);
  }
  Status append(const std::filesystem::path& p, std::string_view content) override {
    changes.push_back("append " + p.string());
    if (!failing_prefix.empty() && p.string().rfind(failing_prefix, 0) == 0 && appends_allowed-- <= 0)
      return write_error(p, "No space left on device");
    return inner_.append(p, content);
  }
  Result<std::optional<FileLock>> try_lock(const std::filesystem::path& p) override { return inner_.try_lock(p); }
  Result<FileStatus> stat(const std::filesystem::path& p) const override { return inner_.stat(p); }
  Status make_directories(const std::filesystem::path& p) override { return inner_.make_directories(p); }
  Status rename(const std::filesystem::path& from, const std::filesystem::path& to) override {
    changes.push_back("rename " + from.string() + " " + to.string());
    return inner_.rename(from, to);
  }
  Status remove(const std::filesystem::path& p) override {
    changes.push_back("remove " + p.string());
    return inner_.remove(p);
  }
  Status remove_tree(const std::filesystem::path& p) override { return inner_.remove_tree(p); }
  Result<std::vector<std::string>> list_folder(const std::filesystem::path& p) const override {
    return inner_.list_folder(p);
  }
  Result<std::filesystem::path> read_link(const std::filesystem::path& p) const override { return inner_.read_link(p); }
  Result<std::filesystem::path> current_folder() const override { return inner_.current_folder(); }
  Result<std::filesystem::path> canonical(const std::filesystem::path& p) const override { return inner_.canonical(p); }

 protected:
  Result<std::string> do_read(const std::filesystem::path& p, std::size_t limit) const override {
    ++reads[p.string()];
    return inner_.read(p, limit);
  }
  Status do_read_pieces(const std::filesystem::path& p, const PieceHandler& on_piece, std::size_t limit) const override {
    ++reads[p.string()];
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
