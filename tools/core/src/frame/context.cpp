#include "gatekit/context.hpp"

#include <iostream>

#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/process.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit {

struct SystemSeams::Impl {
  SystemEnvironment env;
  const RunInfo run = run_info_from(env);
  SystemClock clock;
  SystemFiles files;
  SystemProcessRunner processes;
  SystemGpuProbe gpus{processes};
  std::unique_ptr<StreamWorkflow> workflow = make_workflow(env, std::cout, files);
  Context context{env,       run,      clock,     files, processes, [this] { return github::make_curl_transport(env); },
                  *workflow, std::cin, std::cout, gpus,  std::cerr};
};

SystemSeams::SystemSeams() : impl_(std::make_unique<Impl>()) {}
SystemSeams::~SystemSeams() = default;
Context& SystemSeams::context() { return impl_->context; }

}  // namespace gatekit
