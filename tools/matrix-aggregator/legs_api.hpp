#pragma once
// Lists the current run's legs through the Actions jobs API (GITHUB_REPOSITORY,
// GITHUB_RUN_ID, token from GITHUB_TOKEN / GH_TOKEN), over the context's HTTP transport and
// clock. Never fails: problems come back as LegView::unavailable_reason, and only matter
// when a verdict depends on them. No connection is made without a token and a run.
#include "gatekit/context.hpp"
#include "legs.hpp"

namespace gatekit::matrix_aggregator {

LegView list_legs(Context& context);

}  // namespace gatekit::matrix_aggregator
