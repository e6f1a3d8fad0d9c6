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
// The `if:` itself is evaluated by tests/support/job-if.mjs (its status-function semantics).
import { readFileSync } from "node:fs";
import { evaluateJobIf, load } from "../support/job-if.mjs";

const YAML = (await load("yaml/dist/index.js")).default ?? (await load("yaml/dist/index.js"));

function evaluateIf(rawIf, needsSubset, scenario) {
  return evaluateJobIf(rawIf, {
    needs: needsSubset,
    cancelled: scenario.cancelled === true,
    // A same-repository pull request (fork PRs are a separate, documented case).
    github: {
      event_name: scenario.event_name ?? "pull_request", ref: "refs/pull/1/merge", repository: "o/r",
      event: { pull_request: { number: 1, head: { repo: { full_name: "o/r", fork: false } } } },
    },
  });
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
