#pragma once
// Built-in path categories shared by the path gate and the GPU gate: one rule, used by CI
// and the gate alike. Each is an ordered pattern list in the github glob dialect (the last
// matching pattern wins); projects replace them in their rules (`categories:`).
#include <string>
#include <vector>

namespace gatekit::glob {

// Docs = docs/, overrides/, mkdocs.yml, and Markdown outside the code and test folders
// (src/, tests/, test/ by default); everything else is code.
std::vector<std::string> default_docs_patterns();

// Paths whose change calls for the stress pass (concurrency code). Projects should set
// their own list; the default covers conventional folder names only.
std::vector<std::string> default_concurrency_patterns();

}  // namespace gatekit::glob
