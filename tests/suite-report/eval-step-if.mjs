// eval-step-if.mjs < {"if": "<step-level if:>", "cases": [{"github": {...}, "inputs": {...},
//                     "steps": {...}, "failed": false}]} > [bool, ...]
//
// Evaluates one step-level `if:` of a composite action with GitHub's expression engine
// (@actions/expressions) in each given context. As on GitHub, an `if:` without a status
// function means `success() && (if)`; success() is "no earlier step failed" (`failed`).
import { readFileSync } from "node:fs";

import { evaluateIf } from "../support/job-if.mjs";

// A step's status functions: success() is "no earlier step failed", as on GitHub.
function evaluate(rawIf, { github = {}, inputs = {}, steps = {}, failed = false }) {
  return evaluateIf(rawIf, { github, inputs, steps },
    { always: true, cancelled: false, failure: failed, success: !failed });
}

const input = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(input.cases.map((c) => evaluate(input.if, c))));
