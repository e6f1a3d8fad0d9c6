// gatekit's JUnit reader alone (bench/junit/shapes.py): the core's junit::read_file on a
// report, with a handler that does what every consumer does with a case (its identity and
// outcome), and nothing else. Set beside junit-raw-expat on the same file, the difference is
// the reader's own work on top of expat. Built only with -DGATEKIT_BENCH=ON; never installed.
//
//   junit-read REPORT.xml   prints cases, failures and errors; exit 3 when the report is refused
#include <cstdio>
#include <string>

#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: junit-read REPORT.xml\n");
    return 2;
  }
  std::size_t id_bytes = 0;
  std::size_t failed = 0;
  std::string built;  // as the tools take an id: a view, built here only when the case holds no whole id
  const gatekit::SystemFiles files;
  const auto stats = gatekit::junit::read_file(files, argv[1], [&](const gatekit::junit::TestCase& c) {
    id_bytes += c.id(built).size();
    failed += c.outcome == gatekit::JunitOutcome::failure || c.outcome == gatekit::JunitOutcome::error;
  });
  if (!stats) {
    std::fprintf(stderr, "junit-read: %s\n", stats.error().message.c_str());
    return 3;
  }
  std::printf("%zu cases, %zu failed, %zu bytes of ids\n", stats->cases, failed, id_bytes);
  return 0;
}
