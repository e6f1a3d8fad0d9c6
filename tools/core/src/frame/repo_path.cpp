// Paths inside a repository (gatekit/repo_path.hpp).
#include "gatekit/repo_path.hpp"

#include "gatekit/files.hpp"
#include "gatekit/git.hpp"
#include "gatekit/text.hpp"

namespace gatekit {

PathProblem repository_path_problem(std::string_view path) {
  if (path.empty()) return PathProblem::empty;
  if (has_control(path)) return PathProblem::control;
  if (path.front() == '/' || path.front() == '\\' || (path.size() > 1 && path[1] == ':')) return PathProblem::absolute;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find_first_of("/\\", start), path.size());
    if (path.substr(start, end - start) == "..") return PathProblem::parent;
    start = end + 1;
  }
  return PathProblem::none;
}

std::string describe(PathProblem problem) {
  switch (problem) {
    case PathProblem::none: return "";
    case PathProblem::empty: return "it is empty";
    case PathProblem::absolute: return "it is an absolute path";
    case PathProblem::parent: return "it leaves the repository ('..')";
    case PathProblem::control: return "it holds control characters";
  }
  return "";
}

Status check_inside_repository(const Files& files, const std::filesystem::path& repo, std::string_view path) {
  if (const auto problem = repository_path_problem(path); problem != PathProblem::none) {
    auto why = describe(problem);
    return bad_input(quote_for_message(path) + " " + why.substr(3));
  }
  std::filesystem::path at = repo;
  std::string walked;
  for (std::size_t start = 0; start < path.size();) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const auto part = path.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    at /= std::string(part);
    walked += (walked.empty() ? "" : "/") + std::string(part);
    if (auto target = files.read_link(at))
      return bad_input(quote_for_message(path) + " passes through the symbolic link " + quote_for_message(walked) +
                       " (-> " + quote_for_message(target->string()) + "): it could lead outside the repository");
    if (!files.exists(at)) break;  // nothing further exists to be a link
  }
  return {};
}

}  // namespace gatekit
