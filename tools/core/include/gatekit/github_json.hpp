#pragma once
// The raw GitHub call, for the few users that handle JSON themselves (the gatekit-api tool).
// Kept apart from gatekit/github.hpp so that the typed calls do not pull Boost.JSON into
// every file that talks to GitHub.
#include <optional>
#include <string>

#include "gatekit/github.hpp"
#include "gatekit/json.hpp"

namespace gatekit::github {

// One call with the client's retries, budget and redaction. `path` is relative to the
// client's base_url ("/repos/...") or an absolute URL. paginate (GET only): follows Link
// rel=next and concatenates the JSON arrays, or the array under
// `items`/`workflow_runs`/`jobs`/`artifacts`/`statuses`/`environments`/
// `branch_policies`/`variables`/`secrets` of a wrapped listing (whose other fields come from
// the first page), each item once (by its `id`; an item without one by its whole content),
// repeats reported as the typed listings do. An empty answer (204) is null.
Result<boost::json::value> request(Client& client, const std::string& method, const std::string& path,
                                   const std::optional<boost::json::value>& body = std::nullopt,
                                   bool paginate = false);

}  // namespace gatekit::github
