// eval-step-if.mjs < {"if": "<step-level if:>", "cases": [{"github": {...}, "inputs": {...},
//                     "steps": {...}, "failed": false}]} > [bool, ...]
//
// Evaluates one step-level `if:` of a composite action with GitHub's expression engine
// (@actions/expressions) in each given context. As on GitHub, an `if:` without a status
// function means `success() && (if)`; success() is "no earlier step failed" (`failed`).
import { readFileSync } from "node:fs";

import { load } from "../support/job-if.mjs";

const { Lexer, Parser, Evaluator, data } = await load("@actions/expressions/dist/index.js");
const { TokenType } = await load("@actions/expressions/dist/lexer.js");
const { truthy } = await load("@actions/expressions/dist/result.js");

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

function evaluate(rawIf, { github = {}, inputs = {}, steps = {}, failed = false }) {
  const t = String(rawIf).trim();
  let text = (/^\$\{\{([\s\S]*)\}\}$/.exec(t)?.[1] ?? t).trim();
  const STATUS = ["always", "success", "failure", "cancelled"];
  const tokens = new Lexer(text).lex().tokens;
  const usesStatus = tokens.some((tok, i) => tok.type === TokenType.IDENTIFIER &&
    STATUS.includes(tok.lexeme.toLowerCase()) && tokens[i + 1]?.type === TokenType.LEFT_PAREN);
  if (!usesStatus) text = `success() && (${text})`;
  const fns = new Map([
    ["always", () => true], ["cancelled", () => false], ["failure", () => failed], ["success", () => !failed],
  ].map(([name, f]) => [name, { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(f()) }]));
  const expr = new Parser(new Lexer(text).lex().tokens, ["github", "inputs", "steps"], [...fns.values()]).parse();
  return truthy(new Evaluator(expr, toData({ github, inputs, steps }), fns).evaluate());
}

const input = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(input.cases.map((c) => evaluate(input.if, c))));
