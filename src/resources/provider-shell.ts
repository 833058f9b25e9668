import type * as pulumi from "@pulumi/pulumi";

/** The package specifier of the provider runtime, as the provider process requires it. */
export const RUNTIME_SPECIFIER = "pulumi-blockchain-nodes/provider-runtime";

const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

/** The provider object of a kind, built once per process so Pulumi serializes it once. */
export function providerFor(kind: "network" | "faucetDrip"): pulumi.dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (!provider) {
    provider = makeProvider(kind);
    providers.set(kind, provider);
  }
  return provider;
}

/**
 * Builds the small provider object that Pulumi serializes into state. Its methods capture only
 * the kind and the runtime's package specifier: no path of this machine, no client, API key or
 * module. They load the runtime at call time, in the provider process:
 * 1. by package specifier (`pulumi-blockchain-nodes/provider-runtime`), resolved from the
 *    provider's working directory: the package installed in the project;
 * 2. else from a checkout of the package itself (examples, tests, `pulumi up` in the repository):
 *    the nearest folder, above the provider's working directory or above the Pulumi SDK that runs
 *    the provider, whose `package.json` names the package; its runtime is
 *    `dist/provider-runtime.js` there. Found anew on each machine: state stays portable.
 */
export function makeProvider(
  kind: "network" | "faucetDrip",
  specifier: string = RUNTIME_SPECIFIER,
): pulumi.dynamic.ResourceProvider {
  function load() {
    try {
      return require(specifier);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (e.code !== "MODULE_NOT_FOUND" || !String(e.message).includes(specifier)) throw err;
    }
    const fs: typeof import("fs") = require("fs");
    const path: typeof import("path") = require("path");
    const name = specifier.slice(0, specifier.indexOf("/"));
    const named = (dir: string) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).name === name;
      } catch {
        return false;
      }
    };
    const starts = [process.cwd(), require.main?.filename ? path.dirname(require.main.filename) : ""];
    for (const start of starts.filter(Boolean)) {
      for (let dir = start, up = ""; dir !== up; up = dir, dir = path.dirname(dir)) {
        const file = path.join(dir, "dist", "provider-runtime.js");
        if (named(dir) && fs.existsSync(file)) return require(file);
      }
    }
    throw new Error(
      `cannot load ${specifier} (from ${process.cwd()}): install the package in the project (npm install ${name}); ` +
        `in its own repository, build it first (npm run build)`,
    );
  }
  return {
    configure: (req) => load().configure(req),
    check: (olds, news) => load()[kind].check(olds, news),
    diff: (id, olds, news) => load()[kind].diff(id, olds, news),
    create: (inputs) => load()[kind].create(inputs),
    read: (id, props) => load()[kind].read(id, props),
    update: (id, olds, news) => load()[kind].update(id, olds, news),
    delete: (id, props) => load()[kind].delete(id, props),
  };
}
