// The regex subset of glob_program.hpp: parser, Thompson construction, Pike VM.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>

#include "glob_program.hpp"

namespace gatekit::glob::detail {
namespace {

// Compiled programs beyond this size are refused: it bounds memory and matching cost.
constexpr std::size_t kMaxProgram = 200'000;

struct Node {
  enum class Kind { empty, set, cat, alt, repeat, begin, end, look, boundary };
  Kind kind = Kind::empty;
  std::bitset<256> set;
  std::vector<Node> kids;
  int min = 0;
  int max = -1;  // -1: unbounded
  bool negative = false;
  bool line_separator = false;  // look: "not U+2028 or U+2029 here" (the same body in every `.`)
};

using Set = std::bitset<256>;

// JavaScript's `.` (no s flag) matches any UTF-16 unit but the four line terminators: \n, \r,
// U+2028 and U+2029. Paths are UTF-8 bytes, where the last two are E2 80 A8 and E2 80 A9: a
// byte other than \n and \r where neither of them starts (a look-ahead, js_dot).
Set dot_set() {
  Set s;
  s.set();
  s.reset('\n');
  s.reset('\r');
  return s;
}

Set byte_set(std::initializer_list<unsigned char> bytes) {
  Set s;
  for (auto b : bytes) s.set(b);
  return s;
}

class RegexParser {
 public:
  explicit RegexParser(std::string_view text) : s_(text) {}

  std::variant<Node, std::string> parse() {
    Node n = alternation();
    if (!error_.empty()) return error_;
    if (i_ != s_.size()) return fail("unexpected ')'"), error_;
    return n;
  }

 private:
  bool at_end() const { return i_ >= s_.size(); }
  char peek(std::size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  Node fail(std::string message) {
    if (error_.empty()) error_ = "regex offset " + std::to_string(i_) + ": " + std::move(message);
    return Node{};
  }

  Node alternation() {
    Node first = sequence();
    if (at_end() || peek() != '|') return first;
    Node alt;
    alt.kind = Node::Kind::alt;
    alt.kids.push_back(std::move(first));
    while (!at_end() && peek() == '|' && error_.empty()) {
      ++i_;
      alt.kids.push_back(sequence());
    }
    return alt;
  }

  Node sequence() {
    Node cat;
    cat.kind = Node::Kind::cat;
    cat.kids.reserve(std::min<std::size_t>(s_.size() - i_, 32));  // at most one atom per character
    while (!at_end() && peek() != '|' && peek() != ')' && error_.empty()) {
      Node atom = this->atom();
      if (!error_.empty()) break;
      quantify(atom);
      cat.kids.push_back(std::move(atom));
    }
    if (cat.kids.size() == 1) return std::move(cat.kids[0]);
    return cat;
  }

  std::optional<int> number() {
    std::size_t start = i_;
    int v = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9' && v < 100000) v = v * 10 + (s_[i_++] - '0');
    if (i_ == start) return std::nullopt;
    return v;
  }

  // A complete {n}, {n,} or {n,m} starts at i_ (otherwise '{' is a literal, as in JavaScript).
  bool counted_quantifier_ahead() {
    const std::size_t save = i_;
    ++i_;
    bool ok = number().has_value();
    if (ok && peek() == ',') {
      ++i_;
      (void)number();
    }
    ok = ok && peek() == '}';
    i_ = save;
    return ok;
  }

  void quantify(Node& atom) {
    for (;;) {
      if (at_end()) return;
      int min = 0, max = -1;
      char c = peek();
      if (c == '*') { ++i_; }
      else if (c == '+') { min = 1; ++i_; }
      else if (c == '?') { max = 1; ++i_; }
      else if (c == '{') {
        std::size_t save = i_;
        ++i_;
        auto lo = number();
        if (!lo) { i_ = save; return; }  // a literal '{'
        min = *lo;
        max = min;
        if (peek() == ',') {
          ++i_;
          auto hi = number();
          max = hi ? *hi : -1;
        }
        if (peek() != '}') { i_ = save; return; }
        ++i_;
        if (max != -1 && max < min) { fail("reversed {n,m}"); return; }
        if (min > 1000 || max > 1000) { fail("repetition count too large"); return; }
      } else {
        return;
      }
      if (!at_end() && peek() == '?') ++i_;  // lazy: irrelevant for match/no match
      if (atom.kind == Node::Kind::begin || atom.kind == Node::Kind::end || atom.kind == Node::Kind::boundary) {
        fail("nothing to repeat");
        return;
      }
      if (atom.kind == Node::Kind::look) {  // JavaScript allows quantified look-aheads (Annex B)
        if (min == 0) atom = Node{};        // optional: always passes
        continue;
      }
      Node rep;
      rep.kind = Node::Kind::repeat;
      rep.min = min;
      rep.max = max;
      rep.kids.push_back(std::move(atom));
      atom = std::move(rep);
      // JavaScript: a quantifier may not follow a quantifier ("nothing to repeat").
      if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?')) {
        fail("nothing to repeat");
        return;
      }
      if (!at_end() && peek() == '{' && counted_quantifier_ahead()) {
        fail("nothing to repeat");
        return;
      }
      return;
    }
  }

  static Set class_escape(char c, bool& ok) {
    Set s;
    ok = true;
    auto range = [&](char a, char b) { for (int x = a; x <= b; ++x) s.set(static_cast<std::size_t>(x)); };
    switch (c) {
      case 'd': range('0', '9'); break;
      case 'w': range('0', '9'); range('a', 'z'); range('A', 'Z'); s.set('_'); break;
      case 's': for (char x : std::string_view(" \t\n\r\v\f")) s.set(static_cast<unsigned char>(x)); break;
      case 'D': case 'W': case 'S': {
        bool inner = false;
        s = class_escape(static_cast<char>(c - 'A' + 'a'), inner);
        s.flip();
        break;
      }
      default: ok = false;
    }
    return s;
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // The byte a `\x` escape (after the backslash, at i_) stands for, as JavaScript reads it
  // without the u flag; -1 for escapes gatekit does not support (word boundaries,
  // back-references, \c, non-ASCII \u).
  int escaped_byte() {
    const char c = s_[i_++];
    switch (c) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'f': return '\f';
      case 'v': return '\v';
      case '0':
        if (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') return -1;
        return 0;
      case 'x':
        if (i_ + 1 < s_.size() && hex(s_[i_]) >= 0 && hex(s_[i_ + 1]) >= 0) {
          const int v = hex(s_[i_]) * 16 + hex(s_[i_ + 1]);
          i_ += 2;
          return v;
        }
        return 'x';
      case 'u':
        if (i_ + 3 < s_.size() && hex(s_[i_]) >= 0 && hex(s_[i_ + 1]) >= 0 && hex(s_[i_ + 2]) >= 0 &&
            hex(s_[i_ + 3]) >= 0) {
          const int v = ((hex(s_[i_]) * 16 + hex(s_[i_ + 1])) * 16 + hex(s_[i_ + 2])) * 16 + hex(s_[i_ + 3]);
          i_ += 4;
          return v < 0x80 ? v : -1;
        }
        return 'u';
      case 'c': case 'k':
        return -1;
      default:
        if (c >= '1' && c <= '9') return -1;
        return static_cast<unsigned char>(c);
    }
  }

  static Node set_node(Set s) {
    Node n;
    n.kind = Node::Kind::set;
    n.set = s;
    return n;
  }

  // `.`: (?!\xE2\x80[\xA8\xA9])[^\n\r] (dot_set). A `.` starts where a character does (at the
  // start, after '/', or after another `.`), so the bytes after an E2 it took are never the
  // tail of U+2028 or U+2029.
  static Node js_dot() {
    Node separator;
    separator.kind = Node::Kind::cat;
    separator.kids = {set_node(byte_set({0xE2})), set_node(byte_set({0x80})), set_node(byte_set({0xA8, 0xA9}))};
    Node look;
    look.kind = Node::Kind::look;
    look.negative = true;
    look.line_separator = true;
    look.kids.push_back(std::move(separator));
    Node dot;
    dot.kind = Node::Kind::cat;
    dot.kids = {std::move(look), set_node(dot_set())};
    return dot;
  }

  Node char_class() {
    ++i_;  // '['
    bool negate = false;
    if (peek() == '^') { negate = true; ++i_; }
    Set s;
    // JS semantics: "[]" is an empty class, "[^]" matches any byte.
    while (!at_end() && peek() != ']') {
      int lo = -1;
      if (peek() == '\\') {
        ++i_;
        if (at_end()) return fail("trailing backslash in class");
        bool ok = false;
        Set esc = class_escape(peek(), ok);
        if (ok) { ++i_; s |= esc; continue; }
        if (peek() == 'b') { ++i_; lo = '\b'; }  // backspace inside a class
        else lo = escaped_byte();
        if (lo < 0) return fail("unsupported escape");
      } else {
        lo = static_cast<unsigned char>(s_[i_++]);
      }
      if (peek() == '-' && i_ + 1 < s_.size() && s_[i_ + 1] != ']') {
        ++i_;
        int hi;
        if (peek() == '\\') {
          ++i_;
          if (at_end()) return fail("trailing backslash in class");
          bool cls = false;
          (void)class_escape(peek(), cls);
          if (cls) return fail("class escape as a range end");
          hi = escaped_byte();
          if (hi < 0) return fail("unsupported escape");
        } else {
          hi = static_cast<unsigned char>(s_[i_++]);
        }
        if (hi < lo) return fail("reversed range in class");
        for (int x = lo; x <= hi; ++x) s.set(static_cast<std::size_t>(x));
      } else {
        s.set(static_cast<std::size_t>(lo));
      }
    }
    if (at_end()) return fail("unterminated class");
    ++i_;  // ']'
    if (negate) s.flip();
    return set_node(s);
  }

  Node atom() {
    char c = s_[i_];
    switch (c) {
      case '(': {
        ++i_;
        Node::Kind kind = Node::Kind::cat;
        bool negative = false;
        bool look = false;
        if (peek() == '?') {
          if (peek(1) == ':') { i_ += 2; }
          else if (peek(1) == '=') { i_ += 2; look = true; }
          else if (peek(1) == '!') { i_ += 2; look = true; negative = true; }
          else return fail("unsupported group syntax");
        }
        Node inner = alternation();
        if (!error_.empty()) return Node{};
        if (at_end() || peek() != ')') return fail("unclosed group");
        ++i_;
        if (!look) return inner;
        Node n;
        n.kind = Node::Kind::look;
        n.negative = negative;
        n.kids.push_back(std::move(inner));
        (void)kind;
        return n;
      }
      case '[': return char_class();
      case '.': ++i_; return js_dot();
      case '^': { ++i_; Node n; n.kind = Node::Kind::begin; return n; }
      case '$': { ++i_; Node n; n.kind = Node::Kind::end; return n; }
      case '*': case '+': case '?': return fail("nothing to repeat");
      case '\\': {
        ++i_;
        if (at_end()) return fail("trailing backslash");
        bool ok = false;
        Set esc = class_escape(peek(), ok);
        if (ok) { ++i_; return set_node(esc); }
        if (peek() == 'b' || peek() == 'B') {
          Node n;
          n.kind = Node::Kind::boundary;
          n.negative = s_[i_++] == 'B';
          return n;
        }
        const int b = escaped_byte();
        if (b < 0) return fail("unsupported escape");
        Set s;
        s.set(static_cast<std::size_t>(b));
        return set_node(s);
      }
      default: {
        ++i_;
        Set s;
        s.set(static_cast<unsigned char>(c));
        return set_node(s);
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::string error_;
};

Node reversed(const Node& n) {
  Node r = n;
  r.kids.clear();
  for (const auto& k : n.kids) r.kids.push_back(reversed(k));
  if (n.kind == Node::Kind::cat) std::reverse(r.kids.begin(), r.kids.end());
  if (n.kind == Node::Kind::look) r.kids = n.kids;  // a look-ahead inside stays a look-ahead
  return r;
}

class Emitter {
 public:
  explicit Emitter(Program& p) : p_(p) {}

  bool emit(const Node& n) {
    if (p_.code.size() > kMaxProgram) return false;
    switch (n.kind) {
      case Node::Kind::empty: return true;
      case Node::Kind::set: push({Op::byte_set, set_index(n.set), 0}); return true;
      case Node::Kind::cat:
        for (const auto& k : n.kids) if (!emit(k)) return false;
        return true;
      case Node::Kind::alt: {
        std::vector<std::size_t> jumps;
        for (std::size_t k = 0; k + 1 < n.kids.size(); ++k) {
          auto split = push({Op::split, 0, 0});
          p_.code[split].a = here();
          if (!emit(n.kids[k])) return false;
          jumps.push_back(push({Op::jump, 0, 0}));
          p_.code[split].b = here();
        }
        if (!emit(n.kids.back())) return false;
        for (auto j : jumps) p_.code[j].a = here();
        return true;
      }
      case Node::Kind::repeat: return emit_repeat(n);
      case Node::Kind::begin:
        p_.has_assertions = true;
        push({Op::assert_begin, 0, 0});
        return true;
      case Node::Kind::end:
        p_.has_assertions = true;
        push({Op::assert_end, 0, 0});
        return true;
      case Node::Kind::boundary:
        p_.has_assertions = true;
        push({Op::word_boundary, n.negative ? 0u : 1u, 0});
        return true;
      case Node::Kind::look: {
        p_.has_assertions = true;
        if (n.line_separator) {  // one look and one table for every `.` of the program
          if (line_separator_look_ == kNone) {
            p_.looks.push_back({true, line_separator_body(), true});
            line_separator_look_ = static_cast<std::uint32_t>(p_.looks.size() - 1);
          }
          push({Op::look, line_separator_look_, 0});
          return true;
        }
        auto sub = std::make_shared<Program>();
        Emitter inner(*sub);
        if (!inner.emit(reversed(n.kids[0]))) return false;
        sub->code.push_back({Op::match, 0, 0});
        sub->has_assertions = true;
        p_.looks.push_back({n.negative, std::move(sub)});
        push({Op::look, static_cast<std::uint32_t>(p_.looks.size() - 1), 0});
        return true;
      }
    }
    return false;
  }

 private:
  std::uint32_t here() const { return static_cast<std::uint32_t>(p_.code.size()); }
  std::size_t push(Inst inst) {
    p_.code.push_back(inst);
    return p_.code.size() - 1;
  }
  std::uint32_t set_index(const Set& s) {
    // Most sets are one literal byte: those are found through a table, not by comparison.
    const int byte = single_byte(s);
    const bool single = byte >= 0;
    if (single) {
      if (single_[static_cast<std::size_t>(byte)] != kNone) return single_[static_cast<std::size_t>(byte)];
    } else {
      for (std::size_t k = 0; k < p_.sets.size(); ++k)
        if (p_.sets[k] == s) return static_cast<std::uint32_t>(k);
    }
    p_.sets.push_back(s);
    const auto index = static_cast<std::uint32_t>(p_.sets.size() - 1);
    if (single) single_[static_cast<std::size_t>(byte)] = index;
    return index;
  }

  // The reversed body of `.`'s look-ahead, `[\xA8\xA9]\x80\xE2`, compiled once for every
  // program (Pattern::size counts it; the VM scans for it instead of running it).
  static std::shared_ptr<const Program> line_separator_body() {
    static const std::shared_ptr<const Program> body = [] {
      auto p = std::make_shared<Program>();
      p->sets = {byte_set({0xA8, 0xA9}), byte_set({0x80}), byte_set({0xE2})};
      p->code = {{Op::byte_set, 0, 0}, {Op::byte_set, 1, 0}, {Op::byte_set, 2, 0}, {Op::match, 0, 0}};
      return p;
    }();
    return body;
  }

  static constexpr std::uint32_t kNone = ~0u;
  std::uint32_t line_separator_look_ = kNone;
  std::array<std::uint32_t, 256> single_ = make_single();
  static std::array<std::uint32_t, 256> make_single() {
    std::array<std::uint32_t, 256> a{};
    a.fill(kNone);
    return a;
  }

  bool emit_repeat(const Node& n) {
    const Node& body = n.kids[0];
    int mandatory = n.min;
    if (n.max == -1 && mandatory > 0) --mandatory;  // the last mandatory copy heads the loop
    for (int k = 0; k < mandatory; ++k) if (!emit(body)) return false;
    if (n.max == -1) {
      if (n.min > 0) {  // L: body; split L, next
        auto loop = here();
        if (!emit(body)) return false;
        auto split = push({Op::split, loop, 0});
        p_.code[split].b = here();
      } else {  // L: split body, end; body; jump L
        auto split = push({Op::split, 0, 0});
        p_.code[split].a = here();
        if (!emit(body)) return false;
        push({Op::jump, static_cast<std::uint32_t>(split), 0});
        p_.code[split].b = here();
      }
      return true;
    }
    std::vector<std::size_t> splits;
    for (int k = n.min; k < n.max; ++k) {
      auto split = push({Op::split, 0, 0});
      p_.code[split].a = here();
      splits.push_back(split);
      if (!emit(body)) return false;
    }
    for (auto s : splits) p_.code[s].b = here();
    return true;
  }

  Program& p_;
};

// A sparse set of program counters for one input position.
class ThreadList {
 public:
  explicit ThreadList(std::size_t size) : stamp_(size, 0) {}
  void clear() {
    ++generation_;
    pcs_.clear();
  }
  bool mark(std::uint32_t pc) {
    if (stamp_[pc] == generation_) return false;
    stamp_[pc] = generation_;
    return true;
  }
  void keep(std::uint32_t pc) { pcs_.push_back(pc); }
  const std::vector<std::uint32_t>& pcs() const { return pcs_; }

 private:
  std::vector<std::uint32_t> stamp_;
  std::uint32_t generation_ = 1;
  std::vector<std::uint32_t> pcs_;
};

using LookTables = std::vector<std::vector<char>>;

bool is_regex_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}  // [look][position] -> the body matches there

class Vm {
 public:
  Vm(const Program& p, std::string_view in, MatchStats* stats)
      : p_(p), in_(in), stats_(stats), a_(p.code.size()), b_(p.code.size()) {
    compute_looks();
  }

  bool forward() {
    ThreadList* cur = &a_;
    ThreadList* next = &b_;
    cur->clear();
    add(*cur, 0, 0);
    for (std::size_t pos = 0; pos < in_.size(); ++pos) {
      const auto c = static_cast<unsigned char>(in_[pos]);
      next->clear();
      step(*cur, *next, c, pos + 1);
      std::swap(cur, next);
      if (cur->pcs().empty()) return false;
    }
    return accepts(*cur);
  }

  // out[p] = the program (a reversed look-ahead body) matches some input[p..q).
  std::vector<char> backward() {
    std::vector<char> out(in_.size() + 1, 0);
    ThreadList* cur = &a_;
    ThreadList* next = &b_;
    cur->clear();
    add(*cur, 0, in_.size());
    out[in_.size()] = accepts(*cur);
    for (std::size_t pos = in_.size(); pos > 0; --pos) {
      const auto c = static_cast<unsigned char>(in_[pos - 1]);
      next->clear();
      step(*cur, *next, c, pos - 1);
      add(*next, 0, pos - 1);
      std::swap(cur, next);
      out[pos - 1] = accepts(*cur);
    }
    return out;
  }

 private:
  void count(std::uint64_t n) {
    if (stats_ != nullptr) stats_->steps += n;
  }

  void compute_looks() {
    for (const auto& look : p_.looks) {
      if (look.line_separator) {
        tables_.push_back(line_separator_table());
        continue;
      }
      Vm sub(*look.reversed, in_, stats_);
      tables_.push_back(sub.backward());
    }
  }

  // [p] = input[p..] starts with U+2028 or U+2029 (what backward() of the look's body gives),
  // by a scan: most paths hold no E2 byte at all.
  std::vector<char> line_separator_table() const {
    std::vector<char> out(in_.size() + 1, 0);
    for (auto at = in_.find('\xE2'); at != std::string_view::npos; at = in_.find('\xE2', at + 1)) {
      const auto third = at + 2 < in_.size() ? static_cast<unsigned char>(in_[at + 2]) : 0;
      out[at] = static_cast<unsigned char>(in_[at + 1 < in_.size() ? at + 1 : at]) == 0x80 &&
                (third == 0xA8 || third == 0xA9);
    }
    return out;
  }

  bool accepts(const ThreadList& list) const {
    for (auto pc : list.pcs())
      if (p_.code[pc].op == Op::match) return true;
    return false;
  }

  void step(const ThreadList& cur, ThreadList& next, unsigned char c, std::size_t pos) {
    count(cur.pcs().size());
    for (auto pc : cur.pcs()) {
      const Inst& inst = p_.code[pc];
      if (inst.op == Op::byte_set && p_.sets[inst.a].test(c)) add(next, pc + 1, pos);
    }
  }

  // Follows epsilon edges from pc at position pos, keeping consuming and accepting states.
  void add(ThreadList& list, std::uint32_t pc, std::size_t pos) {
    stack_.clear();
    stack_.push_back(pc);
    while (!stack_.empty()) {
      auto at = stack_.back();
      stack_.pop_back();
      if (!list.mark(at)) continue;
      count(1);
      const Inst& inst = p_.code[at];
      switch (inst.op) {
        case Op::byte_set:
        case Op::match: list.keep(at); break;
        case Op::jump: stack_.push_back(inst.a); break;
        case Op::split:
          stack_.push_back(inst.b);
          stack_.push_back(inst.a);
          break;
        case Op::assert_begin: if (pos == 0) stack_.push_back(at + 1); break;
        case Op::assert_end: if (pos == in_.size()) stack_.push_back(at + 1); break;
        case Op::word_boundary: {
          const bool before = pos > 0 && is_regex_word(in_[pos - 1]);
          const bool after = pos < in_.size() && is_regex_word(in_[pos]);
          if ((before != after) == (inst.a == 1)) stack_.push_back(at + 1);
          break;
        }
        case Op::look: {
          const bool holds = tables_[inst.a][pos] != 0;
          if (holds != p_.looks[inst.a].negative) stack_.push_back(at + 1);
          break;
        }
      }
    }
  }

  const Program& p_;
  std::string_view in_;
  MatchStats* stats_;
  ThreadList a_, b_;
  std::vector<std::uint32_t> stack_;
  LookTables tables_;
};

}  // namespace

std::variant<std::shared_ptr<const Program>, std::string> compile_regex(std::string_view regex) {
  RegexParser parser(regex);
  auto parsed = parser.parse();
  if (auto* error = std::get_if<std::string>(&parsed)) return *error;
  auto program = std::make_shared<Program>();
  program->regex = std::string(regex);
  program->code.reserve(regex.size() + 2);
  Emitter emitter(*program);
  if (!emitter.emit(std::get<Node>(parsed))) return std::string("pattern too complex");
  program->code.push_back({Op::match, 0, 0});
  if (program->code.size() > kMaxProgram) return std::string("pattern too complex");
  return std::shared_ptr<const Program>(std::move(program));
}

bool run_program(const Program& program, std::string_view input, MatchStats* stats) {
  Vm vm(program, input, stats);
  return vm.forward();
}

}  // namespace gatekit::glob::detail
