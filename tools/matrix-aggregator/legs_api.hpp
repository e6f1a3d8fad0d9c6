#pragma once
// Lists the current run's legs through the Actions jobs API (GITHUB_REPOSITORY,
// GITHUB_RUN_ID, token from GITHUB_TOKEN / GH_TOKEN). Never fails: problems come back as
// LegView::unavailable_reason, and only matter when a verdict depends on them.
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/github.hpp"
#include "gatekit/workflow.hpp"
#include "legs.hpp"

namespace gatekit::aggregator {

LegView list_legs(const Environment& env, Workflow& workflow, github::HttpTransport& transport, Clock& clock);

}  // namespace gatekit::aggregator
