// GpuFilter::why_taken (scope/gpu_filter.hpp): what makes one changed path need a GPU result,
// table-driven; the gate's own scope takes a path by the scope's rules (scope.hpp: a path under
// a scope folder, or one scope.extras matches), whatever the path gate's filter says.
#include "catch.hpp"
#include "config.hpp"
#include "scope/gpu_filter.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

TEST_CASE("gpu filter: why a changed path needs a GPU result, or \"\" when it needs none") {
  auto config = parse_config("scope:\n  folders: [tests/gpu/, ./kernels]\n  extras: ['tests/**/test_cuda_*.py']\n",
                             ".github/gatekit/gpu-gate.yml");
  REQUIRE(config.ok());
  const std::string rules = "filters:\n  gpu:\n    paths: ['src/**']\n";
  auto filter = gpu_filter_of(*config, rules, "origin/HEAD");
  REQUIRE(filter.ok());
  REQUIRE(filter->has_value());
  const struct {
    std::string path;
    std::string why;
  } cases[] = {
      {"src/model.py", "the 'gpu' filter takes it ('src/**')"},
      {"tests/gpu/test_fused.py", "the gate's scope holds it ('tests/gpu/**')"},
      {"kernels/add.cu", "the gate's scope holds it ('./kernels/**')"},
      {"tests/unit/test_cuda_add.py", "the gate's scope holds it ('tests/**/test_cuda_*.py')"},
      {".github/gatekit/filters.yml",
       "it is the path gate's rules file: a change to it makes every filter relevant (self-protect)"},
      {"tests/gpu_helpers.py", ""},
      {"analysis/plot.py", ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.path);
    CHECK((*filter)->why_taken(c.path, "modified") == c.why);
  }
}

TEST_CASE("gpu filter: a scope.extras pattern that does not compile is bad input naming the configuration") {
  auto config = parse_config("scope:\n  extras: ['tests/[']\n", ".github/gatekit/gpu-gate.yml");
  REQUIRE(config.ok());
  auto filter = gpu_filter_of(*config, std::string("filters:\n  gpu: ['src/**']\n"), "origin/HEAD");
  REQUIRE_FALSE(filter.ok());
  CHECK(filter.error().kind == ErrorKind::bad_input);
  CHECK(filter.error().message.rfind(".github/gatekit/gpu-gate.yml: scope.extras: 'tests/[': ", 0) == 0);
}
