// The anchor: the same path-gate decision made with picomatch 2.3.1 under node, the way
// JavaScript path filters do it (one compiled matcher per pattern, {dot: true}), with the
// github dialect's ordered list semantics (last matching pattern wins) and renames counted
// on both sides. Prints {filter: relevant}; with `lists`, also each filter's matched files the
// way `list-files: json` writes them ({f: true, f_count: 2, f_files: "[...]"}).
//   node picomatch-decide.js RULES.json CHANGES.txt [lists]
const fs = require("fs");
const path = require("path");
const modules = process.env.GATEKIT_NODE_MODULES || path.join(__dirname, "..", "..", "tests", "node", "node_modules");
const picomatch = require(path.join(modules, "picomatch"));

const rules = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const paths = [];
for (const line of fs.readFileSync(process.argv[3], "utf8").split("\n")) {
  if (!line) continue;
  const parts = line.split("\t");
  if (parts.length === 3) paths.push(parts[2], parts[1]);
  else if (parts.length === 2) paths.push(parts[1]);
  else paths.push(line);
}
const out = {};
for (const [name, filter] of Object.entries(rules.filters)) {
  const matchers = filter.paths.map((p) => {
    const negated = p.startsWith("!");
    return { negated, test: picomatch(negated ? p.slice(1) : p, { dot: true }) };
  });
  const included = (file) => {
    let inc = false;
    for (const m of matchers) if (m.test(file)) inc = !m.negated;
    return inc;
  };
  if (process.argv[4] === "lists") {
    const files = paths.filter((f) => (filter.mode === "deny" ? !included(f) : included(f)));
    out[name] = files.length > 0;
    out[`${name}_count`] = files.length;
    out[`${name}_files`] = JSON.stringify(files);
    continue;
  }
  out[name] = filter.mode === "deny" ? paths.some((f) => !included(f)) : paths.some((f) => included(f));
}
process.stdout.write(JSON.stringify(out) + "\n");
