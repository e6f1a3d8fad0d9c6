// The docs-only rule (pure) and the tree's links (through the git seam): see docs_rule.hpp.
#include "scope/docs_rule.hpp"

#include <array>
#include <charconv>
#include <deque>

#include "gatekit/text.hpp"
#include "git_command.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr int kMaxHops = 40;  // Linux's limit on links followed in one lookup
constexpr std::string_view kLinkMode = "120000";
constexpr std::string_view kSubmoduleMode = "160000";

std::vector<std::string> components(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    const auto end = slash == std::string_view::npos ? path.size() : slash;
    if (end > start) out.emplace_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

std::string join_path(const std::vector<std::string>& parts) { return join(parts, "/"); }

std::vector<std::string> split_nul_entries(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\0', start);
    if (end == std::string_view::npos) end = text.size();
    out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool parse_size(std::string_view text, std::size_t& out) {
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

std::string parent_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

}  // namespace

bool is_python_code(std::string_view path) {
  static constexpr std::array<std::string_view, 6> kSuffixes{".py", ".pyi", ".pyw", ".pyc", ".so", ".pyd"};
  for (const auto suffix : kSuffixes)
    if (path.size() > suffix.size() && path.ends_with(suffix)) return true;
  return false;
}

std::vector<std::string> link_reach(const std::map<std::string, std::string, std::less<>>& links,
                                    std::string_view link_path, std::string_view target) {
  std::vector<std::string> reached;
  std::vector<std::string> resolved = components(parent_of(link_path));  // tree folders: no links
  std::deque<std::string> rest;
  int hops = 0;
  auto follow = [&](std::string_view to) {
    if (to.starts_with('/') || ++hops > kMaxHops) return false;
    auto parts = components(to);
    rest.insert(rest.begin(), parts.begin(), parts.end());
    return true;
  };
  if (!follow(target)) return {};
  while (!rest.empty()) {
    const std::string part = std::move(rest.front());
    rest.pop_front();
    if (part == ".") continue;
    if (part == "..") {
      if (resolved.empty()) return {};  // above the root: outside the tree
      resolved.pop_back();
      continue;
    }
    resolved.push_back(part);
    const std::string here = join_path(resolved);
    const auto link = links.find(here);
    if (link == links.end()) continue;
    reached.push_back(here);  // a link passed through: retargeting it changes what leads here
    resolved.pop_back();
    if (!follow(link->second)) return {};
  }
  reached.push_back(join_path(resolved));
  return reached;
}

Result<DocsRule> DocsRule::make(const std::vector<std::string>& patterns, const std::vector<TreeLink>& links) {
  std::vector<glob::Pattern> compiled;
  for (const auto& text : patterns) {
    auto p = glob::Pattern::compile(text, glob::Dialect::github);
    if (auto* error = std::get_if<glob::PatternError>(&p))
      return bad_input("docs pattern " + quote_for_message(text) + ": " + error->message);
    compiled.push_back(std::move(std::get<glob::Pattern>(p)));
  }
  DocsRule rule;
  rule.patterns_ = glob::PatternList(std::move(compiled), glob::Dialect::github);
  std::map<std::string, std::string, std::less<>> by_path;
  for (const auto& link : links) by_path.emplace(link.path, link.target);
  for (const auto& link : links)
    for (auto& reached : link_reach(by_path, link.path, link.target)) rule.linked_.emplace(std::move(reached), link.path);
  return rule;
}

std::string DocsRule::why_code(std::string_view path) const {
  if (!patterns_.evaluate(path).included) return "it is not in the docs patterns";
  if (is_python_code(path)) return "Python imports or pytest collects it";
  // The path itself, then each folder above it, then the root ("").
  std::string_view at = path;
  while (true) {
    if (const auto found = linked_.find(at); found != linked_.end())
      return "a symbolic link leads into it (" + found->second + ")";
    if (at.empty()) break;
    const auto slash = at.rfind('/');
    at = slash == std::string_view::npos ? std::string_view() : at.substr(0, slash);
  }
  return "";
}

bool DocsRule::is_docs_change(std::string_view path, std::string_view old_mode, std::string_view new_mode) const {
  for (const auto mode : {old_mode, new_mode})
    if (mode == kLinkMode || mode == kSubmoduleMode) return false;
  return is_docs(path);
}

Result<std::vector<TreeLink>> tree_links(const Git& git, const std::string& commit) {
  if (auto ok = check_revision(commit); !ok) return ok.error();
  auto listing = git_output(git, {"ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit + "^{tree}"});
  if (!listing) return listing.error();
  std::vector<TreeLink> links;
  std::string objects;
  for (const auto& entry : split_nul_entries(*listing)) {
    if (entry.empty()) continue;
    // "<mode> <type> <object>\t<path>"
    const auto tab = entry.find('\t');
    if (tab == std::string::npos || entry.size() < 7) return could_not_evaluate("unexpected git ls-tree entry: " + quote_for_message(entry));
    if (!entry.starts_with(kLinkMode)) continue;
    const auto object_start = entry.rfind(' ', tab);
    if (object_start == std::string::npos || !is_object_name(entry.substr(object_start + 1, tab - object_start - 1)))
      return could_not_evaluate("unexpected git ls-tree entry: " + quote_for_message(entry));
    links.push_back({entry.substr(tab + 1), ""});
    objects += entry.substr(object_start + 1, tab - object_start - 1) + "\n";
  }
  if (links.empty()) return links;
  auto blobs = git_output(git, GitCall{{"cat-file", "--batch"}, objects, {}, {}});
  if (!blobs) return blobs.error();
  // "<object> blob <size>\n<content>\n" per link, in order.
  std::size_t at = 0;
  for (auto& link : links) {
    const auto eol = blobs->find('\n', at);
    if (eol == std::string::npos) return could_not_evaluate("git cat-file --batch ended early");
    const std::string header = blobs->substr(at, eol - at);
    const auto space = header.rfind(' ');
    std::size_t size = 0;
    if (space == std::string::npos || header.find(" blob ") == std::string::npos ||
        !parse_size(header.substr(space + 1), size) || eol + 1 + size > blobs->size())
      return could_not_evaluate("unexpected git cat-file header: " + quote_for_message(header));
    link.target = blobs->substr(eol + 1, size);
    at = eol + 1 + size + 1;
  }
  return links;
}

Result<RawChange> parse_raw_line(std::string_view line) {
  const auto tab = line.find('\t');
  if (!line.starts_with(':') || tab == std::string_view::npos || tab < 15 || line[7] != ' ' || line[14] != ' ')
    return could_not_evaluate("unexpected git raw diff line: " + quote_for_message(line));
  auto path = unquote_c_style(line.substr(tab + 1));
  if (!path) return could_not_evaluate("git raw diff path: " + path.error().message);
  return RawChange{std::string(line.substr(1, 6)), std::string(line.substr(8, 6)), std::move(*path)};
}

Result<ChangeVerdict> classify_change(const Git& git, const DocsRule& docs, const std::string& from,
                                      const std::string& to, bool three_dot) {
  for (const auto* rev : {&from, &to})
    if (auto ok = check_revision(*rev); !ok) return ok.error();
  auto out = git_output(git, {"-c", "core.quotePath=true", "diff", "--raw", "--no-renames", "--no-ext-diff",
                              "--end-of-options", from + (three_dot ? "..." : "..") + to, "--"});
  if (!out) return out.error();
  ChangeVerdict verdict;
  std::set<std::string> code;
  for (const auto& line : split_lines(*out)) {
    if (line.empty()) continue;
    verdict.empty = false;
    auto change = parse_raw_line(line);
    if (!change) return change.error();
    if (!is_docs_change(docs, *change)) code.insert(change->path);
  }
  verdict.code.assign(code.begin(), code.end());
  return verdict;
}

Result<DocsRule> docs_rule_for(const Git& git, const std::vector<std::string>& patterns, const std::string& commit) {
  auto links = tree_links(git, commit);
  if (!links) return links.error();
  return DocsRule::make(patterns, *links);
}

}  // namespace gatekit::gpu_gate
