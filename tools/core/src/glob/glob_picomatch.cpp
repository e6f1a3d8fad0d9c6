// Dialect `picomatch`: a line-by-line translation of picomatch 2.3.1's parser (lib/parse.js,
// with the fast paths of lib/picomatch.js makeRe) for the options dorny/paths-filter uses,
// {dot: true} on POSIX. It produces the same regular expression source picomatch does,
// quirks included, which glob_regex.cpp then runs without backtracking. Keeping the shape of
// the original (tokens, `prev`, output slicing, the final rebuild) is deliberate: exactness is
// checked against the npm package by tests/path-classifier/test_picomatch_diff.py.
#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <optional>

#include "glob_program.hpp"

namespace gatekit::glob::detail {
namespace {

// ---- constants (lib/constants.js, POSIX) ----
const std::string DOT_LITERAL = "\\.";
const std::string PLUS_LITERAL = "\\+";
const std::string SLASH_LITERAL = "\\/";
const std::string ONE_CHAR = "(?=.)";
const std::string QMARK = "[^/]";
const std::string END_ANCHOR = "(?:" + SLASH_LITERAL + "|$)";
const std::string START_ANCHOR = "(?:^|" + SLASH_LITERAL + ")";
const std::string DOTS_SLASH = DOT_LITERAL + "{1,2}" + END_ANCHOR;
const std::string NO_DOTS = "(?!" + START_ANCHOR + DOTS_SLASH + ")";
const std::string NO_DOT_SLASH = "(?!" + DOT_LITERAL + "{0,1}" + END_ANCHOR + ")";
const std::string NO_DOTS_SLASH = "(?!" + DOTS_SLASH + ")";
const std::string STAR = QMARK + "*?";
const std::string GLOBSTAR = "(?:(?:(?!" + START_ANCHOR + DOTS_SLASH + ").)*?)";  // globstar({dot: true})
constexpr std::size_t MAX_LENGTH = 1024 * 64;

std::optional<std::string> posix_class(const std::string& name) {
  static const std::pair<const char*, const char*> table[] = {
      {"alnum", "a-zA-Z0-9"}, {"alpha", "a-zA-Z"}, {"ascii", "\\x00-\\x7F"}, {"blank", " \\t"},
      {"cntrl", "\\x00-\\x1F\\x7F"}, {"digit", "0-9"}, {"graph", "\\x21-\\x7E"}, {"lower", "a-z"},
      {"print", "\\x20-\\x7E "}, {"punct", "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~"},
      {"space", " \\t\\r\\n\\v\\f"}, {"upper", "A-Z"}, {"word", "A-Za-z0-9_"}, {"xdigit", "A-Fa-f0-9"}};
  for (const auto& [k, v] : table)
    if (name == k) return std::string(v);
  return std::nullopt;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_regex_special(char c) { return std::string_view("-*+?.^${}(|)[]").find(c) != std::string_view::npos; }

std::string escape_regex(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (is_regex_special(c)) out += '\\';
    out += c;
  }
  return out;
}

bool has_regex_chars(const std::string& s) { return std::any_of(s.begin(), s.end(), is_regex_special); }

// JS `s.slice(0, -n)`: note that -0 is 0, which empties the string.
std::string slice_neg(const std::string& s, std::size_t n) {
  if (n == 0 || n >= s.size()) return "";
  return s.substr(0, s.size() - n);
}

std::string escape_last(const std::string& input, char c, std::optional<std::size_t> last = std::nullopt) {
  std::size_t from = last ? *last : std::string::npos;
  auto idx = input.rfind(c, from);
  if (idx == std::string::npos) return input;
  if (idx > 0 && input[idx - 1] == '\\') {
    if (idx - 1 == 0) return input;  // lastIndexOf(c, 0) finds only the '\\' at 0: no match
    return escape_last(input, c, idx - 1);
  }
  return input.substr(0, idx) + "\\" + input.substr(idx);
}

const std::string* replacement(const std::string& input) {
  static const std::string star = "*", globstar = "**";
  if (input == "***") return &star;
  if (input == "**/**" || input == "**/**/**") return &globstar;
  return nullptr;
}

// JS `String(x)` of an output that may be undefined.
struct Output {
  bool set = false;
  std::string text;
  Output() = default;
  Output(std::string t) : set(true), text(std::move(t)) {}  // NOLINT: implicit like JS
  std::string str() const { return set ? text : "undefined"; }
};

struct Token {
  std::string type;
  std::string value;
  Output output;
  Token* prev = nullptr;
  bool extglob = false;
  bool star = false;
  bool posix = false;
  bool dots = false;
  bool comma = false;
  std::size_t output_index = 0;
  std::size_t tokens_index = 0;
};

struct Extglob {
  std::string type;
  std::string open;
  std::string close;
  std::string inner;
  Token* prev = nullptr;
  int parens = 0;
};

struct ParseResult {
  std::string output;
  bool negated = false;
  // picomatch 2.3.1 never returns: a run of backslashes moved its index past the end, and
  // its `state.index === len - 1` end test never holds again (see eos()).
  bool runs_forever = false;
};

class Parser {
 public:
  Parser(std::string input, bool fastpaths) : fastpaths_(fastpaths) {
    if (const auto* r = replacement(input)) input = *r;
    input_ = std::move(input);
  }

  ParseResult parse() {
    bos_ = make({"bos", "", Output(std::string())});
    tokens_.push_back(bos_);
    prev_ = bos_;
    // utils.removePrefix
    if (input_.rfind("./", 0) == 0) input_ = input_.substr(2);
    len_ = static_cast<long>(input_.size());

    if (fastpaths_ && !fast_excluded()) return fast_path();

    while (!eos()) {
      std::string value = advance();
      if (value == std::string(1, '\0')) continue;
      if (value == "\\") {
        const int next = peek();
        if (next == '/') continue;
        if (next == '.' || next == ';') continue;
        if (next == -1) {
          value += "\\";
          push(make({"text", value}));
          continue;
        }
        std::size_t slashes = 0;
        const std::string rest = remaining();
        while (slashes < rest.size() && rest[slashes] == '\\') ++slashes;
        if (slashes > 2) {
          index_ += static_cast<long>(slashes);
          if (slashes % 2 != 0) value += "\\";
        }
        value += advance();
        if (brackets_ == 0) {
          push(make({"text", value}));
          continue;
        }
      }

      if (brackets_ > 0 && (value != "]" || prev_->value == "[" || prev_->value == "[^")) {
        if (value == ":") {
          const std::string inner = prev_->value.substr(1);
          if (inner.find('[') != std::string::npos) {
            prev_->posix = true;
            if (inner.find(':') != std::string::npos) {
              const auto idx = prev_->value.rfind('[');
              const std::string pre = prev_->value.substr(0, idx);
              const std::string rest = prev_->value.size() > idx + 2 ? prev_->value.substr(idx + 2) : "";
              if (auto posix = posix_class(rest)) {
                prev_->value = pre + *posix;
                backtrack_ = true;
                advance();
                if ((!bos_->output.set || bos_->output.text.empty()) && index_of(prev_) == 1) bos_->output = ONE_CHAR;
                continue;
              }
            }
          }
        }
        if ((value == "[" && peek() != ':') || (value == "-" && peek() == ']')) value = "\\" + value;
        if (value == "]" && (prev_->value == "[" || prev_->value == "[^")) value = "\\" + value;
        prev_->value += value;
        append_value(value);
        continue;
      }

      if (quotes_ == 1 && value != "\"") {
        value = escape_regex(value);
        prev_->value += value;
        append_value(value);
        continue;
      }
      if (value == "\"") {
        quotes_ = quotes_ == 1 ? 0 : 1;
        continue;
      }

      if (value == "(") {
        increment("parens");
        push(make({"paren", value}));
        continue;
      }
      if (value == ")") {
        if (!extglobs_.empty() && parens_ == extglobs_.back().parens + 1) {
          auto eg = extglobs_.back();
          extglobs_.pop_back();
          extglob_close(eg);
          continue;
        }
        push(make({"paren", value, Output(parens_ != 0 ? ")" : "\\)")}));
        decrement("parens");
        continue;
      }

      if (value == "[") {
        if (remaining().find(']') == std::string::npos) value = "\\" + value;
        else increment("brackets");
        push(make({"bracket", value}));
        continue;
      }
      if (value == "]") {
        if (prev_->type == "bracket" && prev_->value.size() == 1) {
          push(make({"text", value, Output("\\" + value)}));
          continue;
        }
        if (brackets_ == 0) {
          push(make({"text", value, Output("\\" + value)}));
          continue;
        }
        decrement("brackets");
        const std::string prev_value = prev_->value.substr(1);
        if (!prev_->posix && !prev_value.empty() && prev_value[0] == '^' && prev_value.find('/') == std::string::npos)
          value = "/" + value;
        prev_->value += value;
        append_value(value);
        if (has_regex_chars(prev_value)) continue;
        const std::string escaped = escape_regex(prev_->value);
        output_ = slice_neg(output_, prev_->value.size());
        prev_->value = "(?:" + escaped + "|" + prev_->value + ")";
        output_ += prev_->value;
        continue;
      }

      if (value == "{") {
        increment("braces");
        Token* open = make({"brace", value, Output("(")});
        open->output_index = output_.size();
        open->tokens_index = tokens_.size();
        braces_.push_back(open);
        push(open);
        continue;
      }
      if (value == "}") {
        Token* brace = braces_.empty() ? nullptr : braces_.back();
        if (brace == nullptr) {
          push(make({"text", value, Output(value)}));
          continue;
        }
        std::string output = ")";
        if (brace->dots) {
          std::vector<Token*> arr = tokens_;
          std::vector<std::string> range;
          for (long i = static_cast<long>(arr.size()) - 1; i >= 0; --i) {
            tokens_.pop_back();
            if (arr[static_cast<std::size_t>(i)]->type == "brace") break;
            if (arr[static_cast<std::size_t>(i)]->type != "dots") range.insert(range.begin(), arr[static_cast<std::size_t>(i)]->value);
          }
          output = expand_range(range);
          backtrack_ = true;
        }
        if (!brace->comma && !brace->dots) {
          std::string out = output_.substr(0, std::min(brace->output_index, output_.size()));
          std::vector<Token*> toks(tokens_.begin() + static_cast<long>(std::min(brace->tokens_index, tokens_.size())), tokens_.end());
          brace->value = "\\{";
          brace->output = std::string("\\{");
          value = output = "\\}";
          output_ = out;
          for (Token* t : toks) output_ += (t->output.set && !t->output.text.empty()) ? t->output.text : t->value;
        }
        push(make({"brace", value, Output(output)}));
        decrement("braces");
        braces_.pop_back();
        continue;
      }

      if (value == "|") {
        push(make({"text", value}));
        continue;
      }
      if (value == ",") {
        std::string output = value;
        Token* brace = braces_.empty() ? nullptr : braces_.back();
        if (brace != nullptr && !stack_.empty() && stack_.back() == "braces") {
          brace->comma = true;
          output = "|";
        }
        push(make({"comma", value, Output(output)}));
        continue;
      }

      if (value == "/") {
        if (prev_->type == "dot" && index_ == start_ + 1) {
          start_ = index_ + 1;
          output_.clear();
          tokens_.pop_back();
          prev_ = bos_;
          continue;
        }
        push(make({"slash", value, Output(SLASH_LITERAL)}));
        continue;
      }

      if (value == ".") {
        if (braces_count_ > 0 && prev_->type == "dot") {
          if (prev_->value == ".") prev_->output = DOT_LITERAL;
          Token* brace = braces_.back();
          prev_->type = "dots";
          prev_->output = prev_->output.str() + value;
          prev_->value += value;
          brace->dots = true;
          continue;
        }
        if (braces_count_ + parens_ == 0 && prev_->type != "bos" && prev_->type != "slash") {
          push(make({"text", value, Output(DOT_LITERAL)}));
          continue;
        }
        push(make({"dot", value, Output(DOT_LITERAL)}));
        continue;
      }

      if (value == "?") {
        const bool is_group = prev_->value == "(";
        if (!is_group && peek() == '(' && peek(2) != '?') {
          extglob_open("qmark", value);
          continue;
        }
        if (prev_->type == "paren") {
          const int next = peek();
          std::string output = value;
          const bool special = next == '!' || next == '=' || next == '<' || next == ':';
          if ((prev_->value == "(" && !special) || (next == '<' && !lookbehind_like(remaining())))
            output = "\\" + value;
          push(make({"text", value, Output(output)}));
          continue;
        }
        push(make({"qmark", value, Output(QMARK)}));
        continue;
      }

      if (value == "!") {
        if (peek() == '(') {
          const int third = peek(3);
          const bool special = third == '!' || third == '=' || third == '<' || third == ':';
          if (peek(2) != '?' || !special) {
            extglob_open("negate", value);
            continue;
          }
        }
        if (index_ == 0) {
          negate();
          continue;
        }
      }

      if (value == "+") {
        if (peek() == '(' && peek(2) != '?') {
          extglob_open("plus", value);
          continue;
        }
        if (prev_->value == "(") {
          push(make({"plus", value, Output(PLUS_LITERAL)}));
          continue;
        }
        if (prev_->type == "bracket" || prev_->type == "paren" || prev_->type == "brace" || parens_ > 0) {
          push(make({"plus", value}));
          continue;
        }
        push(make({"plus", PLUS_LITERAL}));
        continue;
      }

      if (value == "@") {
        if (peek() == '(' && peek(2) != '?') {
          Token* t = make({"at", value, Output(std::string())});
          t->extglob = true;
          push(t);
          continue;
        }
        push(make({"text", value}));
        continue;
      }

      if (value != "*") {
        if (value == "$" || value == "^") value = "\\" + value;
        const std::string rest = remaining();
        std::size_t n = 0;
        while (n < rest.size() && std::string_view("@![].,$*+?^{}()|\\/").find(rest[n]) == std::string_view::npos) ++n;
        if (n > 0) {
          value += rest.substr(0, n);
          index_ += static_cast<long>(n);
        }
        push(make({"text", value}));
        continue;
      }

      // ---- stars ----
      if (prev_->type == "globstar" || prev_->star) {
        prev_->type = "star";
        prev_->star = true;
        prev_->value += value;
        prev_->output = STAR;
        backtrack_ = true;
        continue;
      }
      std::string rest = remaining();
      if (rest.size() >= 2 && rest[0] == '(' && rest[1] != '?') {
        extglob_open("star", value);
        continue;
      }
      if (prev_->type == "star") {
        Token* prior = prev_->prev;
        Token* before = prior->prev;
        const bool is_start = prior->type == "slash" || prior->type == "bos";
        const bool after_star = before != nullptr && (before->type == "star" || before->type == "globstar");
        const bool is_brace = braces_count_ > 0 && (prior->type == "comma" || prior->type == "brace");
        const bool is_extglob = !extglobs_.empty() && (prior->type == "pipe" || prior->type == "paren");
        if (!is_start && prior->type != "paren" && !is_brace && !is_extglob) {
          push(make({"star", value, Output(std::string())}));
          continue;
        }
        while (rest.compare(0, 3, "/**") == 0) {
          const int after = at(index_ + 4);
          if (after != -1 && after != '/') break;
          rest = rest.substr(3);
          index_ += 3;
        }
        if (prior->type == "bos" && eos()) {
          prev_->type = "globstar";
          prev_->value += value;
          prev_->output = GLOBSTAR;
          output_ = prev_->output.text;
          continue;
        }
        if (prior->type == "slash" && prior->prev->type != "bos" && !after_star && eos()) {
          output_ = slice_neg(output_, (prior->output.str() + prev_->output.str()).size());
          prior->output = "(?:" + prior->output.str();
          prev_->type = "globstar";
          prev_->output = GLOBSTAR + "|$)";
          prev_->value += value;
          output_ += prior->output.text + prev_->output.text;
          continue;
        }
        if (prior->type == "slash" && prior->prev->type != "bos" && !rest.empty() && rest[0] == '/') {
          const std::string end = rest.size() > 1 ? "|$" : "";
          output_ = slice_neg(output_, (prior->output.str() + prev_->output.str()).size());
          prior->output = "(?:" + prior->output.str();
          prev_->type = "globstar";
          prev_->output = GLOBSTAR + SLASH_LITERAL + "|" + SLASH_LITERAL + end + ")";
          prev_->value += value;
          output_ += prior->output.text + prev_->output.text;
          advance();
          push(make({"slash", "/", Output(std::string())}));
          continue;
        }
        if (prior->type == "bos" && !rest.empty() && rest[0] == '/') {
          prev_->type = "globstar";
          prev_->value += value;
          prev_->output = "(?:^|" + SLASH_LITERAL + "|" + GLOBSTAR + SLASH_LITERAL + ")";
          output_ = prev_->output.text;
          advance();
          push(make({"slash", "/", Output(std::string())}));
          continue;
        }
        output_ = slice_neg(output_, prev_->output.str().size());
        prev_->type = "globstar";
        prev_->output = GLOBSTAR;
        prev_->value += value;
        output_ += prev_->output.text;
        continue;
      }

      Token* token = make({"star", value, Output(STAR)});
      if (index_ == start_ || prev_->type == "slash" || prev_->type == "dot") {
        if (prev_->type == "dot") {
          output_ += NO_DOT_SLASH;
          prev_->output = prev_->output.str() + NO_DOT_SLASH;
        } else {
          output_ += NO_DOTS_SLASH;
          prev_->output = prev_->output.str() + NO_DOTS_SLASH;
        }
        if (peek() != '*') {
          output_ += ONE_CHAR;
          prev_->output = prev_->output.str() + ONE_CHAR;
        }
      }
      push(token);
    }

    while (brackets_ > 0) {
      output_ = escape_last(output_, '[');
      decrement("brackets");
    }
    while (parens_ > 0) {
      output_ = escape_last(output_, '(');
      decrement("parens");
    }
    while (braces_count_ > 0) {
      output_ = escape_last(output_, '{');
      decrement("braces");
    }
    if (prev_->type == "star" || prev_->type == "bracket") push(make({"maybe_slash", "", Output(SLASH_LITERAL + "?")}));

    if (backtrack_) {
      output_.clear();
      for (Token* t : tokens_) output_ += t->output.set ? t->output.text : t->value;
    }
    return {output_, negated_, index_ > len_ - 1};
  }

 private:
  Token* make(Token t) {
    arena_.push_back(std::make_unique<Token>(std::move(t)));
    return arena_.back().get();
  }
  int at(long i) const {
    if (i < 0 || i >= len_) return -1;
    return static_cast<unsigned char>(input_[static_cast<std::size_t>(i)]);
  }
  // picomatch tests `index === len - 1`; past the end (a trailing run of 4+ backslashes skips
  // over it) it loops forever, allocating tokens. Here the loop ends, and parse() reports it.
  bool eos() const { return index_ >= len_ - 1; }
  int peek(long n = 1) const { return at(index_ + n); }
  std::string advance() {
    ++index_;
    const int c = at(index_);
    return c == -1 ? std::string() : std::string(1, static_cast<char>(c));
  }
  std::string remaining() const {
    const long from = index_ + 1;
    return from >= len_ ? std::string() : input_.substr(static_cast<std::size_t>(from));
  }
  long index_of(const Token* t) const {
    for (std::size_t i = 0; i < tokens_.size(); ++i)
      if (tokens_[i] == t) return static_cast<long>(i);
    return -1;
  }

  void append(const Token& t) { output_ += t.output.set ? t.output.text : t.value; }
  void append_value(const std::string& value) { output_ += value; }

  void negate() {
    int count = 1;
    while (peek() == '!' && (peek(2) != '(' || peek(3) == '?')) {
      advance();
      ++start_;
      ++count;
    }
    if (count % 2 == 0) return;
    negated_ = true;
    ++start_;
  }

  void increment(const std::string& type) {
    counter(type)++;
    stack_.push_back(type);
  }
  void decrement(const std::string& type) {
    counter(type)--;
    if (!stack_.empty()) stack_.pop_back();
  }
  int& counter(const std::string& type) {
    if (type == "parens") return parens_;
    if (type == "brackets") return brackets_;
    return braces_count_;
  }

  void push(Token* tok) {
    if (prev_->type == "globstar") {
      const bool is_brace = braces_count_ > 0 && (tok->type == "comma" || tok->type == "brace");
      const bool is_extglob = tok->extglob || (!extglobs_.empty() && (tok->type == "pipe" || tok->type == "paren"));
      if (tok->type != "slash" && tok->type != "paren" && !is_brace && !is_extglob) {
        output_ = slice_neg(output_, prev_->output.str().size());
        prev_->type = "star";
        prev_->value = "*";
        prev_->output = STAR;
        output_ += prev_->output.text;
      }
    }
    if (!extglobs_.empty() && tok->type != "paren") extglobs_.back().inner += tok->value;
    if (!tok->value.empty() || (tok->output.set && !tok->output.text.empty())) append(*tok);
    if (prev_->type == "text" && tok->type == "text") {
      prev_->value += tok->value;
      prev_->output = (prev_->output.set ? prev_->output.text : std::string()) + tok->value;
      return;
    }
    tok->prev = prev_;
    tokens_.push_back(tok);
    prev_ = tok;
  }

  void extglob_open(const std::string& type, const std::string& value) {
    Extglob eg;
    eg.type = type;
    eg.open = type == "negate" ? "(?:(?!(?:" : "(?:";
    if (type == "negate") eg.close = "))" + STAR + ")";
    else if (type == "qmark") eg.close = ")?";
    else if (type == "plus") eg.close = ")+";
    else if (type == "star") eg.close = ")*";
    else eg.close = ")";
    eg.prev = prev_;
    eg.parens = parens_;
    increment("parens");
    push(make({type, value, Output(output_.empty() ? ONE_CHAR : std::string())}));
    Token* paren = make({"paren", advance(), Output(eg.open)});
    paren->extglob = true;
    push(paren);
    extglobs_.push_back(eg);
  }

  void extglob_close(Extglob& token) {
    std::string output = token.close;
    if (token.type == "negate") {
      std::string extglob_star = STAR;
      if (token.inner.size() > 1 && token.inner.find('/') != std::string::npos) extglob_star = GLOBSTAR;
      const std::string rest = remaining();
      const bool only_parens = !rest.empty() && rest.find_first_not_of(')') == std::string::npos;
      if (extglob_star != STAR || eos() || only_parens) output = token.close = ")$))" + extglob_star;
      if (token.inner.find('*') != std::string::npos && !rest.empty() && rest[0] == '.' && rest.size() > 1 &&
          rest.find_first_of("\\/.", 1) == std::string::npos) {
        Parser sub(rest, false);
        const std::string expression = sub.parse().output;
        output = token.close = ")" + expression + ")" + extglob_star + ")";
      }
    }
    Token* t = make({"paren", ")", Output(output)});
    t->extglob = true;
    push(t);
    decrement("parens");
  }

  static bool lookbehind_like(const std::string& rest) {
    // /<([!=]|\w+>)/ anywhere in rest
    for (std::size_t i = 0; i < rest.size(); ++i) {
      if (rest[i] != '<') continue;
      if (i + 1 < rest.size() && (rest[i + 1] == '!' || rest[i + 1] == '=')) return true;
      std::size_t j = i + 1;
      while (j < rest.size() && is_word(rest[j])) ++j;
      if (j > i + 1 && j < rest.size() && rest[j] == '>') return true;
    }
    return false;
  }

  std::string expand_range(std::vector<std::string> args) const {
    std::sort(args.begin(), args.end());
    std::string value = "[";
    for (std::size_t i = 0; i < args.size(); ++i) value += (i ? "-" : "") + args[i];
    value += "]";
    if (std::holds_alternative<std::shared_ptr<const Program>>(compile_regex(value))) return value;
    std::string out;
    for (std::size_t i = 0; i < args.size(); ++i) out += (i ? ".." : "") + escape_regex(args[i]);
    return out;
  }

  // /(^[*!]|[/()[\]{}"])/ on the input: the fast path does not apply.
  bool fast_excluded() const {
    if (!input_.empty() && (input_[0] == '*' || input_[0] == '!')) return true;
    return input_.find_first_of("/()[]{}\"") != std::string::npos;
  }

  ParseResult fast_path() {
    bool backslashes = false;
    std::string out;
    const std::size_t n = input_.size();
    std::size_t i = 0;
    while (i < n) {
      // /(\\?)((\W)(\3*))/g
      std::string esc;
      std::size_t first_at;
      if (input_[i] == '\\' && i + 1 < n && !is_word(input_[i + 1])) {
        esc = "\\";
        first_at = i + 1;
      } else if (!is_word(input_[i])) {
        first_at = i;
      } else {
        out += input_[i++];
        continue;
      }
      const char first = input_[first_at];
      std::size_t j = first_at + 1;
      while (j < n && input_[j] == first) ++j;
      const std::string m = input_.substr(i, j - i);
      const std::size_t rest = j - first_at - 1;
      const std::size_t chars = j - first_at;
      std::string r;
      if (first == '\\') {
        backslashes = true;
        r = m;
      } else if (first == '?') {
        if (!esc.empty()) {
          r = esc + first;
          for (std::size_t k = 0; k < rest; ++k) r += QMARK;
        } else {
          for (std::size_t k = 0; k < (i == 0 ? rest + 1 : chars); ++k) r += QMARK;
        }
      } else if (first == '.') {
        for (std::size_t k = 0; k < chars; ++k) r += DOT_LITERAL;
      } else if (first == '*') {
        r = !esc.empty() ? esc + first + (rest ? STAR : std::string()) : STAR;
      } else {
        r = !esc.empty() ? m : "\\" + m;
      }
      out += r;
      i = j;
    }
    if (backslashes) {
      std::string collapsed;
      for (std::size_t k = 0; k < out.size();) {
        if (out[k] != '\\') {
          collapsed += out[k++];
          continue;
        }
        std::size_t run = 0;
        while (k + run < out.size() && out[k + run] == '\\') ++run;
        collapsed += run % 2 == 0 ? "\\\\" : "\\";
        k += run;
      }
      out = collapsed;
    }
    return {"^(?:" + out + ")$", false};
  }

  std::string input_;
  bool fastpaths_ = true;
  long len_ = 0;
  long index_ = -1;
  long start_ = 0;
  int brackets_ = 0;
  int braces_count_ = 0;
  int parens_ = 0;
  int quotes_ = 0;
  bool backtrack_ = false;
  bool negated_ = false;
  std::string output_;
  std::vector<std::unique_ptr<Token>> arena_;
  std::vector<Token*> tokens_;
  std::vector<Token*> braces_;
  std::vector<std::string> stack_;
  std::vector<Extglob> extglobs_;
  Token* bos_ = nullptr;
  Token* prev_ = nullptr;
};

// lib/parse.js parse.fastpaths ({dot: true}); nullopt when no fast path applies.
std::optional<std::string> fastpaths(std::string input) {
  if (const auto* r = replacement(input)) input = *r;
  if (input.rfind("./", 0) == 0) input = input.substr(2);
  const std::string nodot = NO_DOTS, slash_dot = NO_DOTS_SLASH;
  std::function<std::optional<std::string>(const std::string&)> create = [&](const std::string& str)
      -> std::optional<std::string> {
    if (str == "*") return nodot + ONE_CHAR + STAR;
    if (str == ".*") return DOT_LITERAL + ONE_CHAR + STAR;
    if (str == "*.*") return nodot + STAR + DOT_LITERAL + ONE_CHAR + STAR;
    if (str == "*/*") return nodot + STAR + SLASH_LITERAL + ONE_CHAR + slash_dot + STAR;
    if (str == "**") return nodot + GLOBSTAR;
    if (str == "**/*") return "(?:" + nodot + GLOBSTAR + SLASH_LITERAL + ")?" + slash_dot + ONE_CHAR + STAR;
    if (str == "**/*.*")
      return "(?:" + nodot + GLOBSTAR + SLASH_LITERAL + ")?" + slash_dot + STAR + DOT_LITERAL + ONE_CHAR + STAR;
    if (str == "**/.*") return "(?:" + nodot + GLOBSTAR + SLASH_LITERAL + ")?" + DOT_LITERAL + ONE_CHAR + STAR;
    // /^(.*?)\.(\w+)$/: the first '.' followed only by word characters to the end
    for (std::size_t k = 0; k < str.size(); ++k) {
      if (str[k] != '.' || k + 1 >= str.size()) continue;
      if (!std::all_of(str.begin() + static_cast<long>(k) + 1, str.end(), is_word)) continue;
      auto source = create(str.substr(0, k));
      if (!source) return std::nullopt;
      return *source + DOT_LITERAL + str.substr(k + 1);
    }
    return std::nullopt;
  };
  auto source = create(input);
  if (source) *source += SLASH_LITERAL + "?";
  return source;
}

// Quantified extglobs nested in one another, or with alternatives that overlap (one a prefix
// of another), match differently across picomatch versions: refuse them instead of guessing.
std::optional<PatternError> ambiguous_extglob(std::string_view text) {
  struct Open {
    std::size_t at;
    bool quantified;
    std::size_t body;
  };
  std::vector<Open> stack;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '(') {
      const bool ext = i > 0 && std::string_view("+*@?!").find(text[i - 1]) != std::string_view::npos;
      const bool quantified = ext && (text[i - 1] == '+' || text[i - 1] == '*');
      if (quantified)
        for (const auto& o : stack)
          if (o.quantified)
            return PatternError{static_cast<int>(i), "nested quantified extglobs change meaning between picomatch versions",
                                "write the repetition out, e.g. one pattern per alternative"};
      stack.push_back({ext ? i - 1 : i, quantified, i + 1});
    } else if (c == ')' && !stack.empty()) {
      const Open o = stack.back();
      stack.pop_back();
      if (!o.quantified) continue;
      std::vector<std::string_view> alternatives;
      std::size_t start = o.body;
      int depth = 0;
      for (std::size_t k = o.body; k <= i; ++k) {
        if (k < i && text[k] == '\\') { ++k; continue; }
        if (k < i && text[k] == '(') ++depth;
        else if (k < i && text[k] == ')') --depth;
        else if (k == i || (text[k] == '|' && depth == 0)) {
          alternatives.push_back(text.substr(start, k - start));
          start = k + 1;
        }
      }
      for (std::size_t a = 0; a < alternatives.size(); ++a)
        for (std::size_t b = 0; b < alternatives.size(); ++b)
          if (a != b && alternatives[b].substr(0, alternatives[a].size()) == alternatives[a])
            return PatternError{static_cast<int>(o.at) + 1,
                                "overlapping alternatives in a quantified extglob ('" + std::string(alternatives[a]) +
                                    "' and '" + std::string(alternatives[b]) +
                                    "') change meaning between picomatch versions",
                                "list alternatives that cannot start alike, or write one pattern per alternative"};
    }
  }
  return std::nullopt;
}

}  // namespace

std::variant<Translation, PatternError> translate_picomatch(std::string_view text) {
  if (text.empty()) return PatternError{0, "empty pattern", "remove the entry, or write '**' to match every path"};
  if (auto e = ambiguous_extglob(text)) return *e;
  if (text.size() > MAX_LENGTH) return PatternError{0, "pattern longer than picomatch's limit of 65536", ""};
  const std::string input(text);
  ParseResult parsed;
  std::optional<std::string> fast;
  if (input[0] == '.' || input[0] == '*') fast = fastpaths(input);
  if (fast && !fast->empty()) {
    parsed.output = *fast;
  } else {
    Parser parser(input, true);
    parsed = parser.parse();
    if (parsed.runs_forever) {
      const auto run = input.find_last_not_of('\\') + 1;  // the trailing run of backslashes
      return PatternError{static_cast<int>(run) + 1,
                          "picomatch 2.3.1 never finishes parsing this pattern: it ends in a run of 4 or more backslashes",
                          "a backslash escapes the next character: end the pattern with '\\\\' (one literal "
                          "backslash), or remove the run"};
    }
  }
  // compileRe: the negation wraps the whole expression; Pattern keeps it apart instead.
  Translation out;
  out.regex = "^(?:" + parsed.output + ")$";
  out.negated = parsed.negated;
  return out;
}

std::vector<PatternWarning> lint_picomatch(std::string_view text) {
  std::vector<PatternWarning> out;
  if (!text.empty() && text[0] == '!' && (text.size() < 2 || text[1] != '('))
    out.push_back({1, "picomatch patterns are judged on their own: '" + std::string(text) +
                          "' matches every path its body does not match (it does not subtract from the other "
                          "patterns); use the github dialect for ordered exclusions"});
  return out;
}

}  // namespace gatekit::glob::detail
