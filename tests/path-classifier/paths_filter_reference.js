// dorny/paths-filter's filter evaluation, reimplemented from its source (src/filter.ts,
// src/main.ts, src/list-format/*.ts) over the npm picomatch 2.3.1 and yaml packages: the
// reference the migration test compares path-gate with.
// stdin: JSON [{filters: YAML text, quantifier: "some"|"every", files: [{filename, status,
// previous_filename?}] as the pull-request files API lists them}, ...]
// stdout: JSON, per case {filter: {value, count, files: {json, csv, shell, escape}}}.
const path = require("path");
const modules = process.env.GATEKIT_NODE_MODULES || path.join(__dirname, "..", "node", "node_modules");
const picomatch = require(path.join(modules, "picomatch"));
const YAML = require(path.join(modules, "yaml"));

const MatchOptions = { dot: true };

function parseItem(item) {  // parseFilterItemYaml
  if (Array.isArray(item)) return item.map(parseItem).flat();
  if (typeof item === "string") return [{ status: undefined, isMatch: picomatch(item, MatchOptions) }];
  if (typeof item === "object") {
    return Object.entries(item).map(([key, pattern]) => ({
      status: key.split("|").map((x) => x.trim()).filter((x) => x.length > 0).map((x) => x.toLowerCase()),
      isMatch: picomatch(pattern, MatchOptions),
    }));
  }
  throw new Error(`Unexpected element type '${typeof item}'`);
}

function isMatch(file, rules, quantifier) {
  const aPredicate = (rule) => (rule.status === undefined || rule.status.includes(file.status)) && rule.isMatch(file.filename);
  return quantifier === "every" ? rules.every(aPredicate) : rules.some(aPredicate);
}

// getChangedFilesFromApi: a rename is the new name added and the old name deleted.
function apiFiles(rows) {
  const files = [];
  for (const row of rows) {
    if (row.status === "renamed") {
      files.push({ filename: row.filename, status: "added" });
      files.push({ filename: row.previous_filename, status: "deleted" });
    } else {
      files.push({ filename: row.filename, status: row.status === "removed" ? "deleted" : row.status });
    }
  }
  return files;
}

// src/list-format, verbatim in behaviour (including the /m flag).
function backslashEscape(value) { return value.replace(/([^a-zA-Z0-9,._+:@%/-])/gm, "\\$1"); }
function shellEscape(value) {
  if (value === "") return value;
  if (/^[a-zA-Z0-9,._+:@%/-]+$/m.test(value)) return value;
  if (value.includes("'")) {
    if (/^[a-zA-Z0-9,._+:@%/'\s-]+$/m.test(value)) return `"${value}"`;
    return value.split("'").map(shellEscape).join("\\'");
  }
  return `'${value}'`;
}
function csvEscape(value) {
  if (value === "") return value;
  if (/^[a-zA-Z0-9._+:@%/-]+$/m.test(value)) return value;
  return `"${value.replace(/"/g, '""')}"`;
}

const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map((c) => {
  const doc = YAML.parse(c.filters);
  const files = apiFiles(c.files);
  const result = {};
  for (const [key, item] of Object.entries(doc)) {
    const rules = parseItem(item);
    const matched = files.filter((f) => isMatch(f, rules, c.quantifier)).map((f) => f.filename);
    result[key] = {
      value: matched.length > 0,
      count: matched.length,
      files: {
        json: JSON.stringify(matched),
        csv: matched.map(csvEscape).join(","),
        shell: matched.map(shellEscape).join(" "),
        escape: matched.map(backslashEscape).join(" "),
      },
    };
  }
  return result;
});
process.stdout.write(JSON.stringify(out));
