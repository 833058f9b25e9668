import * as fs from "fs";
import * as path from "path";
import type * as pulumi from "@pulumi/pulumi";

/** The package specifier of the provider runtime, as the provider process requires it. */
export const RUNTIME_SPECIFIER = "pulumi-blockchain-nodes/provider-runtime";

/** The compiled runtime next to this file (from `src/`, its build in `dist/`). */
function localRuntimePath(): string {
  if (__filename.endsWith(".ts")) {
    return path.resolve(__dirname, "..", "..", "dist", "resources", "provider-runtime.js");
  }
  return path.join(__dirname, "provider-runtime.js");
}

/** True when `node_modules/pulumi-blockchain-nodes` is reachable from `dir`, as Node would look. */
function installedFrom(dir: string): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (fs.existsSync(path.join(current, "node_modules", "pulumi-blockchain-nodes", "package.json")))
      return true;
    if (path.dirname(current) === current) return false;
  }
}

/**
 * Where the provider process finds the runtime: by package name when the package is installed
 * for the program (the normal case, portable across machines), else also by absolute path
 * (when running from a checkout of this package itself).
 */
export function runtimeLocations(cwd: string = process.cwd()): string[] {
  return installedFrom(cwd) ? [RUNTIME_SPECIFIER] : [RUNTIME_SPECIFIER, localRuntimePath()];
}

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
 * the kind and the runtime's locations; they load the runtime at call time, so no client, API
 * key or module is captured by value.
 */
export function makeProvider(kind: "network" | "faucetDrip"): pulumi.dynamic.ResourceProvider {
  const locations = runtimeLocations();
  function load() {
    let lastError: unknown;
    for (const location of locations) {
      try {
        return require(location);
      } catch (err) {
        const e = err as { code?: string; message?: string };
        if (e.code !== "MODULE_NOT_FOUND" || !String(e.message).includes(location)) throw err;
        lastError = err;
      }
    }
    throw new Error(
      `cannot load the provider runtime of pulumi-blockchain-nodes (tried ${locations.join(", ")}): ` +
        `install the package in the project (npm install pulumi-blockchain-nodes). ${String(lastError)}`,
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
