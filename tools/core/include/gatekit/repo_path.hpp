#pragma once
// Paths that configuration and reports name inside a repository (gpu-gate's test map,
// selection and signing files, pytest node ids): one check that they stay inside it. A path
// is inside when it is relative, has no `..` component and no control character, and, where
// it exists on disk, passes through no symbolic link (a link could lead anywhere, and a write
// follows it).
#include <filesystem>
#include <string>
#include <string_view>

#include "gatekit/result.hpp"

namespace gatekit {

class Files;

enum class PathProblem { none, empty, absolute, parent, control };

// Pure, lexical: what keeps `path` ('/'-separated) from naming a file inside the repository.
PathProblem repository_path_problem(std::string_view path);
// "it is empty", "it is an absolute path", "it leaves the repository ('..')", "it holds
// control characters"; "" for none.
std::string describe(PathProblem problem);

// The lexical check, then, through the Files seam, every component of `path` that exists
// under `repo` must not be a symbolic link. bad_input naming the path and the problem:
// "'../x' leaves the repository ('..')", "'out/map.json' passes through the symbolic link
// 'out' (-> /home/u): it could lead outside the repository".
Status check_inside_repository(const Files& files, const std::filesystem::path& repo, std::string_view path);

}  // namespace gatekit
