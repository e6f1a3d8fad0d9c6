// eval-if.mjs < {"if": "<job-level if:>", "cases": [{"github": {...}, "needs": {...}}]} > [bool, ...]
//
// Evaluates one job-level `if:` with GitHub's expression engine in each given context
// (tests/support/job-if.mjs; the run is never cancelled here).
import { readFileSync } from "node:fs";

import { evaluateJobIf } from "../support/job-if.mjs";

const input = JSON.parse(readFileSync(0, "utf8"));
const out = input.cases.map((c) => evaluateJobIf(input.if, { github: c.github, needs: c.needs ?? {} }));
process.stdout.write(JSON.stringify(out));
