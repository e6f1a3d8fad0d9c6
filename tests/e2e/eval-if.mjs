// eval-if.mjs < {"if": "<job-level if:>", "cases": [{"github": {...}, "needs": {...}, "vars": {...}}]} > [bool, ...]
//          or < {"ifs": ["<if:>", ...], "cases": [...]} > [[bool per case], per if]
//
// Evaluates job-level `if:`s with GitHub's expression engine in each given context
// (tests/support/job-if.mjs; the run is never cancelled here).
import { readFileSync } from "node:fs";

import { evaluateJobIf } from "../support/job-if.mjs";

const input = JSON.parse(readFileSync(0, "utf8"));
const one = (rawIf) => input.cases.map((c) => evaluateJobIf(rawIf, { github: c.github, needs: c.needs ?? {},
                                                                     vars: c.vars ?? {} }));
const out = input.ifs ? input.ifs.map(one) : one(input.if);
process.stdout.write(JSON.stringify(out));
