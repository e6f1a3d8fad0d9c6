#include "build_call.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gatekit_api {

std::string inert_json(const boost::json::value& value) { return gatekit::inert_json(boost::json::serialize(value)); }

}  // namespace gatekit::gatekit_api
