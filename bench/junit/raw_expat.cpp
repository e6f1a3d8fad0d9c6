// The JUnit benchmarks' floor (bench/junit/shapes.py, docs/benchmarks.md): expat alone on a
// report, with no handlers (`--handlers`: with empty start and end handlers, so that expat
// also builds each element's attribute list), read in the same 64 KiB pieces as gatekit's
// reader. No gatekit code: what a reader built on expat cannot beat. Built only with
// -DGATEKIT_BENCH=ON (the `bench` preset); never installed.
//
//   junit-raw-expat REPORT.xml [--handlers]   prints the bytes parsed; exit 3 on bad XML
#include <expat.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

namespace {

void on_start(void* count, const XML_Char*, const XML_Char**) { ++*static_cast<unsigned long*>(count); }
void on_end(void*, const XML_Char*) {}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 || (argc == 3 && std::strcmp(argv[2], "--handlers") != 0)) {
    std::fprintf(stderr, "usage: junit-raw-expat REPORT.xml [--handlers]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "junit-raw-expat: cannot read %s\n", argv[1]);
    return 2;
  }
  XML_Parser parser = XML_ParserCreate("UTF-8");
  unsigned long elements = 0;
  if (argc == 3) {
    XML_SetUserData(parser, &elements);
    XML_SetElementHandler(parser, on_start, on_end);
  }
  std::vector<char> chunk(64 * 1024);
  unsigned long long bytes = 0;
  int ok = 1;
  while (ok && in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = in.gcount();
    if (got <= 0) break;
    bytes += static_cast<unsigned long long>(got);
    ok = XML_Parse(parser, chunk.data(), static_cast<int>(got), 0) == XML_STATUS_OK;
  }
  if (ok) ok = XML_Parse(parser, nullptr, 0, 1) == XML_STATUS_OK;
  if (!ok) {
    std::fprintf(stderr, "junit-raw-expat: %s:%lu: %s\n", argv[1], XML_GetCurrentLineNumber(parser),
                 XML_ErrorString(XML_GetErrorCode(parser)));
    XML_ParserFree(parser);
    return 3;
  }
  XML_ParserFree(parser);
  std::printf("%llu bytes, %lu elements\n", bytes, elements);
  return 0;
}
