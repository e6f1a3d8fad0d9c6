// Posting and reading commit statuses (status/post.cpp) over FakeSeams.
#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "status/post.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

TEST_CASE("post and read refuse clearly when the Context has no HTTP transport") {
  FakeSeams seams;
  seams.env.set("GITHUB_TOKEN", "t");
  auto context = seams.context();
  const StatusPost post{"o/r", std::string(40, 'a'), "gate/gpu", "success", "passed", ""};
  const auto posted = post_commit_status(post, context);
  REQUIRE_FALSE(posted.ok());
  CHECK(posted.error().kind == ErrorKind::could_not_evaluate);
  CHECK(posted.error().message == "no HTTP transport to reach GitHub");
  const auto read = read_commit_statuses("o/r", std::string(40, 'a'), context);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message == "no HTTP transport to reach GitHub");
}
