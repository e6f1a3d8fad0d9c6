#pragma once
// The seams of a tool: everything with a side effect, built once by the frame (cli.hpp) and
// passed down to every subcommand as `run(const Options&, Context&) -> ExitCode`. Decisions
// stay pure functions of data; code that talks to the world takes the Context (or the one
// seam it needs), so a whole command runs in tests over fakes (gatekit/fake_context.hpp).
//
// Git is not a separate seam: gatekit::Git runs git through `processes`, so a test drives
// it with a real repository or with a FakeProcessRunner.
//
// This header is light on purpose (declarations only): it reaches every tool file.
#include <functional>
#include <iosfwd>
#include <memory>

namespace gatekit {

class Environment;
class Clock;
class Files;
class GpuProbe;
class ProcessRunner;
class Workflow;
struct RunInfo;
namespace github {
class HttpTransport;
}

// A new connection to the GitHub API (CurlTransport in production, a fake in tests).
using TransportFactory = std::function<std::unique_ptr<github::HttpTransport>()>;

struct Context {
  const Environment& env;
  const RunInfo& run;  // the CI run's identity (gatekit/run_info.hpp), resolved once from env
  Clock& clock;
  Files& files;
  ProcessRunner& processes;
  TransportFactory make_transport;
  Workflow& workflow;  // step outputs, job summary, annotations, log
  std::istream& in;
  std::ostream& out;  // the log (stdout); the workflow writes through it too
  GpuProbe& gpus;     // the GPUs this process sees (gatekit/gpu.hpp)
  std::ostream& err;  // stderr: what must not mix with stdout (a tool whose stdout is data)
};

// The real seams: environment, the run's identity read from it, system clock, files, processes, libcurl, the workflow
// protocol when GITHUB_ACTIONS=true (plain text otherwise), GPU discovery, stdin, stdout and
// stderr. Owned by the frame.
class SystemSeams {
 public:
  SystemSeams();
  ~SystemSeams();
  SystemSeams(const SystemSeams&) = delete;
  SystemSeams& operator=(const SystemSeams&) = delete;
  Context& context();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gatekit
