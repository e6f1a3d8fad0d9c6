// setup's plan: what changes, idempotence, and an undo that removes only what setup added.
#include "catch.hpp"
#include "setup/setup_plan.hpp"

using namespace gatekit::gpu_gate;

TEST_CASE("setup adds the branch and the results to a plain push, and the results to fetch") {
  RemoteSettings found{{}, {"+refs/heads/*:refs/remotes/origin/*"}, {}};
  auto plan = plan_setup(found, "origin", "gatekit-gate");
  REQUIRE(plan.changes.size() == 3);
  CHECK(plan.changes[0].key == "push");
  CHECK(plan.changes[0].value == "HEAD");
  CHECK(plan.changes[0].why ==
        "a plain `git push` pushes the current branch to the branch of the same name on origin (push.default no longer applies in this clone)");
  CHECK(plan.changes[1].value == "+refs/gatekit-gate-mine/*:refs/gatekit-gate/*");
  CHECK(plan.changes[2].key == "fetch");
  CHECK(plan.changes[2].value == "+refs/gatekit-gate/*:refs/gatekit-gate/*");
  CHECK(plan.notes.back() ==
        "A detached HEAD, `git push -u origin <branch>` and any push that names what to send carry the branch only. "
        "Send the results on their own with: git push origin '+refs/gatekit-gate-mine/*:refs/gatekit-gate/*'");
}

TEST_CASE("setup twice changes nothing the second time") {
  RemoteSettings found{{"HEAD", "+refs/gatekit-gate-mine/*:refs/gatekit-gate/*"},
                       {"+refs/heads/*:refs/remotes/origin/*", "+refs/gatekit-gate/*:refs/gatekit-gate/*"},
                       {"push HEAD", "push +refs/gatekit-gate-mine/*:refs/gatekit-gate/*", "fetch +refs/gatekit-gate/*:refs/gatekit-gate/*"}};
  auto plan = plan_setup(found, "origin", "gatekit-gate");
  CHECK(plan.changes.empty());
  CHECK(plan.unchanged.size() == 3);
}

TEST_CASE("undo removes what setup added and keeps what the person set") {
  // The person had HEAD as a push refspec before setup: setup did not add it, undo keeps it.
  RemoteSettings found{{"HEAD", "+refs/gatekit-gate-mine/*:refs/gatekit-gate/*"},
                       {"+refs/heads/*:refs/remotes/origin/*", "+refs/gatekit-gate/*:refs/gatekit-gate/*"},
                       {"push +refs/gatekit-gate-mine/*:refs/gatekit-gate/*", "fetch +refs/gatekit-gate/*:refs/gatekit-gate/*"}};
  auto plan = plan_undo(found, "origin");
  REQUIRE(plan.changes.size() == 2);
  CHECK_FALSE(plan.changes[0].add);
  CHECK(plan.changes[0].value == "+refs/gatekit-gate-mine/*:refs/gatekit-gate/*");
  CHECK(plan.changes[1].key == "fetch");
  CHECK(plan_undo(RemoteSettings{}, "origin").notes ==
        std::vector<std::string>{"gpu-gate setup has not changed this clone's settings for origin: nothing to undo"});
}

TEST_CASE("undo keeps a copy a person added by hand, identical to the one setup added") {
  RemoteSettings found{{"HEAD", "+refs/gatekit-gate-mine/*:refs/gatekit-gate/*", "HEAD"},
                       {"+refs/heads/*:refs/remotes/origin/*", "+refs/gatekit-gate/*:refs/gatekit-gate/*"},
                       {"push HEAD", "push +refs/gatekit-gate-mine/*:refs/gatekit-gate/*", "fetch +refs/gatekit-gate/*:refs/gatekit-gate/*"}};
  auto plan = plan_undo(found, "origin");
  REQUIRE(plan.changes.size() == 3);
  CHECK(plan.changes[0].value == "HEAD");
  CHECK(plan.changes[0].keep == 1);
  CHECK(plan.changes[1].keep == 0);
  CHECK(plan.notes == std::vector<std::string>{"remote.origin.push HEAD was also set by hand: that copy stays"});
}
