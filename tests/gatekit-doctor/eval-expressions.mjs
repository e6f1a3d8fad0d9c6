// eval-expressions.mjs < {"cases": [{"expression": "...", "contexts": {...}, "status": {...}}]} > [...]
//
// GitHub's own expression engine (@actions/expressions) on each expression, in its contexts,
// with the status functions' values given (always, success, failure, cancelled; default: a run
// that is not cancelled and whose jobs succeeded). Prints, per case, {"value": <the result as
// JSON; NaN and Infinity as strings>} or {"error": "<message>"}: the oracle tests/gatekit-doctor/test_expression.cpp checks
// the doctor's evaluator against.
import { readFileSync } from "node:fs";

import { load } from "../support/job-if.mjs";

const { Lexer, Parser, Evaluator, data } = await load("@actions/expressions/dist/index.js");

function toData(value) {
  if (value === null || value === undefined) return new data.Null();
  if (typeof value === "string") return new data.StringData(value);
  if (typeof value === "boolean") return new data.BooleanData(value);
  if (typeof value === "number") return new data.NumberData(value);
  if (Array.isArray(value)) return new data.Array(...value.map(toData));
  const dict = new data.Dictionary();
  for (const [k, v] of Object.entries(value)) dict.add(k, toData(v));
  return dict;
}

function fromData(d) {
  if (d === undefined || d === null) return null;
  switch (d.kind) {
    case data.Kind.Null: return null;
    case data.Kind.Boolean: return d.value;
    case data.Kind.Number: return Number.isFinite(d.value) ? d.value : String(d.value);  // NaN, Infinity
    case data.Kind.String: return d.value;
    case data.Kind.Array: return d.values().map(fromData);
    case data.Kind.Dictionary: {
      const out = {};
      for (const { key, value } of d.pairs()) out[key] = fromData(value);
      return out;
    }
    default: return null;
  }
}

const STATUS = ["always", "success", "failure", "cancelled"];
const input = JSON.parse(readFileSync(0, "utf8"));
const out = input.cases.map((c) => {
  try {
    const status = { always: true, success: true, failure: false, cancelled: false, ...(c.status ?? {}) };
    const fns = new Map(STATUS.map((name) =>
      [name, { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(status[name]) }]));
    const contexts = c.contexts ?? {};
    const expr = new Parser(new Lexer(c.expression).lex().tokens, Object.keys(contexts), [...fns.values()]).parse();
    return { value: fromData(new Evaluator(expr, toData(contexts), fns).evaluate()) };
  } catch (e) {
    return { error: String(e.message ?? e) };
  }
});
process.stdout.write(JSON.stringify(out));
