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

/**
 * Where the provider process finds the runtime: by package name first (resolved from the
 * provider's working directory: portable across machines), then by the absolute path of the
 * copy this program loaded (when the name does not resolve there, e.g. a program run from a
 * checkout of this package, or an inline program whose working directory has no node_modules).
 */
export function runtimeLocations(): string[] {
  return [RUNTIME_SPECIFIER, localRuntimePath()];
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
export function makeProvider(
  kind: "network" | "faucetDrip",
  locations: readonly string[] = runtimeLocations(),
): pulumi.dynamic.ResourceProvider {
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
