// The docs-only rule (pure) and the tree's links (through the git seam): see docs_rule.hpp.
#include "scope/docs_rule.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <deque>
#include <iterator>

#include "common.hpp"
#include "gatekit/json.hpp"
#include "gatekit/process.hpp"
#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr int kMaxHops = 40;  // Linux's limit on links followed in one lookup
constexpr std::size_t kMaxConfigBytes = 1u << 20;  // a larger configuration file is not read: nothing is docs
constexpr std::size_t kMaxConfigFiles = 1000;
constexpr std::string_view kTestConfigScript =
#include "test_config.py.inc"
    ;
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

bool parse_size(std::string_view text, std::size_t& out) {
  const auto* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

std::string parent_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string_view base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool is_test_configuration(std::string_view path) {
  const auto name = base_name(path);
  return name == "pytest.ini" || name == "tox.ini" || name == "setup.cfg" || name == "pyproject.toml" ||
         name == "conftest.py";
}

bool doctest_glob_matches(std::string_view glob, std::string_view path) {
  // pytest's fnmatch_ex: a glob without a separator matches the name; with one, the path's end.
  const bool whole = glob.find('/') != std::string_view::npos;
  const std::string pattern = whole ? "*/" + std::string(glob) : std::string(glob);
  const std::string subject = whole ? "/" + std::string(path) : std::string(base_name(path));
  return fnmatch(pattern.c_str(), subject.c_str(), FNM_NOESCAPE) == 0;
}

Result<TestConfigFacts> parse_test_config_report(std::string_view json) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(json, ec);
  const auto* root = ec ? nullptr : value.if_object();
  auto strings = [root](std::string_view key, std::vector<std::string>& into) {
    const auto* list = root == nullptr ? nullptr : json_find(*root, key);
    if (list == nullptr || !list->is_array()) return false;
    for (const auto& item : list->get_array()) {
      if (!item.is_string()) return false;
      into.emplace_back(item.get_string());
    }
    return true;
  };
  TestConfigFacts facts;
  std::vector<std::string> errors;
  if (!strings("globs", facts.doctest_globs) || !strings("collectors", facts.collectors) || !strings("errors", errors))
    return could_not_evaluate("the test-configuration reader printed unexpected output: " + quote_for_message(json));
  if (!errors.empty()) facts.unreadable = errors.front();
  return facts;
}

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

Result<DocsRule> DocsRule::make(const std::vector<std::string>& patterns, const std::vector<TreeLink>& links,
                                TestConfigFacts tests) {
  std::vector<glob::Pattern> compiled;
  for (const auto& text : patterns) {
    auto p = glob::Pattern::compile(text, glob::Dialect::github);
    if (auto* error = std::get_if<glob::PatternError>(&p))
      return bad_input("docs pattern " + quote_for_message(text) + ": " + error->message);
    compiled.push_back(std::move(std::get<glob::Pattern>(p)));
  }
  DocsRule rule;
  rule.patterns_ = glob::PatternList(std::move(compiled), glob::Dialect::github);
  if (tests.doctest_globs.empty()) tests.doctest_globs = {"test*.txt"};  // pytest's default
  rule.tests_ = std::move(tests);
  std::map<std::string, std::string, std::less<>> by_path;
  for (const auto& link : links) by_path.emplace(link.path, link.target);
  for (const auto& link : links)
    for (auto& reached : link_reach(by_path, link.path, link.target)) rule.linked_.emplace(std::move(reached), link.path);
  return rule;
}

std::string DocsRule::why_code(std::string_view path) const {
  if (!patterns_.evaluate(path).included) return "it is not in the docs patterns";
  if (is_python_code(path)) return "Python imports or pytest collects it";
  if (auto collected = why_collected(path); !collected.empty()) return collected;
  return why_linked(path);
}

std::string DocsRule::why_linked(std::string_view path) const {
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

std::string DocsRule::why_gpu(std::string_view path, std::string_view type) const {
  // The filter first: a path it takes needs a result even when it is docs only (a docs example
  // the GPU tests run), since the path gate runs the GPU jobs for it.
  if (gpu_)
    if (auto taken = gpu_->why_taken(path, type); !taken.empty()) return taken;
  if (is_docs(path)) return "";
  if (!gpu_) return "it is not docs only, and the gate reads no GPU filter (gpu_filter)";
  if (auto collected = why_collected(path); !collected.empty()) return collected;
  return why_linked(path);
}

bool DocsRule::needs_gpu_change(std::string_view path, std::string_view old_mode, std::string_view new_mode,
                                std::string_view type) const {
  for (const auto mode : {old_mode, new_mode})
    if (mode == kLinkMode || mode == kSubmoduleMode) return true;
  return !why_gpu(path, type).empty();
}

std::string DocsRule::why_collected(std::string_view path) const {
  if (is_test_configuration(path)) return "pytest reads its configuration from it";
  if (!tests_.unreadable.empty())
    return "the tree's test configuration does not read (" + tests_.unreadable + "): what pytest collects is unknown";
  for (const auto& glob : tests_.doctest_globs)
    if (doctest_glob_matches(glob, path)) return "pytest collects it as a doctest (--doctest-glob " + quote_for_message(glob) + ")";
  for (const auto& conftest : tests_.collectors) {
    const std::string folder = conftest.find('/') == std::string::npos ? "" : conftest.substr(0, conftest.rfind('/') + 1);
    if (path.starts_with(folder)) return "pytest may collect it: " + conftest + " binds pytest_collect_file";
  }
  return "";
}

bool DocsRule::is_docs_change(std::string_view path, std::string_view old_mode, std::string_view new_mode) const {
  for (const auto mode : {old_mode, new_mode})
    if (mode == kLinkMode || mode == kSubmoduleMode) return false;
  return is_docs(path);
}

namespace {

// The tree's entries the docs rule reads: its links and its test configuration files.
struct TreeBlob {
  std::string path;
  std::string object;
  std::size_t size = 0;
};
struct TreeFacts {
  std::vector<TreeBlob> links;
  std::vector<TreeBlob> configs;
  std::string too_large;  // a configuration file past kMaxConfigBytes (or past kMaxConfigFiles): "path"
};

Result<TreeFacts> list_tree(const Git& git, const std::string& commit) {
  if (auto ok = check_revision(commit); !ok) return ok.error();
  auto listing = git.run(GitCommand{"ls-tree", "-r", "-z", "-l", "--full-tree"}.revision(commit, "^{tree}"));
  if (!listing) return listing.error();
  TreeFacts facts;
  for (const auto& entry : split_nul(*listing)) {
    if (entry.empty()) continue;
    // "<mode> <type> <object> <size, padded>\t<path>"
    const auto tab = entry.find('\t');
    const auto first = entry.find(' ');
    const auto second = first == std::string::npos ? first : entry.find(' ', first + 1);
    const auto third = second == std::string::npos ? second : entry.find(' ', second + 1);
    if (tab == std::string::npos || third == std::string::npos || third > tab)
      return could_not_evaluate("unexpected git ls-tree entry: " + quote_for_message(entry));
    const std::string object = entry.substr(second + 1, third - second - 1);
    const std::string path = entry.substr(tab + 1);
    const bool link = entry.starts_with(kLinkMode);
    const bool config = entry.substr(first + 1, second - first - 1) == "blob" && !link && is_test_configuration(path);
    if (!link && !config) continue;
    std::size_t size = 0;
    std::string_view size_text = std::string_view(entry).substr(third + 1, tab - third - 1);
    while (size_text.starts_with(' ')) size_text.remove_prefix(1);
    if (!is_object_name(object) || !parse_size(size_text, size))
      return could_not_evaluate("unexpected git ls-tree entry: " + quote_for_message(entry));
    if (link) {
      facts.links.push_back({path, object, size});
    } else if (size > kMaxConfigBytes || facts.configs.size() >= kMaxConfigFiles) {
      if (facts.too_large.empty()) facts.too_large = path;
    } else {
      facts.configs.push_back({path, object, size});
    }
  }
  return facts;
}

// The blobs' contents, in order: one `git cat-file --batch`.
Result<std::vector<std::string>> read_blobs(const Git& git, const std::vector<const TreeBlob*>& blobs) {
  std::vector<std::string> out;
  if (blobs.empty()) return out;
  std::string objects;
  for (const auto* blob : blobs) objects += blob->object + "\n";
  auto text = git.run(GitCommand{"cat-file", "--batch"}.input(objects));
  if (!text) return text.error();
  // "<object> blob <size>\n<content>\n" per blob, in order.
  std::size_t at = 0;
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    const auto eol = text->find('\n', at);
    if (eol == std::string::npos) return could_not_evaluate("git cat-file --batch ended early");
    const std::string header = text->substr(at, eol - at);
    const auto space = header.rfind(' ');
    std::size_t size = 0;
    if (space == std::string::npos || header.find(" blob ") == std::string::npos ||
        !parse_size(header.substr(space + 1), size) || eol + 1 + size > text->size())
      return could_not_evaluate("unexpected git cat-file header: " + quote_for_message(header));
    out.push_back(text->substr(eol + 1, size));
    at = eol + 1 + size + 1;
  }
  return out;
}

// The test configuration, read by Python's own readers in a `python3 -I` child (the files on
// stdin, never argv); Python missing or failing is could_not_evaluate.
Result<TestConfigFacts> read_test_config(const Git& git, const std::vector<TreeBlob>& configs,
                                         const std::vector<std::string>& texts) {
  boost::json::object files;
  for (std::size_t i = 0; i < configs.size(); ++i) files[configs[i].path] = texts[i];
  ProcessSpec spec;
  spec.argv = {"python3", "-I", "-c", std::string(kTestConfigScript)};
  spec.stdin_data = boost::json::serialize(boost::json::object{{"files", std::move(files)}});
  spec.timeout = std::chrono::seconds(120);
  spec.capture_limit = 16u << 20;
  auto ran = git.runner().run(spec);
  if (!ran) return could_not_evaluate("cannot read the test configuration (python3): " + ran.error().message);
  if (!ran->succeeded())
    return could_not_evaluate("cannot read the test configuration: python3 " + ran->describe(spec.timeout) + ": " +
                              visible_controls(trim(ran->err)));
  return parse_test_config_report(ran->out);
}

}  // namespace

Result<std::vector<TreeLink>> tree_links(const Git& git, const std::string& commit) {
  auto facts = list_tree(git, commit);
  if (!facts) return facts.error();
  std::vector<const TreeBlob*> blobs;
  for (const auto& link : facts->links) blobs.push_back(&link);
  auto targets = read_blobs(git, blobs);
  if (!targets) return targets.error();
  std::vector<TreeLink> links;
  for (std::size_t i = 0; i < facts->links.size(); ++i) links.push_back({facts->links[i].path, (*targets)[i]});
  return links;
}

Result<RawChange> parse_raw_line(std::string_view line) {
  const auto tab = line.find('\t');
  if (!line.starts_with(':') || tab == std::string_view::npos || tab < 15 || line[7] != ' ' || line[14] != ' ')
    return could_not_evaluate("unexpected git raw diff line: " + quote_for_message(line));
  auto path = unquote_c_style(line.substr(tab + 1));
  if (!path) return could_not_evaluate("git raw diff path: " + path.error().message);
  const auto space = line.rfind(' ', tab);  // before the status letter (and its score, if any)
  std::string status(line.substr(space + 1, std::min<std::size_t>(1, tab - space - 1)));
  return RawChange{std::string(line.substr(1, 6)), std::string(line.substr(8, 6)), std::move(*path), std::move(status)};
}

Result<ChangeVerdict> classify_change(const Git& git, const DocsRule& docs, const std::string& from,
                                      const std::string& to, bool three_dot) {
  for (const auto* rev : {&from, &to})
    if (auto ok = check_revision(*rev); !ok) return ok.error();
  auto out = git.run(GitCommand{"-c", "core.quotePath=true", "diff", "--raw", "--no-renames", "--no-ext-diff"}
                         .range(from, to, three_dot)
                         .paths({}));
  if (!out) return out.error();
  ChangeVerdict verdict;
  std::set<std::string> code, gpu;
  for (const auto& line : split_lines(*out)) {
    if (line.empty()) continue;
    verdict.empty = false;
    auto change = parse_raw_line(line);
    if (!change) return change.error();
    if (!is_docs_change(docs, *change)) code.insert(change->path);
    if (needs_gpu_change(docs, *change)) gpu.insert(change->path);
  }
  verdict.code.assign(code.begin(), code.end());
  verdict.gpu.assign(gpu.begin(), gpu.end());
  return verdict;
}

std::vector<std::string> ChangeVerdict::outside_filter() const {
  std::vector<std::string> out;
  std::set_difference(code.begin(), code.end(), gpu.begin(), gpu.end(), std::back_inserter(out));
  return out;
}

Result<DocsRule> docs_rule_for(const Git& git, const std::vector<std::string>& patterns, const std::string& commit) {
  auto facts = list_tree(git, commit);
  if (!facts) return facts.error();
  std::vector<const TreeBlob*> blobs;
  for (const auto& link : facts->links) blobs.push_back(&link);
  for (const auto& config : facts->configs) blobs.push_back(&config);
  auto texts = read_blobs(git, blobs);
  if (!texts) return texts.error();
  std::vector<TreeLink> links;
  for (std::size_t i = 0; i < facts->links.size(); ++i) links.push_back({facts->links[i].path, (*texts)[i]});
  TestConfigFacts tests;
  if (!facts->too_large.empty()) {
    tests.unreadable = facts->too_large + ": larger than " + std::to_string(kMaxConfigBytes) + " bytes, or one too many";
  } else if (!facts->configs.empty()) {
    const std::vector<std::string> config_texts(texts->begin() + static_cast<std::ptrdiff_t>(facts->links.size()), texts->end());
    auto read = read_test_config(git, facts->configs, config_texts);
    if (!read) return read.error();
    tests = std::move(*read);
  }
  return DocsRule::make(patterns, links, std::move(tests));
}

}  // namespace gatekit::gpu_gate
