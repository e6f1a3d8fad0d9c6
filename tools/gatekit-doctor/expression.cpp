// GitHub's expression language with unknown values (expression.hpp): a lexer, a recursive
// descent parser in GitHub's precedence (|| < && < == != < < <= > >= < ! < . [ ]) and an
// evaluator over known and unknown values.
#include "expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "gatekit/json.hpp"

namespace gatekit::gatekit_doctor::expr {

// ---- values --------------------------------------------------------------------------

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

int caseless_compare(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const char x = lower(a[i]);
    const char y = lower(b[i]);
    if (x != y) return static_cast<unsigned char>(x) < static_cast<unsigned char>(y) ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

bool caseless_equal(std::string_view a, std::string_view b) { return caseless_compare(a, b) == 0; }

}  // namespace

bool Caseless::operator()(const std::string& a, const std::string& b) const { return caseless_compare(a, b) < 0; }

Value Value::of(bool b) {
  Value v;
  v.kind = Kind::boolean;
  v.boolean = b;
  return v;
}

Value Value::of(double n) {
  Value v;
  v.kind = Kind::number;
  v.number = n;
  return v;
}

Value Value::of(std::string s) {
  Value v;
  v.kind = Kind::string;
  v.string = std::move(s);
  return v;
}

Value Value::array(std::vector<Value> items) {
  Value v;
  v.kind = Kind::array;
  v.items = std::move(items);
  return v;
}

Value Value::object(Object fields, bool open) {
  Value v;
  v.kind = Kind::object;
  v.fields = std::move(fields);
  v.open = open;
  return v;
}

Value Value::unknown(Truth truth) {
  Value v;
  v.kind = Kind::unknown;
  v.truth = truth;
  return v;
}

bool Value::fully_known() const {
  switch (kind) {
    case Kind::unknown: return false;
    case Kind::array:
      return std::all_of(items.begin(), items.end(), [](const Value& v) { return v.fully_known(); });
    case Kind::object:
      return !open && std::all_of(fields.begin(), fields.end(), [](const auto& f) { return f.second.fully_known(); });
    default: return true;
  }
}

Truth truth_of(const Value& value) {
  switch (value.kind) {
    case Value::Kind::null: return Truth::no;
    case Value::Kind::boolean: return value.boolean ? Truth::yes : Truth::no;
    case Value::Kind::number:
      return value.number == 0 || std::isnan(value.number) ? Truth::no : Truth::yes;
    case Value::Kind::string: return value.string.empty() ? Truth::no : Truth::yes;
    case Value::Kind::array:
    case Value::Kind::object: return Truth::yes;
    case Value::Kind::unknown: return value.truth;
  }
  return Truth::maybe;
}

namespace {

std::string number_text(double n) {
  if (std::isnan(n)) return "NaN";
  if (std::isinf(n)) return n > 0 ? "Infinity" : "-Infinity";
  if (n == 0) return "0";  // -0 too
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.15g", n);
  return buffer;
}

std::string trim_spaces(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

}  // namespace

std::string to_text(const Value& value) {
  switch (value.kind) {
    case Value::Kind::null: return "";
    case Value::Kind::boolean: return value.boolean ? "true" : "false";
    case Value::Kind::number: return number_text(value.number);
    case Value::Kind::string: return value.string;
    case Value::Kind::array: return "Array";
    case Value::Kind::object: return "Object";
    case Value::Kind::unknown: return "";
  }
  return "";
}

double to_number(const Value& value) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  switch (value.kind) {
    case Value::Kind::null: return 0;
    case Value::Kind::boolean: return value.boolean ? 1 : 0;
    case Value::Kind::number: return value.number;
    case Value::Kind::string: {
      const auto text = trim_spaces(value.string);
      if (text.empty()) return 0;
      if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        char* end = nullptr;
        const auto n = std::strtoull(text.c_str() + 2, &end, 16);
        return *end == '\0' ? static_cast<double>(n) : nan;
      }
      if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'O')) {
        char* end = nullptr;
        const auto n = std::strtoull(text.c_str() + 2, &end, 8);
        return *end == '\0' ? static_cast<double>(n) : nan;
      }
      if (text == "Infinity" || text == "+Infinity") return std::numeric_limits<double>::infinity();
      if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
      // Digits, a point, an exponent: what strtod reads beyond that (hex floats, "inf",
      // "nan") is not a number to GitHub.
      if (text.find_first_not_of("0123456789+-.eE") != std::string::npos) return nan;
      char* end = nullptr;
      const double n = std::strtod(text.c_str(), &end);
      return *end == '\0' ? n : nan;
    }
    default: return nan;
  }
}

// ---- syntax tree ---------------------------------------------------------------------

enum class Op { literal, context, member, index, star, negate, and_, or_, eq, ne, lt, le, gt, ge, call };

struct Node {
  Op op = Op::literal;
  Value value;                     // literal
  std::string name;                // context, member, call (as written)
  std::vector<Expression> args;    // operands, object first
};

namespace {

Expression make(Op op, std::vector<Expression> args = {}, std::string name = {}) {
  auto node = std::make_shared<Node>();
  node->op = op;
  node->args = std::move(args);
  node->name = std::move(name);
  return node;
}

Expression literal(Value value) {
  auto node = std::make_shared<Node>();
  node->op = Op::literal;
  node->value = std::move(value);
  return node;
}

// ---- lexer ---------------------------------------------------------------------------

enum class Tok { end, number, string, identifier, keyword, lparen, rparen, lbracket, rbracket, dot, comma, star, op };

struct Token {
  Tok kind = Tok::end;
  std::string text;  // identifier, keyword, operator; the string's value
  double number = 0;
  std::size_t column = 0;  // 1-based
};

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

Result<std::vector<Token>> lex(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  auto error = [&](std::size_t at, const std::string& what) {
    return bad_input("column " + std::to_string(at + 1) + ": " + what);
  };
  // A value just ended: a following '-' is an operator position, not a number's sign.
  auto after_value = [&] {
    if (tokens.empty()) return false;
    const auto k = tokens.back().kind;
    return k == Tok::number || k == Tok::string || k == Tok::identifier || k == Tok::keyword || k == Tok::rparen ||
           k == Tok::rbracket || k == Tok::star;
  };
  while (i < text.size()) {
    const char c = text[i];
    Token t;
    t.column = i + 1;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
      continue;
    }
    if (c == '\'') {
      std::string value;
      std::size_t j = i + 1;
      bool closed = false;
      while (j < text.size()) {
        if (text[j] == '\'') {
          if (j + 1 < text.size() && text[j + 1] == '\'') {
            value += '\'';
            j += 2;
            continue;
          }
          closed = true;
          break;
        }
        value += text[j++];
      }
      if (!closed) return error(i, "a string that is not closed with '");
      t.kind = Tok::string;
      t.text = std::move(value);
      tokens.push_back(std::move(t));
      i = j + 1;
      continue;
    }
    const bool signed_number = (c == '-' || c == '+') && i + 1 < text.size() &&
                               (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '.') &&
                               !after_value();
    if (std::isdigit(static_cast<unsigned char>(c)) || signed_number ||
        (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) && !after_value())) {
      std::size_t j = i + 1;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '.' ||
                                 ((text[j] == '-' || text[j] == '+') && (text[j - 1] == 'e' || text[j - 1] == 'E'))))
        ++j;
      const double n = to_number(Value::of(std::string(text.substr(i, j - i))));
      if (std::isnan(n)) return error(i, "'" + std::string(text.substr(i, j - i)) + "' is not a number");
      t.kind = Tok::number;
      t.number = n;
      tokens.push_back(std::move(t));
      i = j;
      continue;
    }
    if (is_identifier_start(c)) {
      std::size_t j = i + 1;
      while (j < text.size() && is_identifier_char(text[j])) ++j;
      t.text = std::string(text.substr(i, j - i));
      const bool keyword = t.text == "true" || t.text == "false" || t.text == "null" || t.text == "NaN" ||
                           t.text == "Infinity";
      // After a '.', a keyword is a property name (github.event.null is a property).
      const bool property = !tokens.empty() && tokens.back().kind == Tok::dot;
      t.kind = keyword && !property ? Tok::keyword : Tok::identifier;
      tokens.push_back(std::move(t));
      i = j;
      continue;
    }
    static const std::string_view two[] = {"&&", "||", "==", "!=", "<=", ">="};
    bool matched = false;
    for (auto op : two) {
      if (text.substr(i, 2) == op) {
        t.kind = Tok::op;
        t.text = std::string(op);
        tokens.push_back(t);
        i += 2;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    switch (c) {
      case '(': t.kind = Tok::lparen; break;
      case ')': t.kind = Tok::rparen; break;
      case '[': t.kind = Tok::lbracket; break;
      case ']': t.kind = Tok::rbracket; break;
      case '.': t.kind = Tok::dot; break;
      case ',': t.kind = Tok::comma; break;
      case '*': t.kind = Tok::star; break;
      case '!':
      case '<':
      case '>':
        t.kind = Tok::op;
        t.text = std::string(1, c);
        break;
      default: return error(i, "unexpected character '" + std::string(1, c) + "'");
    }
    tokens.push_back(std::move(t));
    ++i;
  }
  Token end;
  end.kind = Tok::end;
  end.column = text.size() + 1;
  tokens.push_back(end);
  return tokens;
}

// ---- parser --------------------------------------------------------------------------

struct Function {
  std::string_view name;
  std::size_t min_args;
  std::size_t max_args;
};

constexpr Function kFunctions[] = {
    {"contains", 2, 2}, {"startsWith", 2, 2}, {"endsWith", 2, 2}, {"format", 1, 255}, {"join", 1, 2},
    {"toJSON", 1, 1},   {"fromJSON", 1, 1},   {"hashFiles", 1, 255}, {"success", 0, 0}, {"always", 0, 0},
    {"cancelled", 0, 0}, {"failure", 0, 0},
};

const Function* find_function(std::string_view name) {
  for (const auto& f : kFunctions)
    if (caseless_equal(f.name, name)) return &f;
  return nullptr;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Expression> parse_all() {
    auto e = or_expr();
    if (!e) return e;
    if (peek().kind != Tok::end) return fail("unexpected " + describe(peek()));
    return e;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& take() { return tokens_[pos_++]; }
  bool is_op(std::string_view op) const { return peek().kind == Tok::op && peek().text == op; }

  Error fail(const std::string& what) const {
    return bad_input("column " + std::to_string(peek().column) + ": " + what);
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::end: return "end of expression";
      case Tok::string: return "string '" + t.text + "'";
      case Tok::number: return "number";
      case Tok::identifier:
      case Tok::keyword:
      case Tok::op: return "'" + t.text + "'";
      case Tok::lparen: return "'('";
      case Tok::rparen: return "')'";
      case Tok::lbracket: return "'['";
      case Tok::rbracket: return "']'";
      case Tok::dot: return "'.'";
      case Tok::comma: return "','";
      case Tok::star: return "'*'";
    }
    return "token";
  }

  Result<Expression> binary(Result<Expression> (Parser::*next)(), std::initializer_list<std::pair<const char*, Op>> ops) {
    auto left = (this->*next)();
    if (!left) return left;
    while (true) {
      const auto match = std::find_if(ops.begin(), ops.end(), [&](const auto& o) { return is_op(o.first); });
      if (match == ops.end()) return left;
      take();
      auto right = (this->*next)();
      if (!right) return right;
      left = make(match->second, {*left, *right});
    }
  }

  Result<Expression> or_expr() { return binary(&Parser::and_expr, {{"||", Op::or_}}); }
  Result<Expression> and_expr() { return binary(&Parser::equality, {{"&&", Op::and_}}); }
  Result<Expression> equality() { return binary(&Parser::comparison, {{"==", Op::eq}, {"!=", Op::ne}}); }
  Result<Expression> comparison() {
    return binary(&Parser::unary, {{"<", Op::lt}, {"<=", Op::le}, {">", Op::gt}, {">=", Op::ge}});
  }

  Result<Expression> unary() {
    if (is_op("!")) {
      take();
      auto operand = unary();
      if (!operand) return operand;
      return make(Op::negate, {*operand});
    }
    return postfix();
  }

  Result<Expression> postfix() {
    auto e = primary();
    if (!e) return e;
    while (true) {
      if (peek().kind == Tok::dot) {
        take();
        if (peek().kind == Tok::star) {
          take();
          e = make(Op::star, {*e});
        } else if (peek().kind == Tok::identifier) {
          e = make(Op::member, {*e}, take().text);
        } else {
          return fail("expected a property name after '.', got " + describe(peek()));
        }
      } else if (peek().kind == Tok::lbracket) {
        take();
        if (peek().kind == Tok::star) {
          take();
          e = make(Op::star, {*e});
        } else {
          auto index = or_expr();
          if (!index) return index;
          e = make(Op::index, {*e, *index});
        }
        if (peek().kind != Tok::rbracket) return fail("expected ']', got " + describe(peek()));
        take();
      } else {
        return e;
      }
    }
  }

  Result<Expression> primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::number: take(); return literal(Value::of(t.number));
      case Tok::string: take(); return literal(Value::of(t.text));
      case Tok::keyword: {
        take();
        if (t.text == "true") return literal(Value::of(true));
        if (t.text == "false") return literal(Value::of(false));
        if (t.text == "NaN") return literal(Value::of(std::numeric_limits<double>::quiet_NaN()));
        if (t.text == "Infinity") return literal(Value::of(std::numeric_limits<double>::infinity()));
        return literal(Value::null());
      }
      case Tok::lparen: {
        take();
        auto inner = or_expr();
        if (!inner) return inner;
        if (peek().kind != Tok::rparen) return fail("expected ')', got " + describe(peek()));
        take();
        return inner;
      }
      case Tok::identifier: {
        const std::size_t column = t.column;
        const std::string name = take().text;
        if (peek().kind == Tok::lparen) return call(name, column);
        return make(Op::context, {}, name);
      }
      default: return fail("unexpected " + describe(t));
    }
  }

  Error fail_at(std::size_t column, const std::string& what) const {
    return bad_input("column " + std::to_string(column) + ": " + what);
  }

  // A call's errors name the column of the function's name.
  Result<Expression> call(const std::string& name, std::size_t column) {
    const Function* f = find_function(name);
    if (f == nullptr) return fail_at(column, "unknown function '" + name + "'");
    take();  // (
    std::vector<Expression> args;
    if (peek().kind != Tok::rparen) {
      while (true) {
        auto arg = or_expr();
        if (!arg) return arg;
        args.push_back(*arg);
        if (peek().kind == Tok::comma) {
          take();
          continue;
        }
        break;
      }
    }
    if (peek().kind != Tok::rparen) return fail("expected ')' after the arguments of " + name);
    take();
    if (args.size() < f->min_args || args.size() > f->max_args)
      return fail_at(column, name + "() takes " +
                  (f->min_args == f->max_args ? std::to_string(f->min_args)
                                              : std::to_string(f->min_args) + " or more") +
                  " argument" + (f->max_args == 1 && f->min_args == 1 ? "" : "s") + ", got " +
                  std::to_string(args.size()));
    return make(Op::call, std::move(args), std::string(f->name));
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

// ---- evaluation ----------------------------------------------------------------------

bool equals(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (a.kind != b.kind) {
    if (a.kind == K::array || a.kind == K::object || b.kind == K::array || b.kind == K::object) return false;
    const double x = to_number(a);
    const double y = to_number(b);
    return x == y;  // NaN equals nothing
  }
  switch (a.kind) {
    case K::null: return true;
    case K::boolean: return a.boolean == b.boolean;
    case K::number: return a.number == b.number;
    case K::string: return caseless_equal(a.string, b.string);
    default: return false;  // arrays and objects: only the same instance, never two values
  }
}

// -1, 0, 1, or nullopt when the two cannot be ordered (NaN).
std::optional<int> order(const Value& a, const Value& b) {
  if (a.kind == Value::Kind::string && b.kind == Value::Kind::string) return caseless_compare(a.string, b.string);
  const double x = to_number(a);
  const double y = to_number(b);
  if (std::isnan(x) || std::isnan(y)) return std::nullopt;
  return x < y ? -1 : (x > y ? 1 : 0);
}

bool is_primitive(const Value& v) {
  return v.kind != Value::Kind::array && v.kind != Value::Kind::object && v.kind != Value::Kind::unknown;
}

Value from_json(const boost::json::value& j) {
  switch (j.kind()) {
    case boost::json::kind::null: return Value::null();
    case boost::json::kind::bool_: return Value::of(j.get_bool());
    case boost::json::kind::int64: return Value::of(static_cast<double>(j.get_int64()));
    case boost::json::kind::uint64: return Value::of(static_cast<double>(j.get_uint64()));
    case boost::json::kind::double_: return Value::of(j.get_double());
    case boost::json::kind::string: return Value::of(std::string(j.get_string()));
    case boost::json::kind::array: {
      std::vector<Value> items;
      for (const auto& item : j.get_array()) items.push_back(from_json(item));
      return Value::array(std::move(items));
    }
    case boost::json::kind::object: {
      Object fields;
      for (const auto& [k, v] : j.get_object()) fields[std::string(k)] = from_json(v);
      return Value::object(std::move(fields));
    }
  }
  return Value::null();
}

// GitHub's toJSON: two-space indentation.
void to_json(const Value& v, std::string& out, int depth) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  switch (v.kind) {
    case Value::Kind::null: out += "null"; return;
    case Value::Kind::boolean: out += v.boolean ? "true" : "false"; return;
    case Value::Kind::number: out += number_text(v.number); return;
    case Value::Kind::string: out += boost::json::serialize(boost::json::value(v.string)); return;
    case Value::Kind::array:
      if (v.items.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        out += indent + "  ";
        to_json(v.items[i], out, depth + 1);
        out += i + 1 < v.items.size() ? ",\n" : "\n";
      }
      out += indent + "]";
      return;
    case Value::Kind::object: {
      if (v.fields.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      std::size_t i = 0;
      for (const auto& [k, field] : v.fields) {
        out += indent + "  " + boost::json::serialize(boost::json::value(k)) + ": ";
        to_json(field, out, depth + 1);
        out += ++i < v.fields.size() ? ",\n" : "\n";
      }
      out += indent + "}";
      return;
    }
    case Value::Kind::unknown: return;
  }
}

Value format_call(const std::vector<Value>& args) {
  for (const auto& a : args)
    if (!a.known()) return Value::unknown();
  const std::string fmt = to_text(args[0]);
  std::string out;
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    const char c = fmt[i];
    if (c == '{' && i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
    } else if (c == '}' && i + 1 < fmt.size() && fmt[i + 1] == '}') {
      out += '}';
      ++i;
    } else if (c == '{') {
      const auto close = fmt.find('}', i);
      const auto digits = close == std::string::npos ? std::string() : fmt.substr(i + 1, close - i - 1);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return Value::unknown();  // GitHub fails the run: nothing the doctor can know
      const auto index = std::stoul(digits) + 1;
      if (index >= args.size()) return Value::unknown();
      out += to_text(args[index]);
      i = close;
    } else {
      out += c;
    }
  }
  return Value::of(std::move(out));
}

Value truth_value(Truth truth) { return truth == Truth::maybe ? Value::unknown() : Value::of(truth == Truth::yes); }

Value call_function(const std::string& name, const std::vector<Value>& args, const StatusFunctions& status) {
  if (name == "always") return Value::of(true);
  if (name == "cancelled") return Value::of(status.cancelled);
  if (name == "success") return truth_value(status.success);
  if (name == "failure") return truth_value(status.failure);
  if (name == "hashFiles") return Value::unknown();
  if (name == "format") return format_call(args);
  if (name == "toJSON") {
    if (!args[0].fully_known()) return Value::unknown(Truth::yes);  // a JSON text is never empty
    std::string out;
    to_json(args[0], out, 0);
    return Value::of(std::move(out));
  }
  if (name == "fromJSON") {
    if (!args[0].known()) return Value::unknown();
    boost::system::error_code ec;
    auto parsed = boost::json::parse(to_text(args[0]), ec);
    if (ec) return Value::unknown();  // GitHub fails the run
    return from_json(parsed);
  }
  if (name == "join") {
    if (!args[0].fully_known() || (args.size() > 1 && !args[1].known())) return Value::unknown();
    const std::string separator = args.size() > 1 ? to_text(args[1]) : ",";
    if (args[0].kind == Value::Kind::array) {
      std::string out;
      for (std::size_t i = 0; i < args[0].items.size(); ++i)
        out += (i == 0 ? "" : separator) + (is_primitive(args[0].items[i]) ? to_text(args[0].items[i]) : "");
      return Value::of(std::move(out));
    }
    return Value::of(is_primitive(args[0]) ? to_text(args[0]) : "");
  }
  // contains, startsWith, endsWith
  if (!args[0].known() || !args[1].known()) return Value::unknown();
  if (name == "contains") {
    if (args[0].kind == Value::Kind::array) {
      if (!args[0].fully_known()) return Value::unknown();
      return Value::of(std::any_of(args[0].items.begin(), args[0].items.end(),
                                   [&](const Value& item) { return equals(item, args[1]); }));
    }
    if (!is_primitive(args[0]) || !is_primitive(args[1])) return Value::of(false);
    std::string haystack = to_text(args[0]);
    std::string needle = to_text(args[1]);
    std::transform(haystack.begin(), haystack.end(), haystack.begin(), lower);
    std::transform(needle.begin(), needle.end(), needle.begin(), lower);
    return Value::of(haystack.find(needle) != std::string::npos);
  }
  if (!is_primitive(args[0]) || !is_primitive(args[1])) return Value::of(false);
  const std::string text = to_text(args[0]);
  const std::string part = to_text(args[1]);
  if (part.size() > text.size()) return Value::of(false);
  const std::string_view piece = name == "startsWith" ? std::string_view(text).substr(0, part.size())
                                                      : std::string_view(text).substr(text.size() - part.size());
  return Value::of(caseless_equal(piece, part));
}

// A property of a value; on a filtered array (`a.*`), of each of its items.
Value property(const Value& of, const std::string& name, bool filtered) {
  if (!of.known()) return Value::unknown();
  if (filtered && of.kind == Value::Kind::array) {
    std::vector<Value> out;
    for (const auto& item : of.items) {
      if (!item.known()) return Value::unknown();
      if (item.kind != Value::Kind::object) continue;
      auto it = item.fields.find(name);
      if (it != item.fields.end()) out.push_back(it->second);
      else if (item.open) return Value::unknown();
    }
    return Value::array(std::move(out));
  }
  if (of.kind != Value::Kind::object) return Value::null();
  auto it = of.fields.find(name);
  if (it != of.fields.end()) return it->second;
  return of.open ? Value::unknown() : Value::null();
}

struct Evaluated {
  Value value;
  bool filtered = false;  // an array made by `*`, whose properties are its items'
};

Evaluated eval(const Node& node, const Contexts& contexts, const StatusFunctions& status) {
  switch (node.op) {
    case Op::literal: return {node.value};
    case Op::context: {
      auto it = contexts.find(node.name);
      return {it == contexts.end() ? Value::unknown() : it->second};
    }
    case Op::member: {
      auto of = eval(*node.args[0], contexts, status);
      return {property(of.value, node.name, of.filtered), of.filtered};
    }
    case Op::index: {
      auto of = eval(*node.args[0], contexts, status);
      const auto index = eval(*node.args[1], contexts, status).value;
      if (!of.value.known() || !index.known()) return {Value::unknown()};
      if (index.kind == Value::Kind::string) return {property(of.value, index.string, of.filtered), of.filtered};
      if (of.filtered) return {Value::unknown()};
      if (of.value.kind == Value::Kind::array) {
        const double n = to_number(index);
        if (std::isnan(n) || n < 0 || n >= static_cast<double>(of.value.items.size())) return {Value::null()};
        return {of.value.items[static_cast<std::size_t>(n)]};
      }
      return {Value::null()};
    }
    case Op::star: {
      auto of = eval(*node.args[0], contexts, status);
      if (!of.value.known()) return {Value::unknown(), true};
      if (of.value.kind == Value::Kind::array) return {of.value, true};
      if (of.value.kind == Value::Kind::object) {
        if (of.value.open) return {Value::unknown(), true};
        std::vector<Value> items;
        for (const auto& [k, v] : of.value.fields) items.push_back(v);
        return {Value::array(std::move(items)), true};
      }
      return {Value::array({}), true};
    }
    case Op::negate: {
      const Truth t = truth_of(eval(*node.args[0], contexts, status).value);
      if (t == Truth::maybe) return {Value::unknown()};
      return {Value::of(t == Truth::no)};
    }
    case Op::and_:
    case Op::or_: {
      auto left = eval(*node.args[0], contexts, status).value;
      const Truth t = truth_of(left);
      const Truth decides = node.op == Op::and_ ? Truth::no : Truth::yes;
      if (t == decides) return {left};
      auto right = eval(*node.args[1], contexts, status).value;
      if (t != Truth::maybe) return {right};
      // Either operand may come out: what both agree on is known.
      return {Value::unknown(truth_of(right) == decides ? decides : Truth::maybe)};
    }
    case Op::call: {
      std::vector<Value> args;
      for (const auto& a : node.args) args.push_back(eval(*a, contexts, status).value);
      return {call_function(node.name, args, status)};
    }
    default: {
      const auto a = eval(*node.args[0], contexts, status).value;
      const auto b = eval(*node.args[1], contexts, status).value;
      if (!a.known() || !b.known()) return {Value::unknown()};
      if (node.op == Op::eq) return {Value::of(equals(a, b))};
      if (node.op == Op::ne) return {Value::of(!equals(a, b))};
      const auto o = order(a, b);
      if (!o) return {Value::of(false)};
      switch (node.op) {
        case Op::lt: return {Value::of(*o < 0)};
        case Op::le: return {Value::of(*o <= 0)};
        case Op::gt: return {Value::of(*o > 0)};
        default: return {Value::of(*o >= 0)};
      }
    }
  }
}

bool calls_status(const Node& node) {
  if (node.op == Op::call && (node.name == "success" || node.name == "always" || node.name == "cancelled" ||
                              node.name == "failure"))
    return true;
  return std::any_of(node.args.begin(), node.args.end(), [](const Expression& a) { return calls_status(*a); });
}

// The chain below `node` from its context, or nullopt when it is not a plain chain.
std::optional<std::string> chain_of(const Node& node) {
  switch (node.op) {
    case Op::context: return node.name;
    case Op::member: {
      auto base = chain_of(*node.args[0]);
      if (!base) return std::nullopt;
      return *base + "." + node.name;
    }
    case Op::index: {
      if (node.args[1]->op != Op::literal || node.args[1]->value.kind != Value::Kind::string) return std::nullopt;
      auto base = chain_of(*node.args[0]);
      if (!base) return std::nullopt;
      return *base + "." + node.args[1]->value.string;
    }
    default: return std::nullopt;
  }
}

void collect_paths(const Node& node, std::vector<std::string>& out) {
  if (node.op == Op::member || node.op == Op::index || node.op == Op::context) {
    if (auto chain = chain_of(node)) {
      out.push_back(*chain);
      if (node.op == Op::index) collect_paths(*node.args[1], out);
      return;
    }
  }
  for (const auto& a : node.args) collect_paths(*a, out);
}

}  // namespace

Result<Expression> parse(std::string_view text) {
  auto tokens = lex(text);
  if (!tokens) return tokens.error();
  if (tokens->size() == 1) return bad_input("column 1: an empty expression");
  return Parser(std::move(*tokens)).parse_all();
}

std::string_view unwrap(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return text;
  const auto last = text.find_last_not_of(" \t\r\n");
  auto inner = text.substr(first, last - first + 1);
  if (inner.substr(0, 3) == "${{" && inner.size() >= 5 && inner.substr(inner.size() - 2) == "}}" &&
      inner.find("}}", 3) == inner.size() - 2)
    return inner.substr(3, inner.size() - 5);
  return text;
}

Expression with_implied_success(const Expression& expression) {
  if (calls_status(*expression)) return expression;
  return make(Op::and_, {make(Op::call, {}, "success"), expression});
}

Result<Expression> parse_job_if(std::string_view text) {
  auto e = parse(unwrap(text));
  if (!e) return e;
  return with_implied_success(*e);
}

bool calls_status_function(const Expression& expression) { return calls_status(*expression); }

Value evaluate(const Expression& expression, const Contexts& contexts, const StatusFunctions& status) {
  return eval(*expression, contexts, status).value;
}

std::vector<std::string> property_paths(const Expression& expression) {
  std::vector<std::string> out;
  collect_paths(*expression, out);
  return out;
}

bool Template::has_expression() const {
  return std::any_of(pieces.begin(), pieces.end(), [](const Piece& p) { return p.expression != nullptr; });
}

namespace {

// An error of a part of a text, its column counted from the whole text's start.
Error shifted(const Error& error, std::size_t offset) {
  auto message = error.message;
  if (message.rfind("column ", 0) == 0) {
    const auto colon = message.find(':');
    const auto column = std::stoul(message.substr(7, colon - 7)) + offset;
    message = "column " + std::to_string(column) + message.substr(colon);
  }
  return bad_input(message);
}

}  // namespace

Result<Expression> parse_condition(std::string_view text) {
  const auto inner = unwrap(text);
  auto e = parse(inner);
  if (!e) return shifted(e.error(), static_cast<std::size_t>(inner.data() - text.data()));
  return e;
}

Result<Template> parse_template(std::string_view text) {
  Template out;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto open = text.find("${{", i);
    if (open == std::string_view::npos) {
      out.pieces.push_back({std::string(text.substr(i)), nullptr});
      break;
    }
    if (open > i) out.pieces.push_back({std::string(text.substr(i, open - i)), nullptr});
    // The closing `}}` outside a string literal.
    std::size_t j = open + 3;
    bool in_string = false;
    while (j < text.size()) {
      if (text[j] == '\'') in_string = !in_string;
      else if (!in_string && text.substr(j, 2) == "}}") break;
      ++j;
    }
    if (j >= text.size()) return bad_input("column " + std::to_string(open + 1) + ": '${{' is not closed with '}}'");
    const auto source = text.substr(open + 3, j - open - 3);
    auto e = parse(source);
    if (!e) return shifted(e.error(), open + 3);  // columns from the start of the whole text
    out.pieces.push_back({std::string(source), *e});
    i = j + 2;
  }
  return out;
}

std::vector<TextPiece> render(const Template& text, const Contexts& contexts) {
  std::vector<TextPiece> out;
  for (const auto& piece : text.pieces) {
    if (!piece.expression) {
      out.push_back({piece.text, false});
      continue;
    }
    const auto value = evaluate(piece.expression, contexts);
    if (value.fully_known()) out.push_back({to_text(value), false});
    else out.push_back({"", true});
  }
  return out;
}

}  // namespace gatekit::gatekit_doctor::expr
