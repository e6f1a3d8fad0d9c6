// The files seam (gatekit/files.hpp): SystemFiles and the MemoryFiles fake keep one contract
// (round trips, appends, the read limit) and one wording for failures, asserted verbatim.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

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

TEST_CASE("files: created content reads back as written, appends add to it, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / "out.txt";
    CHECK_FALSE(files->exists(path));
    const std::string binary("a\0b\r\n\xff", 6);
    REQUIRE(files->create(path, binary).ok());
    CHECK(files->exists(path));
    auto read = files->read(path);
    REQUIRE(read.ok());
    CHECK(*read == binary);
    REQUIRE(files->append(path, "tail").ok());
    CHECK(*files->read(path) == binary + "tail");
    REQUIRE(files->replace(path, "new").ok());  // replace, never create, goes over a file
    CHECK(*files->read(path) == "new");
    REQUIRE(files->append(tmp / "fresh.txt", "x").ok());  // append creates
    CHECK(*files->read(tmp / "fresh.txt") == "x");
  }
}

// The seam has no plain overwrite: a file that holds earlier content is only ever replaced
// whole (replace), so a full disk or a kill cannot leave it cut short.
TEST_CASE("files: create never goes over what is there, a file or a folder, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / (subject.name + "-state.json");
    REQUIRE(files->create(path, "the good state").ok());
    const auto again = files->create(path, "x");
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().message == "cannot write " + path.string() + ": File exists");
    CHECK(again.error().kind == ErrorKind::could_not_evaluate);
    CHECK(*files->read(path) == "the good state");
    const auto folder = tmp / (subject.name + "-folder");
    REQUIRE(files->make_directories(folder).ok());
    CHECK(files->create(folder, "x").error().message == "cannot write " + folder.string() + ": File exists");
    CHECK(files->stat(folder)->is_directory());
  }
}

TEST_CASE("files: replace removes the temporary file a killed run left, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / (subject.name + "-journal.json");
    REQUIRE(files->create(path, "old").ok());
    REQUIRE(files->create(path.string() + ".tmp", "half of a killed run's jou").ok());
    REQUIRE(files->replace(path, "new").ok());
    CHECK(*files->read(path) == "new");
    CHECK_FALSE(files->exists(path.string() + ".tmp"));
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
    REQUIRE(files->create(path, "0123456789").ok());
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
  REQUIRE(files.create(tmp / "big", big).ok());
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
  auto written = files.create(nowhere, "x");
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
  REQUIRE(files.create("report.md", "# Report\n").ok());
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
    REQUIRE(files->create(path, content).ok());
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

TEST_CASE("files: for_each_line gives every line, across buffers, and stops at the line limit, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / "lines.jsonl";
    // A line longer than SystemFiles' 64 KiB buffer, an empty line, no newline at the end.
    const std::string long_line(100'000, 'x');
    REQUIRE(files->create(path, "a\n" + long_line + "\n\nlast").ok());
    std::vector<std::string> seen;
    auto collect = [&](std::string_view line) -> Status {
      seen.emplace_back(line);
      return {};
    };
    REQUIRE(files->for_each_line(path, collect).ok());
    CHECK(seen == std::vector<std::string>{"a", long_line, "", "last"});
    seen.clear();
    auto limited = files->for_each_line(path, collect, 1000);
    REQUIRE_FALSE(limited.ok());
    CHECK(limited.error().message == "cannot read " + path.string() + ": line 2 is longer than 1000 bytes");
    CHECK(seen == std::vector<std::string>{"a"});
    // The callback's error stops the reading and comes back as it is.
    seen.clear();
    auto stopped = files->for_each_line(path, [&](std::string_view line) -> Status {
      seen.emplace_back(line);
      return bad_input("stop at " + std::string(line.substr(0, 1)));
    });
    REQUIRE_FALSE(stopped.ok());
    CHECK(stopped.error().message == "stop at a");
    CHECK(stopped.error().kind == ErrorKind::bad_input);
    CHECK(seen.size() == 1);
    auto missing = files->for_each_line(tmp / "missing.jsonl", collect);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "cannot read " + (tmp / "missing.jsonl").string() + ": No such file or directory");
  }
}

// ---- folders, atomic replace, rename, removal, temporary folders, stat, links ---------------

TEST_CASE("files: make_directories makes the parents, stat tells files from folders, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto deep = tmp / "a" / "b" / "c";
    CHECK_FALSE(files->stat(deep)->exists());
    REQUIRE(files->make_directories(deep).ok());
    REQUIRE(files->make_directories(deep).ok());  // an existing folder is fine
    CHECK(files->stat(deep)->is_directory());
    CHECK(files->stat(tmp / "a" / "b")->is_directory());
    CHECK(files->exists(deep));
    REQUIRE(files->create(deep / "f.txt", "12345").ok());
    const auto file = files->stat(deep / "f.txt");
    REQUIRE(file.ok());
    CHECK(file->is_file());
    CHECK(file->size == 5);
    CHECK_FALSE(file->executable);
    const auto missing = files->stat(deep / "none");
    REQUIRE(missing.ok());  // nothing there is an answer, not an error
    CHECK(missing->type == FileStatus::Type::none);
    const auto under_file = deep / "f.txt" / "sub";
    const auto refused = files->make_directories(under_file);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "cannot create folder " + under_file.string() + ": Not a directory");
    CHECK(refused.error().kind == ErrorKind::could_not_evaluate);
    const auto folder_read = files->read(deep);
    REQUIRE_FALSE(folder_read.ok());
    CHECK(folder_read.error().message == "cannot read " + deep.string() + ": is a directory");
  }
}

TEST_CASE("files: replace swaps the whole content in and leaves no temporary file, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / (subject.name + "-report.json");
    REQUIRE(files->replace(path, "old").ok());
    REQUIRE(files->replace(path, "new").ok());
    CHECK(*files->read(path) == "new");
    CHECK_FALSE(files->exists(path.string() + ".tmp"));
    // Over a folder: the rename fails, the folder stays, and the temporary file is gone.
    const auto folder = tmp / (subject.name + "-folder");
    REQUIRE(files->make_directories(folder).ok());
    const auto refused = files->replace(folder, "x");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message ==
          "cannot rename " + folder.string() + ".tmp to " + folder.string() + ": Is a directory");
    CHECK(files->stat(folder)->is_directory());
    CHECK_FALSE(files->exists(folder.string() + ".tmp"));
  }
}

// A file larger than memory is written as it is made (a merged report streamed from its run's):
// create_streamed and replace_streamed keep create's and replace's guarantees.
TEST_CASE("files: create_streamed writes the pieces in order, a new file only, nothing left on failure, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / (subject.name + "-streamed.xml");
    std::string expected;
    REQUIRE(files->create_streamed(path, [&](const Files::Sink& write) -> Status {
      for (int i = 0; i < 3000; ++i) {  // small pieces and large ones, past several buffers
        const std::string piece = i % 1000 == 0 ? std::string(100000, static_cast<char>('a' + i / 1000)) : std::to_string(i) + ",";
        expected += piece;
        if (auto written = write(piece); !written) return written;
      }
      return {};
    }).ok());
    CHECK(*files->read(path) == expected);
    // Never over what is there.
    const auto exists = files->create_streamed(path, [](const Files::Sink& write) { return write("x"); });
    REQUIRE_FALSE(exists.ok());
    CHECK(exists.error().message == "cannot write " + path.string() + ": File exists");
    CHECK(*files->read(path) == expected);
    // The producer's Error is returned, and what it wrote is gone.
    const auto broken = tmp / (subject.name + "-broken.xml");
    const auto failed = files->create_streamed(broken, [](const Files::Sink& write) -> Status {
      if (auto written = write(std::string(200000, 'x')); !written) return written;
      return could_not_evaluate("r.xml:3:1: the report ends early");
    });
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().message == "r.xml:3:1: the report ends early");
    CHECK_FALSE(files->exists(broken));
    // replace_streamed: the whole new content, then no temporary file.
    REQUIRE(files->replace_streamed(path, [](const Files::Sink& write) -> Status {
      if (auto written = write("new "); !written) return written;
      return write("content");
    }).ok());
    CHECK(*files->read(path) == "new content");
    CHECK_FALSE(files->exists(path.string() + ".tmp"));
    const auto kept = files->replace_streamed(path, [](const Files::Sink&) -> Status { return could_not_evaluate("no"); });
    REQUIRE_FALSE(kept.ok());
    CHECK(*files->read(path) == "new content");
    CHECK_FALSE(files->exists(path.string() + ".tmp"));
  }
}

TEST_CASE("files: replace_streamed on a disk that fills up mid-write keeps the earlier file whole") {
  MemoryFiles files{{"/full/report.xml", "the run's report"}};
  files.disk = "/full";
  files.space_left = 10;
  int pieces_after_full = 0;
  const auto full = files.replace_streamed("/full/report.xml", [&](const Files::Sink& write) -> Status {
    for (int i = 0; i < 4; ++i)
      if (auto written = write("12345"); !written) {
        // The sink keeps saying so: a producer that goes on writes nothing more.
        pieces_after_full += !write("6").ok();
        return written;
      }
    return {};
  });
  REQUIRE_FALSE(full.ok());
  CHECK(full.error().message == "cannot write /full/report.xml.tmp: No space left on device");
  CHECK(pieces_after_full == 1);
  CHECK(*files.read("/full/report.xml") == "the run's report");
  CHECK_FALSE(files.exists("/full/report.xml.tmp"));
  CHECK(*files.space_left == 10);  // what the failed write took is given back
}

TEST_CASE("files: rename moves files and folders and names both paths when it cannot, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto base = tmp / subject.name;
    REQUIRE(files->make_directories(base / "from").ok());
    REQUIRE(files->create(base / "from" / "a.txt", "a").ok());
    REQUIRE(files->rename(base / "from" / "a.txt", base / "from" / "b.txt").ok());
    CHECK_FALSE(files->exists(base / "from" / "a.txt"));
    CHECK(*files->read(base / "from" / "b.txt") == "a");
    REQUIRE(files->rename(base / "from", base / "to").ok());
    CHECK_FALSE(files->exists(base / "from"));
    CHECK(*files->read(base / "to" / "b.txt") == "a");
    const auto missing = files->rename(base / "none", base / "x");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "cannot rename " + (base / "none").string() + " to " + (base / "x").string() +
                                         ": No such file or directory");
    CHECK(missing.error().kind == ErrorKind::could_not_evaluate);
  }
}

TEST_CASE("files: remove takes a file or an empty folder, remove_tree everything, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto base = tmp / subject.name;
    REQUIRE(files->make_directories(base / "sub" / "deeper").ok());
    REQUIRE(files->create(base / "sub" / "f.txt", "x").ok());
    REQUIRE(files->remove(base / "sub" / "f.txt").ok());
    CHECK_FALSE(files->exists(base / "sub" / "f.txt"));
    REQUIRE(files->remove(base / "sub" / "f.txt").ok());  // nothing there is fine
    const auto full = files->remove(base / "sub");
    REQUIRE_FALSE(full.ok());
    CHECK(full.error().message == "cannot remove " + (base / "sub").string() + ": Directory not empty");
    REQUIRE(files->create(base / "sub" / "deeper" / "g.txt", "y").ok());
    REQUIRE(files->remove_tree(base).ok());
    CHECK_FALSE(files->exists(base));
    CHECK_FALSE(files->exists(base / "sub" / "deeper" / "g.txt"));
    REQUIRE(files->remove_tree(base).ok());  // nothing there is fine
  }
}

TEST_CASE("files: list_folder names what a folder holds, sorted, and says why it cannot, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto base = tmp / subject.name;
    REQUIRE(files->make_directories(base / "workflows" / "nested").ok());
    REQUIRE(files->make_directories(base / "workflows" / "empty").ok());
    REQUIRE(files->create(base / "workflows" / "gate.yml", "a").ok());
    REQUIRE(files->create(base / "workflows" / "ci.yml", "b").ok());
    REQUIRE(files->create(base / "workflows" / "nested" / "deep.yml", "c").ok());
    const auto names = files->list_folder(base / "workflows");
    REQUIRE(names.ok());
    CHECK(*names == std::vector<std::string>{"ci.yml", "empty", "gate.yml", "nested"});
    const auto empty = files->list_folder(base / "workflows" / "empty");
    REQUIRE(empty.ok());
    CHECK(empty->empty());
    const auto missing = files->list_folder(base / "none");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().kind == ErrorKind::could_not_evaluate);
    CHECK(missing.error().message == "cannot list folder " + (base / "none").string() + ": No such file or directory");
    const auto file = files->list_folder(base / "workflows" / "ci.yml");
    REQUIRE_FALSE(file.ok());
    CHECK(file.error().message == "cannot list folder " + (base / "workflows" / "ci.yml").string() +
                                      ": Not a directory");
  }
}

TEST_CASE("files: a temporary folder is new, empty, and removed with its content when the handle goes, both implementations") {
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    std::filesystem::path kept;
    {
      auto first = files->make_temp_folder("gatekit-files-test-");
      REQUIRE(first.ok());
      auto second = files->make_temp_folder("gatekit-files-test-");
      REQUIRE(second.ok());
      CHECK(first->path() != second->path());
      CHECK(first->path().filename().string().rfind("gatekit-files-test-", 0) == 0);
      CHECK(files->stat(first->path())->is_directory());
      REQUIRE(files->make_directories(*first / "nested").ok());
      REQUIRE(files->create(*first / "nested" / "f.txt", "x").ok());
      kept = first->path();
      TempFolder moved = std::move(*first);  // the new handle owns it; the old one removes nothing
      CHECK(moved.path() == kept);
      REQUIRE(second->remove().ok());  // now, not at the end of the scope
      CHECK_FALSE(files->exists(second->path()));
      CHECK(files->exists(kept / "nested" / "f.txt"));
    }
    CHECK_FALSE(files->exists(kept));
  }
}

TEST_CASE("files: read_link gives a link's target as written, both implementations") {
  testing::TempDir tmp;
  SystemFiles system;
  std::filesystem::create_symlink("target/file.txt", tmp / "link");
  MemoryFiles memory;
  memory.links[(tmp / "link").string()] = "target/file.txt";
  memory.files[(tmp / "plain").string()] = "";
  REQUIRE(system.create(tmp / "plain", "").ok());
  for (Files* files : {static_cast<Files*>(&system), static_cast<Files*>(&memory)}) {
    const auto target = files->read_link(tmp / "link");
    REQUIRE(target.ok());
    CHECK(*target == "target/file.txt");
    const auto not_link = files->read_link(tmp / "plain");
    REQUIRE_FALSE(not_link.ok());
    CHECK(not_link.error().message == "cannot read link " + (tmp / "plain").string() + ": Invalid argument");
  }
}

TEST_CASE("files: absolute joins the current folder, canonical resolves and normalizes, both implementations") {
  SystemFiles system;
  MemoryFiles memory;
  memory.cwd = "/work/repo";
  CHECK(*memory.current_folder() == "/work/repo");
  CHECK(*memory.absolute("a/b.txt") == "/work/repo/a/b.txt");
  CHECK(*memory.absolute("/etc/x") == "/etc/x");
  CHECK(*memory.canonical("a/../b/./c") == "/work/repo/b/c");
  CHECK(*system.absolute("a/b.txt") == std::filesystem::current_path() / "a/b.txt");
  CHECK(*system.absolute("/etc/x") == "/etc/x");
  testing::TempDir tmp;
  std::filesystem::create_directories(tmp / "real");
  std::filesystem::create_directory_symlink(tmp / "real", tmp / "alias");
  CHECK(*system.canonical(tmp / "alias" / ".." / "alias" / "missing.txt") ==
        std::filesystem::canonical(tmp.path()) / "real" / "missing.txt");
}

TEST_CASE("files: MemoryFiles' write_failure fails every change in the one wording, as a read-only disk") {
  MemoryFiles files{{"kept.txt", "x"}};
  files.write_failure = "Read-only file system";
  CHECK(files.create("out.json", "x").error().message == "cannot write out.json: Read-only file system");
  CHECK(files.append("out.json", "x").error().message == "cannot write out.json: Read-only file system");
  CHECK(files.replace("out.json", "x").error().message == "cannot write out.json.tmp: Read-only file system");
  CHECK(files.make_directories("d").error().message == "cannot create folder d: Read-only file system");
  CHECK(files.rename("kept.txt", "b").error().message == "cannot rename kept.txt to b: Read-only file system");
  CHECK(files.remove("kept.txt").error().message == "cannot remove kept.txt: Read-only file system");
  CHECK(files.make_temp_folder("t-").error().message == "cannot create folder /tmp/t-: Read-only file system");
  CHECK(*files.read("kept.txt") == "x");  // reads still work
  CHECK(files.files.count("out.json") == 0);
}

TEST_CASE("files: MemoryFiles' space_left fills up mid-write, as a full disk, and only under its disk") {
  MemoryFiles files{{"/full/journal.json", "good"}, {"/elsewhere/report.xml", "kept"}};
  files.disk = "/full";
  files.space_left = 10;
  REQUIRE(files.create("/full/a", "1234").ok());
  CHECK(*files.space_left == 6);
  // A create that does not fit: nothing of it stays, its bytes come back.
  CHECK(files.create("/full/b", "12345678").error().message == "cannot write /full/b: No space left on device");
  CHECK_FALSE(files.exists("/full/b"));
  CHECK(*files.space_left == 6);
  // An append keeps the part the disk took.
  CHECK(files.append("/full/a", "abcdefghij").error().message == "cannot write /full/a: No space left on device");
  CHECK(*files.read("/full/a") == "1234abcdef");
  CHECK(*files.space_left == 0);
  // replace: the earlier file stays whole, and no temporary file is left.
  CHECK(files.replace("/full/journal.json", "better").error().message ==
        "cannot write /full/journal.json.tmp: No space left on device");
  CHECK(*files.read("/full/journal.json") == "good");
  CHECK_FALSE(files.exists("/full/journal.json.tmp"));
  // Outside the disk nothing is counted; a removal gives its bytes back.
  REQUIRE(files.replace("/elsewhere/report.xml", "a long report elsewhere").ok());
  REQUIRE(files.remove("/full/a").ok());
  CHECK(*files.space_left == 10);
  REQUIRE(files.replace("/full/journal.json", "better").ok());
  CHECK(*files.read("/full/journal.json") == "better");
  CHECK(*files.space_left == 8);  // "good" gave its 4 bytes back when "better" went over it
}

TEST_CASE("files: MemoryFiles' disk limits write_failure to the paths under it") {
  MemoryFiles files;
  files.disk = "/ro";
  files.write_failure = "Read-only file system";
  CHECK(files.create("/ro/x", "x").error().message == "cannot write /ro/x: Read-only file system");
  CHECK(files.make_directories("/ro/d").error().message == "cannot create folder /ro/d: Read-only file system");
  REQUIRE(files.create("/rw/x", "x").ok());
  REQUIRE(files.replace("/rw/x", "y").ok());
}

TEST_CASE("files: a lock is held until its handle goes, and taken once, both implementations") {
  testing::TempDir tmp;
  for (const auto& subject : subjects()) {
    INFO(subject.name);
    auto files = subject.make();
    const auto path = tmp / (subject.name + ".lock");
    auto first = files->try_lock(path);
    REQUIRE(first.ok());
    REQUIRE(first->has_value());
    CHECK(files->stat(path)->is_file());  // made when missing
    auto second = files->try_lock(path);
    REQUIRE(second.ok());
    CHECK_FALSE(second->has_value());
    first->reset();
    auto third = files->try_lock(path);
    REQUIRE(third.ok());
    CHECK(third->has_value());
    const auto folder = tmp / (subject.name + "-folder");
    REQUIRE(files->make_directories(folder).ok());
    CHECK(files->try_lock(folder).error().message == "cannot lock " + folder.string() + ": Is a directory");
  }
}

TEST_CASE("files: SystemFiles' lock of a live process is held, of a killed one free") {
  testing::TempDir tmp;
  const auto path = tmp / "run.lock";
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // another run: takes the lock, says so, and waits to be killed
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0666);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) ::_exit(1);
    (void)!::write(ready[1], "x", 1);
    while (true) ::pause();
  }
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  SystemFiles files;
  auto live = files.try_lock(path);
  REQUIRE(live.ok());
  CHECK_FALSE(live->has_value());
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  auto after = files.try_lock(path);
  REQUIRE(after.ok());
  CHECK(after->has_value());
}

TEST_CASE("files: the new wording helpers") {
  CHECK(folder_error("out", "Permission denied").message == "cannot create folder out: Permission denied");
  CHECK(rename_error("a", "b", "Is a directory").message == "cannot rename a to b: Is a directory");
  CHECK(remove_error("a", "Directory not empty").message == "cannot remove a: Directory not empty");
  CHECK(lock_error("a", "Is a directory").message == "cannot lock a: Is a directory");
}

namespace {

// The current folder set to `folder` while the handle lives (relative paths reach the disk
// through it), then set back.
class InFolder {
 public:
  explicit InFolder(const std::filesystem::path& folder) : before_(std::filesystem::current_path()) {
    std::filesystem::current_path(folder);
  }
  ~InFolder() { std::filesystem::current_path(before_); }
  InFolder(const InFolder&) = delete;
  InFolder& operator=(const InFolder&) = delete;

 private:
  std::filesystem::path before_;
};

std::string outcome(const Status& status) { return status ? "ok" : status.error().message; }

std::string outcome(const Result<std::string>& read) { return read ? "'" + *read + "'" : read.error().message; }

std::string listing(const Files& files, const std::filesystem::path& folder) {
  auto names = files.list_folder(folder);
  if (!names) return names.error().message;
  std::string out;
  for (const auto& name : *names) out += name + " ";
  return out;
}

std::string status_of(const Files& files, const std::filesystem::path& path) {
  auto status = files.stat(path);
  if (!status) return status.error().message;
  if (status->is_file()) return "file of " + std::to_string(status->size) + " bytes";
  return status->is_directory() ? "folder" : "nothing";
}

// One operation through a spelling of a path: what it returned and what the disk holds after.
struct Operation {
  const char* name;
  std::function<std::string(Files&, const std::string& file, const std::string& folder)> run;
};

const std::vector<Operation>& operations() {
  static const std::vector<Operation> all{
      {"read", [](Files& f, const std::string& file, const std::string&) { return outcome(f.read(file)); }},
      {"stat", [](Files& f, const std::string& file, const std::string& folder) {
         return status_of(f, file) + ", " + status_of(f, folder);
       }},
      {"create over it", [](Files& f, const std::string& file, const std::string&) { return outcome(f.create(file, "x")); }},
      {"append", [](Files& f, const std::string& file, const std::string&) {
         return outcome(f.append(file, "+")) + ", " + outcome(f.read("a/b"));
       }},
      {"replace", [](Files& f, const std::string& file, const std::string&) {
         return outcome(f.replace(file, "two")) + ", " + outcome(f.read("a/b")) + ", " + listing(f, "a");
       }},
      {"rename it away", [](Files& f, const std::string& file, const std::string&) {
         return outcome(f.rename(file, "a/c")) + ", " + status_of(f, "a/b") + ", " + outcome(f.read("a/c"));
       }},
      {"rename onto it", [](Files& f, const std::string& file, const std::string&) {
         return outcome(f.create("a/c", "three")) + ", " + outcome(f.rename("a/c", file)) + ", " +
                outcome(f.read("a/b")) + ", " + listing(f, "a");
       }},
      {"rename it onto itself", [](Files& f, const std::string& file, const std::string&) {
         return outcome(f.rename("a/b", file)) + ", " + outcome(f.read("a/b"));
       }},
      {"remove", [](Files& f, const std::string& file, const std::string&) {
         return outcome(f.remove(file)) + ", " + status_of(f, "a/b") + ", " + listing(f, "a");
       }},
      {"lock", [](Files& f, const std::string& file, const std::string&) {
         auto held = f.try_lock("a/b");
         auto again = f.try_lock(file);
         if (!held || !again) return std::string("lock failed");
         return std::string(held->has_value() ? "held" : "free") + ", " + (again->has_value() ? "taken twice" : "busy");
       }},
      {"a new file", [](Files& f, const std::string& file, const std::string&) {
         std::string spelled = file;
         spelled.back() = 'n';  // the same spelling of a/n
         return outcome(f.create(spelled, "new")) + ", " + outcome(f.read("a/n")) + ", " + listing(f, "a");
       }},
      {"list the folder", [](Files& f, const std::string&, const std::string& folder) { return listing(f, folder); }},
      {"make folders in it", [](Files& f, const std::string&, const std::string& folder) {
         return outcome(f.make_directories(folder + "/m/n")) + ", " + status_of(f, "a/m/n") + ", " + listing(f, "a");
       }},
      {"remove the folder", [](Files& f, const std::string&, const std::string& folder) {
         return outcome(f.remove(folder)) + ", " + outcome(f.remove("a/b")) + ", " + outcome(f.remove(folder)) +
                ", " + status_of(f, "a");
       }},
      {"remove the tree", [](Files& f, const std::string&, const std::string& folder) {
         return outcome(f.remove_tree(folder)) + ", " + status_of(f, "a/b") + ", " + status_of(f, "a");
       }},
      {"rename the folder", [](Files& f, const std::string&, const std::string& folder) {
         return outcome(f.rename(folder, "z")) + ", " + outcome(f.read("z/b")) + ", " + status_of(f, "a");
       }},
  };
  return all;
}

}  // namespace

// MemoryFiles names a file as the disk does: by its lexically normal path relative to the
// current folder. Every operation, through every spelling of the file a/b (and of its folder
// a), against SystemFiles in a real folder and MemoryFiles whose cwd is that folder.
TEST_CASE("files: one file however its path is spelled (a/b, ./a/b, a//b, a/./b, absolute), both implementations") {
  for (const auto& operation : operations()) {
    testing::TempDir tmp;
    const std::string abs = tmp.path().string();
    const std::vector<std::pair<std::string, std::string>> spellings{
        {"a/b", "a"},   {"./a/b", "./a"}, {"a//b", "a//"}, {"a/./b", "./a/"},
        {abs + "/a/b", abs + "/a"}, {abs + "//a/./b", abs + "/./a/"}, {"a/../a/b", "a/../a"}};
    for (const auto& [file, folder] : spellings) {
      INFO(operation.name << " through " << file << " and " << folder);
      std::vector<std::string> seen;
      for (const auto& subject : subjects()) {
        const InFolder in(tmp.path());
        auto files = subject.make();
        if (auto* memory = dynamic_cast<MemoryFiles*>(files.get())) memory->cwd = tmp.path();
        REQUIRE(files->remove_tree("a").ok());
        REQUIRE(files->remove_tree("z").ok());
        REQUIRE(files->make_directories("a").ok());
        REQUIRE(files->create("a/b", "one").ok());
        seen.push_back(operation.run(*files, file, folder));
        REQUIRE(files->remove_tree("a").ok());
        REQUIRE(files->remove_tree("z").ok());
      }
      INFO("SystemFiles: " << seen[0]);
      CHECK(seen[1] == seen[0]);
    }
  }
}

TEST_CASE("files: MemoryFiles keys a new entry by its path made lexically normal, and finds a test's entry by any spelling") {
  MemoryFiles files;
  files.cwd = "/work/repo";
  REQUIRE(files.make_directories("./out//reports/").ok());
  REQUIRE(files.create("./out//reports/./r.json", "{}").ok());
  CHECK(files.files == std::map<std::string, std::string>{{"out/reports/r.json", "{}"}});
  CHECK(files.folders == std::set<std::string>{"out/reports"});
  files.files["/work/repo/rules.yml"] = "rules";
  files.executables.insert("bin//tool");
  files.files["bin/tool"] = "#!/bin/sh";
  files.links["./latest"] = "out/reports";
  CHECK(*files.read("rules.yml") == "rules");
  CHECK(*files.read("../repo/rules.yml") == "rules");
  CHECK(files.stat("/work/repo/bin/tool")->executable);
  CHECK(*files.read_link("/work/repo/latest") == "out/reports");
  REQUIRE(files.replace("./rules.yml", "new").ok());
  CHECK(files.files.at("/work/repo/rules.yml") == "new");  // the same file, under the name it has
  CHECK(files.files.count("rules.yml") == 0);
  CHECK(*files.list_folder("/work/repo") == std::vector<std::string>{"bin", "latest", "out", "rules.yml"});
}
