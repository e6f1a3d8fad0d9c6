#pragma once
// What the doctor reads, through the Context: the repository and the rules of the branch (a
// failure there is exit 3: nothing can be judged without them), branch protection, the gate's
// mode, environment, variables and secrets (each unreadable one is a Gap that names the
// permission the token lacks), and the workflow files (the branch's, through the contents
// API, or a folder's).
#include "decide.hpp"
#include "gatekit-doctor.hpp"

namespace gatekit::gatekit_doctor {

Setup gather(const Options& options, Context& context);

}  // namespace gatekit::gatekit_doctor
