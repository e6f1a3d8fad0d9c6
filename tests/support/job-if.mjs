// job-if.mjs: a job-level `if:` evaluated by GitHub's expression engine (@actions/expressions:
// Lexer, Parser, Evaluator, data.*), for the tests that check when the templates' jobs run.
//
// @actions/expressions has no status functions (they depend on the run), so this supplies
// them with the documented job-level semantics:
//   always()    true
//   cancelled() the run was cancelled
//   failure()   a needed job concluded `failure`
//   success()   not cancelled and every needed job concluded `success` (a skipped or failed
//               dependency skips a job that does not use a status function)
// and, as GitHub does, an `if:` without any status function means `success() && (if)`; a job
// without `if:` means `success()`.
import path from "node:path";
import { pathToFileURL } from "node:url";

const nm = process.env.GATEKIT_NODE_MODULES ||
  path.join(path.dirname(new URL(import.meta.url).pathname), "..", "node", "node_modules");
export const load = (p) => import(pathToFileURL(path.join(nm, p)).href);
const { Lexer, Parser, Evaluator, data } = await load("@actions/expressions/dist/index.js");
const { TokenType } = await load("@actions/expressions/dist/lexer.js");
const { truthy } = await load("@actions/expressions/dist/result.js");

const STATUS = ["always", "success", "failure", "cancelled"];

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

function expressionOf(rawIf) {
  if (rawIf === undefined || rawIf === null) return "success()";
  if (typeof rawIf === "boolean") return String(rawIf);
  const t = String(rawIf).trim();
  const m = /^\$\{\{([\s\S]*)\}\}$/.exec(t);
  return m ? m[1].trim() : t;
}

// An `if:` evaluated in `context` (named contexts, e.g. {github, needs}) with the given values
// of the four status functions; without a status function it means `success() && (if)`.
// evaluateJobIf and the step-level evaluator (tests/suite-report/eval-step-if.mjs) use it.
export function evaluateIf(rawIf, context, status) {
  let text = expressionOf(rawIf);
  const tokens = new Lexer(text).lex().tokens;
  const usesStatus = tokens.some((t, i) => t.type === TokenType.IDENTIFIER && STATUS.includes(t.lexeme.toLowerCase()) &&
    tokens[i + 1]?.type === TokenType.LEFT_PAREN);
  if (!usesStatus) text = `success() && (${text})`;
  const fns = new Map(STATUS.map((name) =>
    [name, { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(status[name]) }]));
  const expr = new Parser(new Lexer(text).lex().tokens, Object.keys(context), [...fns.values()]).parse();
  return truthy(new Evaluator(expr, toData(context), fns).evaluate());
}

// Whether a job with this `if:` runs, given the `github` context, the `needs` it sees, the
// configuration variables (`vars`) and whether the run was cancelled.
export function evaluateJobIf(rawIf, { github = {}, needs = {}, vars = {}, cancelled = false } = {}) {
  const results = Object.values(needs).map((n) => n.result);
  return evaluateIf(rawIf, { github, needs, vars, inputs: {} }, {
    always: true,
    cancelled,
    failure: results.includes("failure"),
    success: !cancelled && results.every((r) => r === "success"),
  });
}
