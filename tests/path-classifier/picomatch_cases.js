// Generates glob patterns and paths from a fixed seed and answers each pair with the npm
// package picomatch 2.3.1, {dot: true} (the oracle for gatekit's `picomatch` dialect).
// Prints one JSON array [pattern, path, answer] a line; answer is 1/0, or "I" when picomatch
// compiled the pattern to its never-matching fallback (an invalid regular expression).
// With "newlines", patterns and paths also hold line breaks (\n, \r), which JavaScript's
// `.` does not match: gatekit must follow picomatch there too.
//   node picomatch_cases.js SEED COUNT [newlines]
// With "answer", it answers given cases instead: a JSON array of [pattern, path] on stdin, one
// answer a line on stdout (1, 0 or I, as above).
//   node picomatch_cases.js answer < cases.json
const path = require("path");
const modules = process.env.GATEKIT_NODE_MODULES || path.join(__dirname, "..", "node", "node_modules");
const picomatch = require(path.join(modules, "picomatch"));

if (process.argv[2] === "answer") {
  const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const answers = cases.map(([p, f]) => {
    const invalid = picomatch.makeRe(p, { dot: true }).source === "$^";
    return invalid ? "I" : picomatch(p, { dot: true })(f) ? "1" : "0";
  });
  process.stdout.write(answers.join("\n") + "\n");
  process.exit(0);
}

let state = Number(process.argv[2] || 1) >>> 0;
const count = Number(process.argv[3] || 1000);
const newlines = process.argv[4] === "newlines";
function rand(n) {  // xorshift32
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
}
const pick = (xs) => xs[rand(xs.length)];

const TOKENS = [
  "a", "b", "x", "src", "js", "md", "1", ".", "-", "_", "/", "/", "/", "*", "*", "**", "**/", "/**", "?",
  "[ab]", "[a-c]", "[^a]", "[!a]", "[[:alpha:]]", "[]", "[", "]", "{a,b}", "{1..3}", "{a..c}", "{x}", "{", "}", ",",
  "(a|b)", "(", ")", "|", "@(a|b)", "+(a|b)", "*(a)", "?(a)", "!(a)", "!(*.js)", "!(x)", "\\*", "\\", "+", "$", "^",
  "@", "!", "\"a\"", ".js", ".md", "./",
];
const SEGMENTS = ["a", "b", "x", "ab", "src", "a.js", "b.md", "x.md", "1", "2", "a-b", "_x", ".a", "a.b.js", "aaa", "!", "+", "*", "[a]", "{a,b}", "(a)"];
if (newlines) {
  TOKENS.push("\n", "\r", "a\nb", "[\n]", "[^\n]");
  SEGMENTS.push("\n", "\r", "a\nb", "x\n.md", "a\r.js", "\na", "b\n", "\n\n");
}

function pattern() {
  let p = rand(8) === 0 ? "!" : "";
  if (rand(12) === 0) p += "./";
  const n = 1 + rand(6);
  for (let i = 0; i < n; i++) p += pick(TOKENS);
  return p;
}

function pathFor(p) {
  if (rand(6) === 0) return p.replace(/^!/, "");  // spelled like the pattern
  const n = 1 + rand(4);
  const segs = [];
  for (let i = 0; i < n; i++) segs.push(pick(SEGMENTS));
  return segs.join("/");
}

const out = [];
for (let i = 0; i < count; i++) {
  const p = pattern();
  if (p.includes("\t")) continue;
  let re;
  try { re = picomatch.makeRe(p, { dot: true }); } catch (e) { continue; }
  const invalid = re.source === "$^";
  const isMatch = picomatch(p, { dot: true });
  for (let k = 0; k < 3; k++) {
    const f = pathFor(p);
    if (!f) continue;
    out.push(JSON.stringify([p, f, invalid ? "I" : isMatch(f) ? "1" : "0"]));
  }
}
process.stdout.write(out.join("\n") + "\n");
