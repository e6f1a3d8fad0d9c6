// Memory of `rerun`'s merge and of `stress`, measured by a counting allocator: this test
// program's operator new and delete count the bytes every allocation holds, so a test reads
// the most held at once during a call (heap::peak_during). Each figure is compared with an
// anchor measured in the same test (the run without --output, one copy), never with a time.
// Real files and real processes (cp, sh), in a temporary folder.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>

#include "catch.hpp"
#include "flaky-tracker.hpp"
#include "forwarding_files.hpp"
#include "gatekit/fake_context.hpp"
#include "temp_dir.hpp"

namespace heap {

std::atomic<std::int64_t> current{0};
std::atomic<std::int64_t> peak{0};

void note(std::int64_t delta) {
  const std::int64_t now = current.fetch_add(delta) + delta;
  std::int64_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
}

// The most bytes held at once while `work` ran, above what was held when it started (a
// measure inside another leaves the outer one's peak as it would have been).
template <class Work>
std::int64_t peak_during(Work&& work) {
  const std::int64_t start = current.load();
  const std::int64_t outer = peak.exchange(start);
  work();
  const std::int64_t inner = peak.load();
  peak.store(std::max(outer, inner));
  return inner - start;
}

constexpr std::size_t kHeader = alignof(std::max_align_t);  // the size, before the block

void* allocate(std::size_t size) noexcept {
  void* block = std::malloc(size + kHeader);
  if (block == nullptr) return nullptr;
  *static_cast<std::size_t*>(block) = size;
  note(static_cast<std::int64_t>(size));
  return static_cast<char*>(block) + kHeader;
}

void release(void* pointer) noexcept {
  if (pointer == nullptr) return;
  void* block = static_cast<char*>(pointer) - kHeader;
  note(-static_cast<std::int64_t>(*static_cast<std::size_t*>(block)));
  std::free(block);
}

}  // namespace heap

void* operator new(std::size_t size) {
  if (void* p = heap::allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = heap::allocate(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return heap::allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return heap::allocate(size); }
void operator delete(void* p) noexcept { heap::release(p); }
void operator delete[](void* p) noexcept { heap::release(p); }
void operator delete(void* p, std::size_t) noexcept { heap::release(p); }
void operator delete[](void* p, std::size_t) noexcept { heap::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { heap::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { heap::release(p); }

using namespace gatekit;
using namespace gatekit::flaky_tracker;

namespace {

constexpr std::int64_t kMiB = 1 << 20;

// A pytest report of `cases` tests (xunit1, a <system-out> on every tenth), `failing` of them
// failed, each with its trace.
std::string pytest_report(int cases, int failing) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites name=\"pytest tests\"><testsuite "
                    "name=\"pytest\" errors=\"0\" failures=\"" + std::to_string(failing) + "\" tests=\"" +
                    std::to_string(cases) + "\" time=\"12.5\"><properties><property name=\"ci\" value=\"1\"/>"
                    "</properties>\n";
  for (int i = 0; i < cases; ++i) {
    const std::string module = "tests/unit/test_module_" + std::to_string(i / 1000);
    std::string name = module;
    std::replace(name.begin(), name.end(), '/', '.');
    xml += "<testcase classname=\"" + name + "\" name=\"test_case_" + std::to_string(i % 1000) + "[p" +
           std::to_string(i % 7) + "]\" file=\"" + module + ".py\" line=\"" + std::to_string(i % 500) + "\" time=\"0.002\"";
    if (i < failing) xml += "><failure message=\"assert 0\">trace of " + std::to_string(i) + "</failure></testcase>\n";
    else if (i % 10 == 0) xml += "><system-out>captured line " + std::to_string(i) + "</system-out></testcase>\n";
    else xml += "/>\n";
  }
  return xml + "</testsuite></testsuites>\n";
}

void put(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::remove(path);
  REQUIRE(SystemFiles{}.create(path, content).ok());
}

// A Files that notes how the merged report was written: streamed (and the most the heap held
// above its start while it was), or whole in one string.
class WatchedFiles final : public testing::ForwardingFiles {
 public:
  WatchedFiles() : ForwardingFiles(disk_) {}
  std::int64_t streamed_peak = -1;  // -1: not streamed
  std::size_t written_whole = 0;    // the largest content created in one call

  Status create(const std::filesystem::path& p, std::string_view content) override {
    written_whole = std::max(written_whole, content.size());
    return inner().create(p, content);
  }
  Status create_streamed(const std::filesystem::path& p, const Producer& produce) override {
    Status result;
    streamed_peak = heap::peak_during([&] { result = inner().create_streamed(p, produce); });
    return result;
  }

 private:
  SystemFiles disk_;
};

}  // namespace

TEST_CASE("memory: rerun --output on a passing report holds what the run without --output holds") {
  testing::TempDir tmp;
  const std::string xml = pytest_report(100000, 0);  // some 13 MB
  put(tmp / "report.xml", xml);
  auto run = [&](const std::string& output) {
    RealFilesSeams seams;
    auto context = seams.context();
    RerunOptions options;
    options.report = (tmp / "report.xml").string();
    options.output = output;
    ExitCode code = ExitCode::could_not_evaluate;
    const std::int64_t peak = heap::peak_during([&] { code = run_rerun(options, context); });
    CHECK(code == ExitCode::pass);
    return peak;
  };
  const std::int64_t anchor = run("");
  const std::int64_t merged = run((tmp / "merged.xml").string());
  INFO("peak heap: " << anchor / 1024 << " KiB without --output, " << merged / 1024 << " KiB with it");
  CHECK(merged <= anchor + kMiB);
  CHECK(*SystemFiles{}.read(tmp / "merged.xml") == xml);  // a copy, byte for byte
}

TEST_CASE("memory: the merge of a failing report holds none of its cases while it writes") {
  testing::TempDir tmp;
  const std::string xml = pytest_report(100000, 2);
  put(tmp / "report.xml", xml);
  // The rerun: both failed tests pass.
  put(tmp / "rerun.xml",
      "<testsuites><testsuite name=\"pytest\"><testcase classname=\"tests.unit.test_module_0\" name=\"test_case_0[p0]\" "
      "file=\"tests/unit/test_module_0.py\"/><testcase classname=\"tests.unit.test_module_0\" name=\"test_case_1[p1]\" "
      "file=\"tests/unit/test_module_0.py\"/></testsuite></testsuites>");
  RealFilesSeams seams;
  WatchedFiles files;
  Context context{seams.env, seams.run, seams.clock, files,     seams.processes, seams.make_transport,
                  seams.workflow, seams.in,    seams.out, seams.gpus,      seams.err};
  RerunOptions options;
  options.report = (tmp / "report.xml").string();
  options.output = (tmp / "merged.xml").string();
  options.command = {"sh", "-c", "cp \"$0\" \"$1\"", (tmp / "rerun.xml").string(), "{junit}", "{tests}"};
  const std::int64_t whole_run = heap::peak_during([&] { CHECK(run_rerun(options, context) == ExitCode::pass); });
  CHECK(seams.workflow.outputs.at("flaky") == "2");
  INFO("peak heap: " << whole_run / 1024 << " KiB in all, " << files.streamed_peak / 1024 << " KiB while merging");
  // The decision read holds the cases (some tens of MB); the merge streams, holding none.
  CHECK(files.written_whole < 64 * 1024);
  REQUIRE(files.streamed_peak >= 0);
  CHECK(files.streamed_peak < kMiB / 2);
  CHECK(whole_run > 8 * files.streamed_peak);
  const auto merged = SystemFiles{}.read(tmp / "merged.xml");
  REQUIRE(merged.ok());
  CHECK(merged->find("<flakyFailure message=\"assert 0\"><stackTrace>trace of 1</stackTrace></flakyFailure>") !=
        std::string::npos);
  CHECK(merged->size() == xml.size() + 2 * (std::string("<flakyFailure><stackTrace></stackTrace></flakyFailure>").size() -
                                            std::string("<failure></failure>").size()));
}

TEST_CASE("memory: stress folds each copy as it ends: 12 copies, 3 at a time, hold what one copy holds") {
  testing::TempDir tmp;
  put(tmp / "copy.xml", pytest_report(20000, 0));
  auto run = [&](int times, int parallel) {
    RealFilesSeams seams;
    auto context = seams.context();
    StressOptions options;
    options.command = {"cp", (tmp / "copy.xml").string(), "{junit}"};
    options.times = times;
    options.parallel = parallel;
    options.output = (tmp / ("merged-" + std::to_string(times) + ".xml")).string();
    ExitCode code = ExitCode::could_not_evaluate;
    const std::int64_t peak = heap::peak_during([&] { code = run_stress(options, context); });
    CHECK(code == ExitCode::pass);
    CHECK(seams.workflow.outputs.at("flaky") == "0");
    return peak;
  };
  const std::int64_t one = run(1, 1);
  const std::int64_t twelve = run(12, 3);
  INFO("peak heap: " << one / kMiB << " MiB for one copy, " << twelve / kMiB << " MiB for twelve");
  CHECK(twelve < one + one / 2);
  CHECK(*SystemFiles{}.read(tmp / "merged-12.xml") == *SystemFiles{}.read(tmp / "merged-1.xml"));
}
