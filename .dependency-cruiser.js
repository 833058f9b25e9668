// @ts-check
/**
 * The layer rule of src/, run by `npm run lint`: each layer imports only the layers below it
 * (CONTRIBUTING.md has the drawing). Type-only imports count (`tsPreCompilationDeps`).
 */

const MODEL = "^src/model/";
const API = "^src/api/";
const SETTINGS = "^src/settings(?:[.]ts$|/)";
const PROVIDER = "^src/provider/";
const RESOURCES = "^src/resources/";
const FUNCTIONS = "^src/functions/";
const EMULATOR = "^src/emulator/";
const PLUGIN = "^src/plugin/";
/** The entry points: every file directly in src/ except settings.ts (index.ts, provider-runtime.ts, …). */
const ENTRY = "^src/(?!settings[.]ts$)[^/]+[.]ts$";

/** Node's built-in modules that do I/O: the model is pure and imports none of them. */
const IO_MODULES =
  "^(?:node:)?(?:fs|fs/promises|http|https|http2|net|tls|dgram|dns|dns/promises|child_process|cluster|worker_threads|readline|inspector)$";

/**
 * One rule per layer: from that layer, anything in src/ outside the layers it may use.
 * @param {string} name
 * @param {string} comment
 * @param {string} from
 * @param {string[]} allowed
 * @returns {import("dependency-cruiser").IForbiddenRuleType}
 */
function layer(name, comment, from, allowed) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: from },
    to: { path: "^src/", pathNot: allowed },
  };
}

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    layer("layer-model", "src/model/ is the floor: it imports nothing else from src/.", MODEL, [MODEL]),
    layer(
      "layer-api",
      "src/api/ imports only src/model/ (never settings, resources, functions, the emulator or an entry point).",
      API,
      [API, MODEL],
    ),
    layer("layer-settings", "src/settings imports only src/api/ and src/model/.", SETTINGS, [
      SETTINGS,
      API,
      MODEL,
    ]),
    layer(
      "layer-provider",
      "src/provider/ imports settings, api and model; never resources, functions, the plugin, the emulator or an entry point.",
      PROVIDER,
      [PROVIDER, SETTINGS, API, MODEL],
    ),
    layer(
      "layer-resources",
      "src/resources/ imports provider, settings, api and model; never src/functions/, the emulator or an entry point.",
      RESOURCES,
      [RESOURCES, PROVIDER, SETTINGS, API, MODEL],
    ),
    layer(
      "layer-functions",
      "src/functions/ imports provider, settings, api and model; never src/resources/, the emulator or an entry point.",
      FUNCTIONS,
      [FUNCTIONS, PROVIDER, SETTINGS, API, MODEL],
    ),
    layer(
      "layer-plugin",
      "src/plugin/ imports functions, provider, settings, api and model; never resources (the other host), the emulator or an entry point.",
      PLUGIN,
      [PLUGIN, FUNCTIONS, PROVIDER, SETTINGS, API, MODEL],
    ),
    {
      name: "plugin-stands-alone",
      comment:
        "The provider plugin is its own program (bin/pulumi-resource-blockchain runs dist/plugin/main.js): nothing else in src/ imports it.",
      severity: "error",
      from: { path: "^src/", pathNot: PLUGIN },
      to: { path: PLUGIN },
    },
    layer(
      "layer-emulator",
      "src/emulator/ uses src/model/ only (never api, settings, provider, resources, functions or an entry point).",
      EMULATOR,
      [EMULATOR, MODEL],
    ),
    {
      name: "client-entry-without-pulumi",
      comment:
        "src/client.ts (pulumi-blockchain-nodes/client) is the client for scripts without Pulumi: it imports src/api/ and src/model/ only, and no @pulumi/* package, so loading it never loads the Pulumi SDK.",
      severity: "error",
      from: { path: "^src/client[.]ts$" },
      to: { path: ["^src/(?!api/|model/)", "(?:^|/)node_modules/@pulumi/|^@pulumi/"] },
    },
    {
      name: "entry-points-on-top",
      comment:
        "Entry points (src/index.ts, src/provider-runtime.ts, any other file directly in src/ but settings.ts) are imported by nothing below them, a self-import by package name included.",
      severity: "error",
      from: { path: "^src/", pathNot: ENTRY },
      to: { path: ENTRY },
    },
    {
      name: "file-in-a-layer",
      comment:
        "Every file in src/ belongs to a layer of this config: a new folder in src/ gets its place here first, so no import escapes the rules.",
      severity: "error",
      from: {
        path: "^src/",
        pathNot: [MODEL, API, SETTINGS, PROVIDER, RESOURCES, FUNCTIONS, PLUGIN, EMULATOR, ENTRY],
      },
      to: {},
    },
    {
      name: "emulator-stands-alone",
      comment:
        "The emulator is its own entry (pulumi-blockchain-nodes/emulator): nothing else in src/ imports it.",
      severity: "error",
      from: { path: "^src/", pathNot: EMULATOR },
      to: { path: EMULATOR },
    },
    {
      name: "no-pulumi-below-settings",
      comment: "src/model/, src/api/ and src/emulator/ import no @pulumi/* package, not even its types.",
      severity: "error",
      from: { path: [MODEL, API, EMULATOR] },
      to: { path: "(?:^|/)node_modules/@pulumi/|^@pulumi/" },
    },
    {
      name: "model-no-io",
      comment: "src/model/ is pure: no built-in module that does I/O.",
      severity: "error",
      from: { path: MODEL },
      to: { dependencyTypes: ["core"], path: IO_MODULES },
    },
    {
      name: "src-stays-in-src",
      comment: "Nothing in src/ imports scripts/, test/, tools/ or examples/.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(?:scripts|test|tools|examples)/" },
    },
    {
      name: "src-resolvable",
      comment: "Every import in src/ resolves; an unresolved one could not be checked against the layers.",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "(?:^|/)node_modules/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["main", "types", "typings"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
