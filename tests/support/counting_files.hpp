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
#include "forwarding_files.hpp"

namespace gatekit::testing {

class CountingFiles final : public ForwardingFiles {
 public:
  using ForwardingFiles::ForwardingFiles;

  // Whole reads and streamed reads (read_pieces, for_each_line), by path as given.
  mutable std::map<std::string, int> reads;
  std::vector<std::string> changes;
  std::string failing_prefix;
  int appends_allowed = 0;

  Status create(const std::filesystem::path& p, std::string_view content) override {
    changes.push_back("create " + p.string());
    return inner().create(p, content);
  }
  Status create_streamed(const std::filesystem::path& p, const Producer& produce) override {
    changes.push_back("create " + p.string());
    return inner().create_streamed(p, produce);
  }
  Status append(const std::filesystem::path& p, std::string_view content) override {
    changes.push_back("append " + p.string());
    if (!failing_prefix.empty() && p.string().rfind(failing_prefix, 0) == 0 && appends_allowed-- <= 0)
      return write_error(p, "No space left on device");
    return inner().append(p, content);
  }
  Status rename(const std::filesystem::path& from, const std::filesystem::path& to) override {
    changes.push_back("rename " + from.string() + " " + to.string());
    return inner().rename(from, to);
  }
  Status remove(const std::filesystem::path& p) override {
    changes.push_back("remove " + p.string());
    return inner().remove(p);
  }

 protected:
  Result<std::string> do_read(const std::filesystem::path& p, std::size_t limit) const override {
    ++reads[p.string()];
    return inner().read(p, limit);
  }
  Status do_read_pieces(const std::filesystem::path& p, const PieceHandler& on_piece, std::size_t limit) const override {
    ++reads[p.string()];
    return inner().read_pieces(p, on_piece, limit);
  }
};

}  // namespace gatekit::testing
