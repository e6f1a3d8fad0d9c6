// Registers esm-json-loader.mjs (attribute-less JSON imports, see there).
// Use as `node --import ./tests/workflows/register-json-loader.mjs ...`;
// check-workflows.mjs also imports it, and ESM evaluates a module once, so
// the hook is registered once either way.
import { register } from "node:module";

register("./esm-json-loader.mjs", import.meta.url);
