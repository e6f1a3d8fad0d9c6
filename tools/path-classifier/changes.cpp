#include "changes.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "gatekit/json.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/text.hpp"

namespace gatekit::path_classifier {

namespace json = boost::json;

namespace {

// One path of a list: git's C-style quoting decoded (`git diff` quotes names with non-ASCII
// bytes, tabs, newlines, quotes and backslashes), then normalized.
Result<std::string> list_path(std::string_view field) {
  if (field.empty() || field.front() != '"') return glob::normalize_path(field);  // not quoted: verbatim
  auto path = unquote_c_style(field);
  if (!path)
    return could_not_evaluate("malformed git quoting in " + quote_for_message(field) + ": " + path.error().message);
  return glob::normalize_path(*path);
}

// A `git diff --name-status` line: STATUS<TAB>PATH, or R100<TAB>OLD<TAB>NEW for renames and
// copies, read into `f`; false (and `f` as it was) when the line does not have that form. Raw
// tabs only separate fields: git quotes a name holding a tab.
Result<bool> name_status_line(std::string_view line, ChangedFile& f) {
  const auto tab = line.find('\t');
  if (tab == std::string_view::npos || tab == 0) return false;
  const auto status = line.substr(0, tab);
  if (std::string_view("ACDMRTUX").find(status[0]) == std::string_view::npos) return false;
  if (status.find_first_not_of("0123456789", 1) != std::string_view::npos) return false;
  auto rest = line.substr(tab + 1);
  std::string previous_path;
  if (status[0] == 'R' || status[0] == 'C') {
    const auto second = rest.find('\t');
    if (second == std::string_view::npos) return false;
    auto previous = list_path(rest.substr(0, second));
    if (!previous) return previous.error();
    previous_path = std::move(*previous);
    rest = rest.substr(second + 1);
  }
  auto path = list_path(rest);
  if (!path) return path.error();
  if (path->empty()) return false;
  f.path = std::move(*path);
  f.previous_path = std::move(previous_path);
  f.status.assign(1, status[0]);
  return true;
}

// `git diff --name-status -z`: STATUS NUL PATH NUL, or R100 NUL OLD NUL NEW NUL (the core's
// parser). nullopt unless the whole text has that shape (then it is a plain NUL-separated list).
std::optional<std::vector<ChangedFile>> name_status_z(std::string_view text) {
  auto changes = parse_name_status_z(text);
  if (!changes || changes->empty()) return std::nullopt;
  std::vector<ChangedFile> out;
  out.reserve(changes->size());
  for (const auto& change : *changes) {
    ChangedFile f;
    f.status = std::string(1, change.status);
    if (!change.previous_path.empty()) f.previous_path = glob::normalize_path(change.previous_path);
    f.path = glob::normalize_path(change.path);
    if (f.path.empty() || (!change.previous_path.empty() && f.previous_path.empty())) return std::nullopt;
    out.push_back(std::move(f));
  }
  return out;
}

// The items `separator` splits `text` into (an upper bound on the paths), found by memchr.
std::size_t count_lines(std::string_view text, char separator) {
  std::size_t n = 1;
  for (auto at = text.find(separator); at != std::string_view::npos; at = text.find(separator, at + 1)) ++n;
  return n;
}

}  // namespace

Result<std::vector<ChangedFile>> parse_path_list(std::string_view text) {
  const char separator = text.find('\0') != std::string_view::npos ? '\0' : '\n';
  if (separator == '\0')
    if (auto files = name_status_z(text)) return std::move(*files);
  std::vector<ChangedFile> out;
  out.reserve(count_lines(text, separator));
  std::size_t start = 0;
  for (std::size_t number = 1; start <= text.size(); ++number) {
    auto end = text.find(separator, start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    start = end + 1;
    if (separator == '\0') {
      // NUL-separated names (`git diff --name-only -z`) are verbatim: never quoted.
      if (auto path = glob::normalize_path(item); !path.empty()) out.push_back({std::move(path), "", ""});
      continue;
    }
    if (!item.empty() && item.back() == '\r') item.remove_suffix(1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) continue;
    ChangedFile& f = out.emplace_back();  // filled in place; dropped again when the line has no path
    auto status = name_status_line(item, f);
    if (!status) return could_not_evaluate("line " + std::to_string(number) + ": " + status.error().message);
    if (*status) continue;
    auto path = list_path(item);
    if (!path) return could_not_evaluate("line " + std::to_string(number) + ": " + path.error().message);
    if (path->empty()) out.pop_back();
    else f.path = std::move(*path);
  }
  return out;
}

void fail_open_if_empty(ChangeListing& listing) {
  if (!listing.fail_open && listing.files.empty())
    listing.fail_open = "the change lists no files (" + listing.source + ")";
}

ChangeListing listing_from_pull(const github::PullRequest& pull, const std::vector<github::PullFile>& files) {
  ChangeListing out;
  out.source = "GitHub API, pull request #" + std::to_string(pull.number);
  for (const auto& f : files)
    out.files.push_back({glob::normalize_path(f.filename), glob::normalize_path(f.previous_filename), f.status});
  const auto listed = static_cast<std::int64_t>(files.size());
  if (pull.changed_files < 0) {
    out.fail_open = "the pull request's changed_files count is missing or not a number, so the listing of " +
                    std::to_string(listed) + " files cannot be checked for truncation";
  } else if (listed >= 3000) {
    out.fail_open = "the API lists at most 3000 files and returned " + std::to_string(listed) + " (changed_files: " +
                    std::to_string(pull.changed_files) + "): the listing may be truncated";
  } else if (listed < pull.changed_files) {
    out.fail_open = "the API listed " + std::to_string(listed) + " of " + std::to_string(pull.changed_files) +
                    " changed files: the listing is incomplete";
  } else if (listed > pull.changed_files) {
    // More files than the count (files listed with changed_files 0 included): one of the two
    // answers is wrong, and which one cannot be told.
    out.fail_open = "the API listed " + std::to_string(listed) + " files but the pull request's changed_files is " +
                    std::to_string(pull.changed_files) + ": the counts are inconsistent";
  }
  fail_open_if_empty(out);
  return out;
}

ChangeListing listing_from_git(const std::vector<FileChange>& changes, std::string source) {
  ChangeListing out;
  out.source = std::move(source);
  for (const auto& c : changes)
    out.files.push_back({glob::normalize_path(c.path), glob::normalize_path(c.previous_path), std::string(1, c.status)});
  fail_open_if_empty(out);
  return out;
}

bool is_null_sha(std::string_view sha) {
  return sha.empty() || sha.find_first_not_of('0') == std::string_view::npos;
}

std::string event_revisions_problem(const EventInfo& event) {
  const char* base_field = "base";
  const char* head_field = "head";
  switch (event.kind) {
    case EventKind::pull_request: base_field = "pull_request.base.sha", head_field = "pull_request.head.sha"; break;
    case EventKind::merge_group: base_field = "merge_group.base_sha", head_field = "merge_group.head_sha"; break;
    case EventKind::push: base_field = "before", head_field = "after"; break;
    default: break;
  }
  for (const auto& [field, value] : {std::pair{base_field, &event.base_sha}, std::pair{head_field, &event.head_sha}}) {
    if (!is_object_name(*value))
      return "the " + event.name + " event payload's `" + field +
             "` is not a commit SHA (40 or 64 hexadecimal digits): " + quote_for_message(*value);
  }
  return "";
}

EventKind event_kind(std::string_view name) {
  if (name == "local") return EventKind::local;  // --event local: the gate run by hand
  switch (run_event_of(name)) {
    case RunEvent::none: return EventKind::local;
    case RunEvent::pull_request: return EventKind::pull_request;
    case RunEvent::merge_group: return EventKind::merge_group;
    case RunEvent::push: return EventKind::push;
    default: return EventKind::other;
  }
}

namespace {

const json::object* object_at(const json::object& o, std::string_view key) {
  const auto* v = json_find(o, key);
  return v != nullptr && v->is_object() ? &v->get_object() : nullptr;
}

std::string sha_at(const json::object* o, std::string_view key) {
  if (o == nullptr) return "";
  return json_string_at(*o, key).value_or("");
}

}  // namespace

EventInfo parse_event(std::string_view name, std::string_view payload, std::string repo) {
  EventInfo info;
  info.name = name.empty() ? "local" : std::string(name);
  info.kind = event_kind(name);
  info.repo = std::move(repo);
  if (info.kind == EventKind::local || info.kind == EventKind::other) return info;
  if (payload.empty()) {
    info.problem = "the " + info.name + " event payload (GITHUB_EVENT_PATH) is missing";
    return info;
  }
  boost::system::error_code ec;
  auto value = json::parse(payload, ec);
  if (ec || !value.is_object()) {
    info.problem = "the " + info.name + " event payload is not a JSON object";
    return info;
  }
  const auto& root = value.get_object();
  if (info.repo.empty()) {
    if (const auto* r = object_at(root, "repository")) info.repo = json_string_at(*r, "full_name").value_or("");
  }
  switch (info.kind) {
    case EventKind::pull_request: {
      const auto* pr = object_at(root, "pull_request");
      if (pr == nullptr) {
        info.problem = "the event payload has no pull_request object";
        break;
      }
      info.pr_number = json_int_at(*pr, "number");
      if (!info.pr_number) info.pr_number = json_int_at(root, "number");
      info.base_sha = sha_at(object_at(*pr, "base"), "sha");
      info.head_sha = sha_at(object_at(*pr, "head"), "sha");
      if (!info.pr_number) info.problem = "the event payload has no pull request number";
      break;
    }
    case EventKind::merge_group: {
      const auto* mg = object_at(root, "merge_group");
      info.base_sha = sha_at(mg, "base_sha");
      info.head_sha = sha_at(mg, "head_sha");
      if (info.base_sha.empty() || info.head_sha.empty())
        info.problem = "the merge_group payload has no base_sha/head_sha";
      break;
    }
    case EventKind::push:
      info.base_sha = json_string_at(root, "before").value_or("");
      info.head_sha = json_string_at(root, "after").value_or("");
      break;
    default: break;
  }
  return info;
}

// ---- sources -------------------------------------------------------------------------

namespace {

class ListSource final : public ChangedFilesSource {
 public:
  ListSource(std::string text, std::string origin) : text_(std::move(text)), origin_(std::move(origin)) {}
  ChangeListing list() override {
    ChangeListing out;
    out.source = origin_;
    auto files = parse_path_list(text_);
    if (!files) {
      out.fail_open = origin_ + " cannot be read: " + files.error().message;
      return out;
    }
    out.files = std::move(*files);
    fail_open_if_empty(out);
    return out;
  }

 private:
  std::string text_;
  std::string origin_;
};

class ApiSource final : public ChangedFilesSource {
 public:
  ApiSource(github::Client& client, std::string repo, std::int64_t number)
      : client_(client), repo_(std::move(repo)), number_(number) {}
  ChangeListing list() override {
    ChangeListing failed;
    failed.source = "GitHub API, pull request #" + std::to_string(number_);
    auto pull = client_.get_pull_request(repo_, number_);
    if (!pull) {
      failed.fail_open = "the GitHub API failed: " + pull.error().message;
      return failed;
    }
    auto files = client_.list_pull_request_files(repo_, number_);
    if (!files) {
      failed.fail_open = "the GitHub API failed while listing files: " + files.error().message;
      return failed;
    }
    auto out = listing_from_pull(*pull, *files);
    out.notes.push_back("GitHub API: " + std::to_string(out.files.size()) + " files in " +
                        std::to_string(client_.requests_sent()) + " requests");
    return out;
  }

 private:
  github::Client& client_;
  std::string repo_;
  std::int64_t number_;
};

class GitSource final : public ChangedFilesSource {
 public:
  GitSource(Git& git, GitDiffSpec spec) : git_(git), spec_(std::move(spec)) {}

  ChangeListing list() override {
    ChangeListing out;
    // Revisions that git could misread never reach it (Git checks them too): fail open.
    for (const auto* rev : {&spec_.base, &spec_.head}) {
      if (auto ok = check_revision(*rev); !ok) {
        out.source = "git diff";
        out.fail_open = "cannot compare with git: " + ok.error().message;
        return out;
      }
    }
    out.source = "git diff " + spec_.base + (spec_.three_dot ? "..." : "..") + spec_.head;
    if (auto missing = ensure_history(out); !missing.empty()) {
      out.fail_open = missing;
      return out;
    }
    auto diff = git_.diff(local(spec_.base), local(spec_.head), spec_.three_dot);
    if (!diff) {
      out.fail_open = diff.error().message;
      return out;
    }
    auto notes = std::move(out.notes);
    out = listing_from_git(*diff, out.source);
    out.notes = std::move(notes);
    return out;
  }

 private:
  // A commit found stays found for the whole listing (a fetch only adds to the clone), so each
  // revision costs one `git cat-file`, not one at every step that names it (a push: 2 instead
  // of 8). A revision not found is asked again: a fetch may bring it.
  bool present(const std::string& rev) {
    if (found_.contains(rev)) return true;
    auto r = git_.has_commit(rev);
    if (!r || !*r) return false;
    found_.insert(rev);
    return true;
  }
  bool merge_base_known() {
    auto r = git_.has_merge_base(local(spec_.base), local(spec_.head));
    return r && *r;
  }

  // The name the clone has `rev` under. A branch name is spelled as its full ref, so that a
  // tag named like the branch (git's own lookup prefers refs/tags/main to refs/heads/main)
  // never stands for it: refs/heads/main, else the remote's tracking branch (`main` in a clone
  // that checked out another branch, as dorny/paths-filter reads it), else `rev` itself (a
  // tag, a commit); "" when the clone has none of them.
  std::string found_as(const std::string& rev) {
    if (auto known = found_as_.find(rev); known != found_as_.end()) return known->second;
    for (const auto& full : branch_candidates(rev, spec_.remote))
      if (present(full)) return found_as_[rev] = full;
    return present(rev) ? found_as_[rev] = rev : "";
  }
  std::string local(const std::string& rev) {
    auto found = found_as(rev);
    return found.empty() ? rev : found;
  }

  // What to ask the remote for: `origin/main` is `main` there, fetched by its full name into
  // the tracking branch (`git fetch origin main` would fetch a tag named main instead); a
  // commit or a full ref as it is.
  std::string on_remote(const std::string& rev) const {
    std::string name = rev;
    for (const auto& prefix : {"refs/remotes/" + spec_.remote + "/", spec_.remote + "/"})
      if (rev.size() > prefix.size() && rev.rfind(prefix, 0) == 0) name = rev.substr(prefix.size());
    name = name.substr(0, std::min(name.find_first_of("~^"), name.size()));
    if (branch_candidates(name, "").empty()) return name;
    return "+refs/heads/" + name + ":refs/remotes/" + spec_.remote + "/" + name;
  }

  // Makes base and head (and, for three dots, their merge base) available; returns a
  // fail-open cause, or "" when the history is there.
  std::string ensure_history(ChangeListing& out) {
    std::vector<std::string> missing, refspecs;
    for (const auto& rev : {spec_.base, spec_.head})
      if (found_as(rev).empty()) missing.push_back(rev), refspecs.push_back(on_remote(rev));
    if (!missing.empty()) {
      if (!spec_.fetch) return "commit " + missing.front() + " is not in the clone (fetching is disabled)";
      auto fetched = git_.fetch(spec_.remote, refspecs, {.depth = spec_.initial_depth});
      if (!fetched) return "cannot fetch " + join(missing, ", ") + ": " + fetched.error().message;
      out.notes.push_back("fetched " + join(missing, ", ") + " from " + spec_.remote);
      for (const auto& rev : missing)
        if (found_as(rev).empty()) return "commit " + rev + " is still missing after fetching it";
    }
    if (!spec_.three_dot || merge_base_known()) return "";
    if (!spec_.fetch) return "no merge base of " + spec_.base + " and " + spec_.head + " in the clone (fetching is disabled)";
    auto shallow = git_.is_shallow();
    if (shallow && !*shallow)
      return "no merge base of " + spec_.base + " and " + spec_.head + ": the histories are unrelated";
    int depth = spec_.initial_depth;
    for (int round = 0; round < spec_.max_deepen_rounds; ++round, depth *= 2) {
      auto r = git_.fetch(spec_.remote, {on_remote(spec_.base), on_remote(spec_.head)}, {.deepen = depth});
      if (!r) return "cannot deepen the clone to find the merge base: " + r.error().message;
      out.notes.push_back("deepened the clone by " + std::to_string(depth) + " commits");
      if (merge_base_known()) return "";
    }
    if (git_.fetch(spec_.remote, {}, {.unshallow = true})) out.notes.push_back("unshallowed the clone");
    if (merge_base_known()) return "";
    return "no merge base of " + spec_.base + " and " + spec_.head + " even after fetching the full history";
  }

  Git& git_;
  GitDiffSpec spec_;
  std::set<std::string> found_;  // revisions git has answered as commits
  std::map<std::string, std::string> found_as_;  // revisions found, and the name each was found as
};

}  // namespace

std::unique_ptr<ChangedFilesSource> make_list_source(std::string text, std::string origin) {
  return std::make_unique<ListSource>(std::move(text), std::move(origin));
}

std::unique_ptr<ChangedFilesSource> make_api_source(github::Client& client, std::string repo, std::int64_t number) {
  return std::make_unique<ApiSource>(client, std::move(repo), number);
}

std::unique_ptr<ChangedFilesSource> make_git_source(Git& git, GitDiffSpec spec) {
  return std::make_unique<GitSource>(git, std::move(spec));
}

}  // namespace gatekit::path_classifier
