#pragma once
// What `gpu-gate setup [--undo]` changes in a clone's configuration: a pure plan from the
// settings found to the settings wanted, so "say exactly what changed" and idempotence are
// decided in one place.
#include <string>
#include <vector>

namespace gatekit::gpu_gate {

struct RemoteSettings {
  std::vector<std::string> push;   // remote.<name>.push values, in order
  std::vector<std::string> fetch;  // remote.<name>.fetch values
  std::vector<std::string> added;  // what an earlier setup added ("push <refspec>", "fetch <refspec>")
};

struct ConfigChange {
  bool add = true;    // add the value, or remove it
  std::string key;    // "push" or "fetch" (of remote.<name>.)
  std::string value;  // the refspec
  std::string why;    // one line for the person
  // Removal only: how many identical copies stay. setup added one; the others a person added
  // by hand (git cannot unset one of several identical values, so all go and these come back).
  int keep = 0;
};

struct SetupPlan {
  std::vector<ConfigChange> changes;
  std::vector<std::string> unchanged;  // "remote.origin.push HEAD (already set)"
  std::vector<std::string> notes;      // what the person must know afterwards
};

// The refspecs setup adds for namespace `ns`.
std::string branch_push_refspec();                   // "HEAD"
std::string results_push_refspec(const std::string& ns);   // "+refs/<ns>-mine/*:refs/<ns>/*"
std::string results_fetch_refspec(const std::string& ns);  // "+refs/<ns>/*:refs/<ns>/*"

SetupPlan plan_setup(const RemoteSettings& found, const std::string& remote, const std::string& ns);
// Removes exactly what setup added: one copy of each value it recorded. Whatever a person set
// by hand stays, before or after setup, even a value identical to one setup added.
SetupPlan plan_undo(const RemoteSettings& found, const std::string& remote);

}  // namespace gatekit::gpu_gate
