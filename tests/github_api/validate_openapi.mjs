// Validates recorded responses against GitHub's published OpenAPI description.
//
//   node validate_openapi.mjs EXCHANGES.json
//
// EXCHANGES.json: [{"method": "GET", "path": "/repos/o/r/pulls/1", "status": 200, "body": ...}].
// Each exchange is matched to its operation by path template and method; the body must
// validate against that operation's documented schema for the status (ajv + ajv-formats).
// Prints one line per exchange; exits 1 when any fails or has no documented operation.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const modules = process.env.GATEKIT_NODE_MODULES ??
  path.resolve(path.dirname(new URL(import.meta.url).pathname), "../node/node_modules");
const require = createRequire(path.join(modules, "noop.js"));
const Ajv = require("ajv").default;
const addFormats = require("ajv-formats").default;

const spec = JSON.parse(readFileSync(path.join(modules, "@octokit/openapi/generated/api.github.com.json"), "utf8"));
const exchanges = JSON.parse(readFileSync(process.argv[2], "utf8"));

// OpenAPI 3.0 `nullable: true` is not JSON Schema: rewrite it as a type union (or an anyOf
// with null where there is no type, e.g. beside allOf / $ref).
function jsonSchemaNullable(node) {
  if (Array.isArray(node)) return node.forEach(jsonSchemaNullable);
  if (node === null || typeof node !== "object") return;
  for (const value of Object.values(node)) jsonSchemaNullable(value);
  if (node.nullable !== true) return;
  delete node.nullable;
  if (typeof node.type === "string") {
    node.type = [node.type, "null"];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
  } else {
    const copy = { ...node };
    for (const key of Object.keys(node)) delete node[key];
    node.anyOf = [copy, { type: "null" }];
  }
}
jsonSchemaNullable(spec);

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(spec, "openapi.json");

const escape = (s) => s.replace(/~/g, "~0").replace(/\//g, "~1");
const templates = Object.keys(spec.paths).map((template) => ({
  template,
  regex: new RegExp("^" + template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+") + "$"),
  literal: template.replace(/\{[^}]+\}/g, "").length,  // prefer the most specific template
}));

// The ref in git/ref/{ref} and the path in contents/{path} contain slashes.
function findTemplate(p, method) {
  const candidates = templates.filter((t) => t.regex.test(p) || (/\{(ref|path)\}$/.test(t.template) &&
    new RegExp(t.regex.source.replace("[^/]+$", ".+$")).test(p)));
  candidates.sort((a, b) => b.literal - a.literal);
  return candidates.find((t) => spec.paths[t.template][method]);
}

const validators = new Map();
let failures = 0;
for (const ex of exchanges) {
  const method = ex.method.toLowerCase();
  const label = `${ex.method} ${ex.path} -> ${ex.status}`;
  const t = findTemplate(ex.path, method);
  if (!t) {
    console.log(`FAIL ${label}: no documented operation`);
    failures++;
    continue;
  }
  const op = spec.paths[t.template][method];
  let responsePointer = `/paths/${escape(t.template)}/${method}/responses/${ex.status}`;
  let response = op.responses[String(ex.status)];
  if (response?.$ref) {  // shared responses: #/components/responses/not_found
    responsePointer = response.$ref.slice(1);
    response = responsePointer.split("/").slice(1).reduce((o, k) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
  }
  if (!response && ex.status >= 400 && ex.status < 500) {
    // GitHub answers some client errors it does not document per operation (a 422 for a
    // bad status state); those bodies must still have GitHub's shared error shape.
    const shared = ex.status === 422 ? "validation-error" : "basic-error";
    const ref = `openapi.json#/components/schemas/${shared}`;
    if (!validators.has(ref)) validators.set(ref, ajv.compile({ $ref: ref }));
    const ok = validators.get(ref)(ex.body) && typeof ex.body?.message === "string";
    console.log(`${ok ? "ok  " : "FAIL"} ${label} (undocumented status, checked as ${shared})`);
    if (!ok) failures++;
    continue;
  }
  if (!response) {
    console.log(`FAIL ${label}: status not documented for ${ex.method} ${t.template}`);
    failures++;
    continue;
  }
  const json = response.content?.["application/json"];
  if (!json) {
    if (ex.body === null || ex.body === undefined || ex.body === "") {
      console.log(`ok   ${label} (${t.template}, no body)`);
    } else {
      console.log(`FAIL ${label}: a body where the description documents none`);
      failures++;
    }
    continue;
  }
  const ref = `openapi.json#${responsePointer}/content/application~1json/schema`;
  if (!validators.has(ref)) validators.set(ref, ajv.compile({ $ref: ref }));
  const validate = validators.get(ref);
  if (validate(ex.body)) {
    console.log(`ok   ${label} (${t.template})`);
  } else {
    failures++;
    console.log(`FAIL ${label} (${t.template}):`);
    for (const e of validate.errors.slice(0, 10)) console.log(`     ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
console.log(`${exchanges.length - failures} of ${exchanges.length} exchanges match the OpenAPI description`);
process.exit(failures === 0 ? 0 : 1);
