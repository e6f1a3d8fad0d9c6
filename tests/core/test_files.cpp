// The files seam (gatekit/files.hpp): SystemFiles and the MemoryFiles fake keep one contract
// (round trips, appends, the read limit) and one wording for failures, asserted verbatim.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "temp_dir.hpp"

using namespace gatekit;

namespace {

// Both implementations, run over the same paths (MemoryFiles keys them as written).
struct Subject {
  std::string name;
  std::function<std::unique_ptr<Files>()> make;
};

std::vector<Subject> subjects() {
  return {{"SystemFiles", [] { return std::make_unique<SystemFiles>(); }},
          {"MemoryFiles", [] { return std::make_unique<MemoryFiles>(); }}};
}

}  // namespace

TEST_CASE("files: written content reads back as written, appends add to it, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / "out.txt";
    CHECK_FALSE(files->exists(path));
    const std::string binary("a\0b\r\n\xff", 6);
    REQUIRE(files->write(path, binary).ok());
    CHECK(files->exists(path));
    auto read = files->read(path);
    REQUIRE(read.ok());
    CHECK(*read == binary);
    REQUIRE(files->append(path, "tail").ok());
    CHECK(*files->read(path) == binary + "tail");
    REQUIRE(files->write(path, "new").ok());  // write replaces
    CHECK(*files->read(path) == "new");
    REQUIRE(files->append(tmp / "fresh.txt", "x").ok());  // append creates
    CHECK(*files->read(tmp / "fresh.txt") == "x");
  }
}

TEST_CASE("files: a missing file is 'cannot read PATH: REASON', could_not_evaluate, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / "missing.yml";
    auto read = files->read(path);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "cannot read " + path.string() + ": No such file or directory");
    CHECK(read.error().kind == ErrorKind::could_not_evaluate);
    CHECK(read.error().http_status == 0);
    // The user's own input (a rules file named on the command line) is a usage error.
    auto mine = as_bad_input(files->read(path));
    REQUIRE_FALSE(mine.ok());
    CHECK(mine.error().kind == ErrorKind::bad_input);
    CHECK(mine.error().message == read.error().message);
  }
}

TEST_CASE("files: reads stop at the limit, with one wording, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / "big.xml";
    REQUIRE(files->write(path, "0123456789").ok());
    CHECK(*files->read(path, 10) == "0123456789");  // exactly at the limit is fine
    auto over = files->read(path, 9);
    REQUIRE_FALSE(over.ok());
    CHECK(over.error().message == "cannot read " + path.string() + ": larger than the limit of 9 bytes");
    CHECK(over.error().kind == ErrorKind::could_not_evaluate);
  }
  CHECK(Files::default_read_limit == std::size_t{256} << 20);
}

TEST_CASE("files: SystemFiles reads past one buffer and stops a large file at the limit") {
  testing::TempDir tmp;
  SystemFiles files;
  const std::string big(200'000, 'x');  // several 64 KiB reads
  REQUIRE(files.write(tmp / "big", big).ok());
  CHECK(files.read(tmp / "big")->size() == big.size());
  CHECK(files.read(tmp / "big", 70'000).error().message ==
        "cannot read " + (tmp / "big").string() + ": larger than the limit of 70000 bytes");
}

TEST_CASE("files: SystemFiles names a folder and an unwritable path in the one wording") {
  testing::TempDir tmp;
  SystemFiles files;
  auto folder = files.read(tmp.path());
  REQUIRE_FALSE(folder.ok());
  CHECK(folder.error().message == "cannot read " + tmp.path().string() + ": is a directory");
  const auto nowhere = tmp / "no-such-folder" / "out.txt";
  auto written = files.write(nowhere, "x");
  REQUIRE_FALSE(written.ok());
  CHECK(written.error().message == "cannot write " + nowhere.string() + ": No such file or directory");
  CHECK(written.error().kind == ErrorKind::could_not_evaluate);
  auto appended = files.append(nowhere, "x");
  REQUIRE_FALSE(appended.ok());
  CHECK(appended.error().message == "cannot write " + nowhere.string() + ": No such file or directory");
  CHECK_FALSE(files.exists(nowhere));
}

TEST_CASE("files: the wording helpers are the ones both implementations use") {
  CHECK(read_error("rules.yml", "Permission denied").message == "cannot read rules.yml: Permission denied");
  CHECK(write_error("out/report.json", "No space left on device").message ==
        "cannot write out/report.json: No space left on device");
  CHECK(read_error("a", "b").kind == ErrorKind::could_not_evaluate);
}

TEST_CASE("files: MemoryFiles starts from a list and shows what a command wrote") {
  MemoryFiles files{{"rules.yml", "rules: []\n"}};
  CHECK(*files.read("rules.yml") == "rules: []\n");
  REQUIRE(files.write("report.md", "# Report\n").ok());
  CHECK(files.files.at("report.md") == "# Report\n");
  CHECK(files.files.size() == 2);
}

TEST_CASE("files: read_stream takes a whole stream up to the limit, past one buffer, and names it") {
  const std::string big(200'000, 'x');
  std::istringstream whole(big);
  auto text = gatekit::read_stream(whole, "stdin");
  REQUIRE(text.ok());
  CHECK(*text == big);

  std::istringstream over(big);
  auto refused = gatekit::read_stream(over, "stdin", 100'000);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "cannot read stdin: larger than the limit of 100000 bytes");
  CHECK(refused.error().kind == gatekit::ErrorKind::could_not_evaluate);

  std::istringstream exact("12345");
  CHECK(*gatekit::read_stream(exact, "stdin", 5) == "12345");
}

TEST_CASE("files: read_pieces hands a file over in order, in pieces, with read's errors and limit, both implementations") {
  testing::TempDir tmp;
  std::string content;
  for (int i = 0; i < 200000; ++i) content += static_cast<char>('a' + i % 26);
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / "big.txt";
    REQUIRE(files->write(path, content).ok());
    std::string joined;
    std::size_t pieces = 0, largest = 0;
    REQUIRE(files->read_pieces(path, [&](std::string_view piece) -> Status {
                    joined += piece;
                    ++pieces;
                    largest = std::max(largest, piece.size());
                    return {};
                  }).ok());
    CHECK(joined == content);
    CHECK(pieces == 4);  // 64 KiB at most each
    CHECK(largest == 65536);
    // The handler's first Error stops the reading and is returned.
    pieces = 0;
    const auto stopped = files->read_pieces(path, [&](std::string_view) -> Status {
      ++pieces;
      return could_not_evaluate("enough");
    });
    CHECK(pieces == 1);
    CHECK(stopped.error().message == "enough");
    const auto too_big = files->read_pieces(path, [](std::string_view) -> Status { return {}; }, 100000);
    CHECK(too_big.error().message == "cannot read " + path.string() + ": larger than the limit of 100000 bytes");
    const auto missing = files->read_pieces(tmp / "none.txt", [](std::string_view) -> Status { return {}; });
    CHECK(missing.error().message == "cannot read " + (tmp / "none.txt").string() + ": No such file or directory");
  }
}
