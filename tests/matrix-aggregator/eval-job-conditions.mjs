// eval-job-conditions.mjs WORKFLOW.yml < scenarios.json > results.json
//
// Simulates which jobs of a workflow template run, using the templates' own job-level `if:`
// evaluated by GitHub's expression engine (@actions/expressions: Lexer, Parser, Evaluator,
// data.Dictionary / data.StringData), and prints the `needs` context the target job sees.
//
// Input (stdin): {"target": "cpu-tests", "scenarios": [
//   {"id": "...", "cancelled": false, "event_name": "pull_request",
//    "given": {"changes": {"result": "success", "outputs": {"cpu": "true"}}},
//    "run_results": {"tests": "failure"}}]}
// Jobs in `given` have that result. Every other job in the target's `needs` closure is
// simulated in dependency order: its `if:` is evaluated with only its own `needs` visible
// (as on GitHub); if it runs, its result is run_results[job] (default "success"), else
// "skipped" with no outputs.
// Output (stdout): {"jobs": {job: {"if", "needs", "name", "with"}},
//   "results": [{"id", "runs": {job: bool}, "needs": <the target's toJSON(needs)>}]}
//
// @actions/expressions has no status functions (they depend on the run), so this supplies
// them with the documented job-level semantics:
//   always()    true
//   cancelled() the run was cancelled
//   failure()   a needed job concluded `failure`
//   success()   not cancelled and every needed job concluded `success` (a skipped or
//               failed dependency skips a job that does not use a status function)
// and, as GitHub does, an `if:` without any status function means `success() && (if)`;
// a job without `if:` means `success()`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const nm = process.env.GATEKIT_NODE_MODULES || path.join(path.dirname(new URL(import.meta.url).pathname), "..", "node", "node_modules");
const load = (p) => import(pathToFileURL(path.join(nm, p)).href);
const { Lexer, Parser, Evaluator, data } = await load("@actions/expressions/dist/index.js");
const { TokenType } = await load("@actions/expressions/dist/lexer.js");
const { truthy } = await load("@actions/expressions/dist/result.js");
const YAML = (await load("yaml/dist/index.js")).default ?? (await load("yaml/dist/index.js"));

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

function stripBraces(text) {
  const t = text.trim();
  const m = /^\$\{\{([\s\S]*)\}\}$/.exec(t);
  return m ? m[1].trim() : t;
}

function evaluateIf(rawIf, needsSubset, scenario) {
  let text = rawIf === undefined ? "success()" : typeof rawIf === "boolean" ? String(rawIf) : stripBraces(String(rawIf));
  const lexed = new Lexer(text).lex();
  const tokens = lexed.tokens;
  const usesStatus = tokens.some((t, i) => t.type === TokenType.IDENTIFIER && STATUS.includes(t.lexeme.toLowerCase()) &&
    tokens[i + 1]?.type === TokenType.LEFT_PAREN);
  if (!usesStatus) text = `success() && (${text})`;
  const results = Object.values(needsSubset).map((n) => n.result);
  const fns = new Map([
    ["always", () => true],
    ["cancelled", () => scenario.cancelled === true],
    ["failure", () => results.includes("failure")],
    ["success", () => scenario.cancelled !== true && results.every((r) => r === "success")],
  ].map(([name, f]) => [name, { name, minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(f()) }]));
  const expr = new Parser(new Lexer(text).lex().tokens, ["github", "needs", "vars", "inputs"], [...fns.values()]).parse();
  const context = toData({
    needs: needsSubset,
    // A same-repository pull request (fork PRs are a separate, documented case).
    github: {
      event_name: scenario.event_name ?? "pull_request", ref: "refs/pull/1/merge", repository: "o/r",
      event: { pull_request: { number: 1, head: { repo: { full_name: "o/r", fork: false } } } },
    },
    vars: {},
    inputs: {},
  });
  return truthy(new Evaluator(expr, context, fns).evaluate());
}

const workflowFile = process.argv[2];
if (!workflowFile) {
  process.stderr.write("usage: eval-job-conditions.mjs WORKFLOW.yml < scenarios.json\n");
  process.exit(2);
}
const workflow = YAML.parse(readFileSync(workflowFile, "utf8"));
const input = JSON.parse(readFileSync(0, "utf8"));
const jobs = workflow.jobs ?? {};
const needsOf = (id) => (jobs[id].needs === undefined ? [] : [].concat(jobs[id].needs));
if (!jobs[input.target]) {
  process.stderr.write(`${workflowFile}: no job '${input.target}' (jobs: ${Object.keys(jobs).join(", ")})\n`);
  process.exit(1);
}
// Dependency order of the target's closure (the target last).
const order = [];
const visit = (id, stack = []) => {
  if (order.includes(id)) return;
  if (!jobs[id]) throw new Error(`${workflowFile}: job '${stack.at(-1)}' needs unknown job '${id}'`);
  if (stack.includes(id)) throw new Error(`${workflowFile}: needs cycle through '${id}'`);
  for (const n of needsOf(id)) visit(n, [...stack, id]);
  order.push(id);
};
visit(input.target);
const out = { jobs: {}, results: [] };
for (const id of order) {
  const withs = (jobs[id].steps ?? []).filter((s) => s.uses).map((s) => ({ uses: s.uses, with: s.with ?? {} }));
  out.jobs[id] = { if: jobs[id].if ?? null, needs: needsOf(id), name: jobs[id].name ?? null, steps: withs };
}
for (const scenario of input.scenarios) {
  const state = {};
  const runs = {};
  for (const id of order) {
    if (scenario.given?.[id]) {
      state[id] = { result: scenario.given[id].result, outputs: scenario.given[id].outputs ?? {} };
      continue;
    }
    const visible = {};
    for (const n of needsOf(id)) visible[n] = state[n];
    runs[id] = evaluateIf(jobs[id].if, visible, scenario);
    state[id] = runs[id] ? { result: scenario.run_results?.[id] ?? "success", outputs: {} } : { result: "skipped", outputs: {} };
  }
  const targetNeeds = {};
  for (const n of needsOf(input.target)) targetNeeds[n] = state[n];
  out.results.push({ id: scenario.id, runs, needs: targetNeeds });
}
process.stdout.write(JSON.stringify(out));
