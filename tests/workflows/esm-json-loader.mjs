// Node module-loader hook, registered by register-json-loader.mjs.
// Contract: every module whose URL path ends in ".json" is loaded as a JSON
// module, exactly as if it had been imported `with { type: "json" }`; all
// other modules go to the next loader untouched.
//
// Reason: @actions/workflow-parser's build does
// `import WorkflowSchema from "../workflow-v1.0.min.json"` without an import
// attribute, which Node 20 rejects ('needs an import attribute of type "json"').

export async function load(url, context, nextLoad) {
  if (new URL(url).pathname.endsWith(".json")) {
    const importAttributes = { ...context.importAttributes, type: "json" };
    return nextLoad(url, { ...context, importAttributes });
  }
  return nextLoad(url, context);
}
