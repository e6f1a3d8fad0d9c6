// SystemSeams (gatekit/context.hpp): the frame's real seams are wired to the machine, and the
// GitHub transport takes its settings from the environment seam, not from getenv.
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/context.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/process.hpp"
#include "temp_dir.hpp"

using namespace gatekit;

TEST_CASE("system seams: files, processes and the environment are the machine's") {
  ::setenv("GATEKIT_SEAMS_PROBE", "probe-value", 1);
  SystemSeams seams;
  auto& context = seams.context();
  CHECK(context.env.get("GATEKIT_SEAMS_PROBE") == "probe-value");

  testing::TempDir tmp;
  REQUIRE(context.files.create(tmp / "out.txt", "written").ok());
  std::ifstream in(tmp / "out.txt");
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "written");

  auto run = context.processes.run(ProcessSpec{.argv = {"sh", "-c", "printf %s \"$GATEKIT_SEAMS_PROBE\""}});
  REQUIRE(run.ok());
  CHECK(run->out == "probe-value");
  ::unsetenv("GATEKIT_SEAMS_PROBE");
  CHECK(&context.err == &std::cerr);
  char host[256] = {};
  REQUIRE(::gethostname(host, sizeof host - 1) == 0);
  CHECK(context.env.host_name() == host);
}

TEST_CASE("system seams: the GitHub transport loads the libcurl the environment names") {
  ::setenv("GATEKIT_LIBCURL", "/nonexistent/libcurl-from-seams.so", 1);
  SystemSeams seams;
  REQUIRE(seams.context().make_transport);
  auto transport = seams.context().make_transport();
  ::unsetenv("GATEKIT_LIBCURL");
  github::HttpRequest request;
  request.url = "http://127.0.0.1:9/";
  auto answer = transport->send(request);
  REQUIRE(std::holds_alternative<github::TransportError>(answer));
  CHECK(std::get<github::TransportError>(answer).message.rfind("/nonexistent/libcurl-from-seams.so could not be loaded: ",
                                                              0) == 0);
}
