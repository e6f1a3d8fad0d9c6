#include "gatekit-api.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::api {

std::string inert_json(const boost::json::value& value) { return gatekit::inert_json(boost::json::serialize(value)); }

}  // namespace gatekit::api
