#include "gatekit/config.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include <yaml-cpp/eventhandler.h>  // the event pass (not in yaml.h)

#include "gatekit/files.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/text.hpp"
#include "gatekit/yaml.hpp"

namespace gatekit {

std::string format_issue(const ConfigIssue& issue) {
  std::string out = issue.file;
  if (issue.line > 0) {
    out += ':' + std::to_string(issue.line);
    if (issue.column > 0) out += ':' + std::to_string(issue.column);
  }
  out += ": ";
  if (!issue.field.empty()) out += issue.field + ": ";
  out += issue.message;
  return out;
}

void ConfigErrors::add(const YAML::Node& at, std::string field, std::string message,
                       const YAML::Node* key) {
  const bool use_key = key != nullptr && key->IsDefined() && (!at.IsDefined() || at.IsNull());
  const YAML::Node& where = use_key ? *key : at;
  auto pos = where.IsDefined() ? yaml::position_of(where.Mark()) : yaml::Position{};
  add(pos.line, pos.column, std::move(field), std::move(message));
}

void ConfigErrors::add(int line, int column, std::string field, std::string message) {
  issues_.push_back({file_, line, column, std::move(field), std::move(message)});
}

std::string ConfigErrors::format() const {
  auto sorted = issues_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  std::string out;
  for (const auto& issue : sorted) {
    if (!out.empty()) out += '\n';
    out += format_issue(issue);
  }
  return out;
}

Error ConfigErrors::to_error() const {
  const auto n = issues_.size();
  std::string head = std::to_string(n) + (n == 1 ? " error" : " errors") + " in " + file_ + ":\n";
  return bad_input(head + format());
}

namespace {

// One event pass over the document before any tree is built (yaml-cpp accepts duplicate
// keys and builds aliases as shared nodes that readers then expand): rejects duplicate map
// keys, cyclic aliases, and documents whose alias-expanded size exceeds kMaxConfigNodes.
// Every duplicate is collected; the size check stops the pass at once (the point is to
// spend neither time nor memory on such a document).
class DocumentChecker : public YAML::EventHandler {
 public:
  explicit DocumentChecker(ConfigErrors& errors) : errors_(errors) {}

  struct Stop {};  // thrown to stop the parser at once (a cycle, or the size limit passed)

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_name_ = name; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    leaf(mark, anchor, Key{true, "null"}, 1);
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    leaf(mark, anchor, Key{true, value}, 1);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto it = anchors_.find(anchor);
    if (it == anchors_.end()) return;  // the parser rejects unknown aliases itself
    const Anchored& target = it->second;
    if (!target.complete) {
      errors_.add(position(mark).line, position(mark).column, child_field(),
                  "alias '*" + target.name + "' refers to a node that contains it (a cycle)");
      throw Stop{};
    }
    leaf(mark, 0, target.key, target.size, &target);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor, Frame::Kind::sequence);
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor, Frame::Kind::map);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapEnd() override { close(); }

 private:
  // A node's identity as a map key: scalars (and null) by their text; lists and maps are
  // not compared (configs never use them as keys).
  struct Key {
    bool comparable = false;
    std::string text;
  };
  struct Anchored {
    std::string name;
    bool complete = false;
    std::uint64_t size = 0;  // nodes it expands to
    Key key;
  };
  struct Frame {
    enum class Kind { map, sequence } kind = Kind::map;
    std::string field;
    YAML::anchor_t anchor = 0;
    std::uint64_t start = 0;      // node count when the container opened
    bool expect_key = true;       // map: the next node is a key
    std::string key;              // map: the current key's text (for field paths)
    std::size_t index = 0;        // sequence: the next item's index
    std::map<std::string, yaml::Position> keys;  // map: keys seen, with where
  };

  static yaml::Position position(const YAML::Mark& mark) { return yaml::position_of(mark); }

  // The field path of the node that starts now, in the style `smokes[1].env.A`.
  std::string child_field() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    if (f.kind == Frame::Kind::sequence) return f.field + "[" + std::to_string(f.index) + "]";
    return f.expect_key ? f.field : (f.field.empty() ? f.key : f.field + "." + f.key);
  }

  void count(const YAML::Mark& mark, std::uint64_t size, const Anchored* alias) {
    nodes_ += size;
    if (nodes_ <= kMaxConfigNodes) return;
    const auto at = position(mark);
    const std::string limit = std::to_string(kMaxConfigNodes);
    errors_.add(at.line, at.column, child_field(),
                alias != nullptr
                    ? "alias '*" + alias->name + "' expands the document beyond " + limit +
                          " nodes, the limit for a config file (each alias repeats its anchor's whole content)"
                    : "the document has more than " + limit + " nodes, the limit for a config file");
    throw Stop{};
  }

  void remember(YAML::anchor_t anchor, Key key) {
    if (anchor == 0) return;
    anchors_[anchor] = Anchored{pending_name_, false, 0, std::move(key)};
    pending_name_.clear();
  }

  // A node that is a key of the innermost map: checked against the keys seen there.
  void key_node(const YAML::Mark& mark, const Key& key) {
    Frame& f = frames_.back();
    f.key = key.comparable ? key.text : "?";
    if (!key.comparable) return;
    const auto at = position(mark);
    const auto [it, fresh] = f.keys.emplace(key.text, at);
    if (fresh) return;
    const std::string field = f.field.empty() ? key.text : f.field + "." + key.text;
    errors_.add(at.line, at.column, field,
                "duplicate key '" + key.text + "' (first at line " + std::to_string(it->second.line) + ", column " +
                    std::to_string(it->second.column) + "): give each key once");
  }

  // Moves the innermost container past the node that just ended.
  void advance() {
    if (frames_.empty()) return;
    Frame& f = frames_.back();
    if (f.kind == Frame::Kind::sequence) ++f.index;
    else f.expect_key = !f.expect_key;
  }

  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, const Key& key, std::uint64_t size,
            const Anchored* alias = nullptr) {
    count(mark, size, alias);
    if (!frames_.empty() && frames_.back().kind == Frame::Kind::map && frames_.back().expect_key)
      key_node(mark, key);
    if (anchor != 0) {
      remember(anchor, key);
      anchors_[anchor].complete = true;
      anchors_[anchor].size = size;
    }
    advance();
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, Frame::Kind kind) {
    const std::string field = child_field();
    count(mark, 1, nullptr);
    if (!frames_.empty() && frames_.back().kind == Frame::Kind::map && frames_.back().expect_key)
      key_node(mark, Key{});
    remember(anchor, Key{});
    Frame f;
    f.kind = kind;
    f.field = field;
    f.anchor = anchor;
    f.start = nodes_ - 1;
    frames_.push_back(std::move(f));
  }

  void close() {
    if (frames_.empty()) return;
    const Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (f.anchor != 0) {
      auto& a = anchors_[f.anchor];
      a.complete = true;
      a.size = nodes_ - f.start;
    }
    advance();
  }

  ConfigErrors& errors_;
  std::vector<Frame> frames_;
  std::map<YAML::anchor_t, Anchored> anchors_;
  std::string pending_name_;
  std::uint64_t nodes_ = 0;  // of the expanded document; at most kMaxConfigNodes + one alias
};

Error syntax_error(const YAML::Exception& e, const std::string& name) {
  auto pos = yaml::position_of(e.mark);
  ConfigErrors errors(name);
  errors.add(pos.line, pos.column, "", "invalid YAML: " + e.msg);
  return bad_input(errors.format());
}

// The document parsed twice: the event pass (DocumentChecker) first, then the tree. Every
// error comes from here, so its wording is the event pass's whatever the shape of the text.
Result<YAML::Node> checked_load(const std::string& text, const std::string& name) {
  ConfigErrors errors(name);
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentChecker checker(errors);
    parser.HandleNextDocument(checker);  // the first document: the one YAML::Load returns
  } catch (const DocumentChecker::Stop&) {
    return errors.to_error();
  } catch (const YAML::Exception& e) {
    return syntax_error(e, name);
  }
  if (!errors.empty()) return errors.to_error();
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return syntax_error(e, name);
  }
}

// A text this short cannot reach kMaxConfigNodes without aliases, nor build a large tree:
// yaml-cpp makes at most about one and a half nodes of a byte (`[:,:,:]`: each `:,` is a
// map, its null key and its null value), and this leaves a margin of five.
constexpr std::size_t kOnePassBytes = kMaxConfigNodes / 8;

// A key as DocumentChecker compares keys: scalars by their text, null as "null"; nullopt for
// lists and maps (never compared).
std::optional<std::string_view> key_text(const YAML::Node& key) {
  if (key.IsScalar()) return std::string_view(key.Scalar());
  if (key.IsNull()) return std::string_view("null");
  return std::nullopt;
}

// Whether DocumentChecker could object to a tree built from a text without anchors (so
// without aliases: each node is met once, in document order): a map with two equal keys, or
// more than kMaxConfigNodes nodes. `nodes` counts the nodes met so far.
bool needs_event_pass(const YAML::Node& node, std::uint64_t& nodes) {
  if (++nodes > kMaxConfigNodes) return true;
  if (node.IsSequence()) {
    for (const auto& item : node)
      if (needs_event_pass(item, nodes)) return true;
  } else if (node.IsMap()) {
    std::vector<std::string_view> keys;
    keys.reserve(node.size());
    for (const auto& entry : node) {
      if (auto text = key_text(entry.first)) keys.push_back(*text);
      if (needs_event_pass(entry.first, nodes) || needs_event_pass(entry.second, nodes)) return true;
    }
    std::sort(keys.begin(), keys.end());
    if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) return true;
  }
  return false;
}

}  // namespace

// One parse where it is enough: a short text without anchors ('&') has no aliases, so its tree
// holds every node once, in document order, and DocumentChecker's checks can be asked of the
// tree. Anything the tree cannot vouch for (a syntax error, equal keys, too many nodes, an
// anchor, a long text) takes checked_load, whose errors are the messages users get.
Result<YAML::Node> load_yaml_text(const std::string& text, const std::string& name) {
  if (text.size() > kOnePassBytes || text.find('&') != std::string::npos) return checked_load(text, name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception&) {
    return checked_load(text, name);
  }
  std::uint64_t nodes = 0;
  if (needs_event_pass(root, nodes)) return checked_load(text, name);
  return root;
}

Result<YAML::Node> load_yaml_file(const Files& files, const std::string& path) {
  auto text = as_bad_input(files.read(path));
  if (!text) return text.error();
  return load_yaml_text(*text, path);
}

void reject_unknown_keys(const YAML::Node& map, std::span<const std::string_view> allowed,
                         const std::string& field_prefix, ConfigErrors& errors) {
  if (!map.IsMap()) return;
  std::set<std::string> seen;
  for (const auto& entry : map) {
    const auto& key_node = entry.first;
    const std::string key = key_node.Scalar();
    const std::string field = field_prefix.empty() ? key : field_prefix + "." + key;
    if (!seen.insert(key).second) {
      errors.add(key_node, field, "duplicate key '" + key + "'");
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string message = "unknown key '" + key + "'";
    if (auto hint = closest_match(key, allowed)) message += " (did you mean '" + *hint + "'?)";
    else {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      message += " (allowed: " + join(names, ", ") + ")";
    }
    errors.add(key_node, field, message);
  }
}

namespace {

bool is_plain(const YAML::Node& node) { return node.Tag() == "?"; }

bool plain_bool(const std::string& s, bool& value) {
  if (s == "true" || s == "True" || s == "TRUE") { value = true; return true; }
  if (s == "false" || s == "False" || s == "FALSE") { value = false; return true; }
  return false;
}

bool plain_null(const std::string& s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

}  // namespace

std::string describe_node(const YAML::Node& node) {
  if (!node || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  const auto& s = node.Scalar();
  if (!is_plain(node)) return "the string \"" + s + "\"";
  bool b = false;
  if (plain_bool(s, b)) return s + " (a boolean)";
  return "'" + s + "'";
}

std::optional<std::string> read_string(const YAML::Node& node, const std::string& field,
                                       ConfigErrors& errors, const YAML::Node* key) {
  if (node.IsScalar() && !(is_plain(node) && plain_null(node.Scalar()))) return node.Scalar();
  errors.add(node, field, "expected a string, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<std::int64_t> read_int(const YAML::Node& node, const std::string& field,
                                     ConfigErrors& errors, const YAML::Node* key) {
  static const Regex integer("[-+]?[0-9]+");
  if (node.IsScalar() && integer.matches(node.Scalar())) {
    if (!is_plain(node)) {
      errors.add(node, field, "expected an integer, got " + describe_node(node) + " (remove the quotes)", key);
      return std::nullopt;
    }
    try {
      return std::stoll(node.Scalar());
    } catch (const std::out_of_range&) {
      errors.add(node, field, "integer out of range: " + node.Scalar(), key);
      return std::nullopt;
    }
  }
  errors.add(node, field, "expected an integer, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<double> read_number(const YAML::Node& node, const std::string& field,
                                  ConfigErrors& errors, const YAML::Node* key) {
  static const Regex number("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  if (node.IsScalar() && is_plain(node) && number.matches(node.Scalar()))
    return std::stod(node.Scalar());
  errors.add(node, field, "expected a number, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<bool> read_bool(const YAML::Node& node, const std::string& field,
                              ConfigErrors& errors, const YAML::Node* key) {
  bool value = false;
  if (node.IsScalar() && plain_bool(node.Scalar(), value)) {
    if (is_plain(node)) return value;
    errors.add(node, field, "expected true or false, got " + describe_node(node) + " (remove the quotes)", key);
    return std::nullopt;
  }
  errors.add(node, field, "expected true or false, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<std::vector<std::string>> read_string_list(const YAML::Node& node,
                                                         const std::string& field,
                                                         ConfigErrors& errors,
                                                         const YAML::Node* key) {
  if (!node.IsSequence()) {
    errors.add(node, field, "expected a list, got " + describe_node(node), key);
    return std::nullopt;
  }
  std::vector<std::string> items;
  bool ok = true;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const auto item = node[i];
    const std::string item_field = field + "[" + std::to_string(i) + "]";
    if (!item.IsScalar() || (is_plain(item) && plain_null(item.Scalar()))) {
      errors.add(item, item_field, "expected a string, got " + describe_node(item));
      ok = false;
      continue;
    }
    items.push_back(item.Scalar());
  }
  if (!ok) return std::nullopt;
  return items;
}

}  // namespace gatekit
