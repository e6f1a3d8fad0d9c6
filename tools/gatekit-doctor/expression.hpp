#pragma once
// GitHub's expression language (`${{ }}`, a job's `if:`), evaluated where some values are not
// known before a run: a job's outputs, a pull request's labels, a secret. The doctor asks what
// an `if:` can come out as on a pull request, or what a matrix leg's `name:` becomes, so every
// value is either known (as GitHub would compute it) or unknown, and an unknown value carries
// what is known of its truth: `a && b` with `b` known false is false whatever `a` is.
//
// The language as GitHub documents it (https://docs.github.com/en/actions/reference/
// workflows-and-actions/expressions): literals (null, true, false, numbers, 'strings' with ''
// for a quote), contexts and their properties (`a.b`, `a['b']`, `a.*.b`), `!`, `<`, `<=`, `>`,
// `>=`, `==`, `!=` (strings compared without case; values of different types as numbers), `&&`
// and `||` (which return an operand), and the functions contains, startsWith, endsWith, format,
// join, toJSON, fromJSON, hashFiles and the status functions success, always, cancelled and
// failure. Function and context names are matched without case.
// tests/gatekit-doctor/test_expression.cpp compares it with GitHub's own engine
// (@actions/expressions) on every known value.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit::gatekit_doctor::expr {

// What is known of a value's truth.
enum class Truth { no, yes, maybe };

struct Value;
struct Caseless {
  bool operator()(const std::string& a, const std::string& b) const;
};
using Object = std::map<std::string, Value, Caseless>;

struct Value {
  enum class Kind { null, boolean, number, string, array, object, unknown };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> items;  // array
  Object fields;             // object
  // An object whose missing properties are unknown rather than null (the `github` context:
  // the doctor knows the event's name, not the pull request's labels).
  bool open = false;
  Truth truth = Truth::maybe;  // unknown values only

  static Value null() { return {}; }
  static Value of(bool b);
  static Value of(double n);
  static Value of(std::string s);
  static Value of(const char* s) { return of(std::string(s)); }
  static Value array(std::vector<Value> items);
  static Value object(Object fields, bool open = false);
  static Value unknown(Truth truth = Truth::maybe);

  bool known() const { return kind != Kind::unknown; }
  // Whether it is known to be unknown anywhere inside (an array holding an unknown item).
  bool fully_known() const;
};

// GitHub's truth of a value: false, 0, -0, NaN, '' and null are false; unknown: its `truth`.
Truth truth_of(const Value& value);
// A known value as GitHub turns it into a string (in a name, format(), join()): null is '',
// numbers as GitHub prints them (3.10 is '3.1'), arrays and objects 'Array' and 'Object'.
std::string to_text(const Value& value);
// GitHub's number of a value: null 0, true 1, '' 0, '0x1F' 31, ' 12 ' 12, anything else NaN.
double to_number(const Value& value);

struct Node;
// A parsed expression (shared: a workflow's `if:` is evaluated once per event asked about).
using Expression = std::shared_ptr<const Node>;

// Parses the text between `${{` and `}}` (or an `if:` without them). Errors are bad input
// naming the column: "column 12: expected ')' after the arguments of contains".
Result<Expression> parse(std::string_view text);

// The contexts an expression reads: `github`, `matrix`, `needs`, `vars`, ...; a context not
// given is unknown. Names are matched without case.
using Contexts = Object;

// What the status functions return. By default the doctor asks about a run that is not
// cancelled, whose jobs' results it does not know: always() true, cancelled() false,
// success() and failure() unknown.
struct StatusFunctions {
  Truth success = Truth::maybe;
  Truth failure = Truth::maybe;
  bool cancelled = false;
};

// What the expression comes out as in `contexts`.
Value evaluate(const Expression& expression, const Contexts& contexts, const StatusFunctions& status = {});

// A job-level `if:`: GitHub adds `success() &&` to one that calls no status function.
// An `if:` written inside `${{ }}` is the same expression.
Result<Expression> parse_job_if(std::string_view text);
// The text inside `${{ }}` when the whole (trimmed) text is one such expression, else the text.
std::string_view unwrap(std::string_view text);
// An `if:` as written (with or without `${{ }}`), without the implied success(); an error's
// column counts from the start of `text`.
Result<Expression> parse_condition(std::string_view text);
// `success() && (expression)` unless it calls a status function.
Expression with_implied_success(const Expression& expression);
// Whether the expression calls success(), always(), cancelled() or failure().
bool calls_status_function(const Expression& expression);

// The property chains an expression reads, each from its context down, written as
// `needs.changes.outputs.cpu` (a `['x']` index with a literal string is `.x`; a `*` or a
// computed index ends the chain). Names as written.
std::vector<std::string> property_paths(const Expression& expression);

// A text with `${{ }}` parts (a job's `name:`): the literal pieces and the expressions between.
struct Template {
  struct Piece {
    std::string text;        // literal text, or the expression's source
    Expression expression;   // null for literal text
  };
  std::vector<Piece> pieces;
  bool has_expression() const;
};
Result<Template> parse_template(std::string_view text);

// One piece of a template's result: literal text, or a part whose value is unknown.
struct TextPiece {
  std::string text;
  bool unknown = false;
};
// The template's text in `contexts`; unknown parts stay unknown (a `*` in a name pattern).
std::vector<TextPiece> render(const Template& text, const Contexts& contexts);

}  // namespace gatekit::gatekit_doctor::expr
