#include "gatekit/path_categories.hpp"

namespace gatekit::glob {

std::vector<std::string> default_docs_patterns() {
  return {"**.md", "!src/**", "!tests/**", "!test/**", "docs/**", "overrides/**", "mkdocs.yml"};
}

std::vector<std::string> default_concurrency_patterns() {
  return {"**/concurrency/**", "**/stream/**", "**/threading/**"};
}

}  // namespace gatekit::glob
