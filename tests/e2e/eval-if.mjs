// eval-if.mjs < {"if": "<job-level if:>", "cases": [{"github": {...}, "needs": {...}}]} > [bool, ...]
//
// Evaluates one job-level `if:` with GitHub's expression engine (@actions/expressions) in each
// given context. Status functions: success() is true when every needed job succeeded,
// always() true, failure() and cancelled() false; an `if:` without one means
// `success() && (if)`, as on GitHub.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const nm = process.env.GATEKIT_NODE_MODULES || path.join(path.dirname(new URL(import.meta.url).pathname), "..", "node", "node_modules");
const load = (p) => import(pathToFileURL(path.join(nm, p)).href);
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

const input = JSON.parse(readFileSync(0, "utf8"));
let text = String(input.if).trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1").trim();
const tokens = new Lexer(text).lex().tokens;
const usesStatus = tokens.some((t, i) => t.type === TokenType.IDENTIFIER && STATUS.includes(t.lexeme.toLowerCase()) &&
  tokens[i + 1]?.type === TokenType.LEFT_PAREN);
if (!usesStatus) text = `success() && (${text})`;

const out = input.cases.map((c) => {
  const results = Object.values(c.needs ?? {}).map((n) => n.result);
  const fns = [
    ["always", () => true],
    ["cancelled", () => false],
    ["failure", () => results.includes("failure")],
    ["success", () => results.every((r) => r === "success")],
  ].map(([name, f]) => ({ name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(f()) }));
  const expr = new Parser(new Lexer(text).lex().tokens, ["github", "needs", "vars", "inputs"], fns).parse();
  const context = toData({ github: c.github, needs: c.needs ?? {}, vars: {}, inputs: {} });
  return truthy(new Evaluator(expr, context, new Map(fns.map((f) => [f.name, f]))).evaluate());
});
process.stdout.write(JSON.stringify(out));
