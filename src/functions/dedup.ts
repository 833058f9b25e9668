/**
 * No duplicate work in one program run: calls of the data-source functions with the same
 * arguments share one request. A listing (`getNodes`, `getNodesOutput`,
 * `getNodeConnectionsOutput` with filters) is made once per program run (one process); a node
 * read (`getNode`) is shared while it is in flight. A call with `waitFor` is never shared: it
 * polls on its own. A failed call is forgotten, so that a later call tries again.
 */
import { createHash } from "node:crypto";
import { ConnectionArgs, findSettings } from "../settings";
import { readStackConfig } from "./stack-config";

/** Most listings remembered (the oldest is forgotten first). */
const MAX_REMEMBERED = 200;

const forRun = new Map<string, Promise<unknown>>();
const inFlight = new Map<string, Promise<unknown>>();

/**
 * A key of `kind`, the arguments and the API URL and key the call will use (from the arguments,
 * stack config or environment): a hash, so that no key or credential is kept as text.
 */
function keyOf(kind: string, args: ConnectionArgs & Record<string, unknown>): string {
  const found = findSettings(args, readStackConfig);
  const connection = { url: found.apiUrl?.value, key: found.apiKey?.value };
  const stable = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) return value.map(stable);
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort()
        .map((k) => [k, stable(record[k])]),
    );
  };
  return createHash("sha256")
    .update(JSON.stringify([kind, stable(args), connection]))
    .digest("hex");
}

function shared<T>(
  cache: Map<string, Promise<unknown>>,
  key: string,
  keep: boolean,
  run: () => Promise<T>,
): Promise<T> {
  const known = cache.get(key);
  if (known) return known as Promise<T>;
  const promise = run();
  cache.set(key, promise);
  if (cache.size > MAX_REMEMBERED) cache.delete(cache.keys().next().value as string);
  promise.then(
    () => {
      if (!keep && cache.get(key) === promise) cache.delete(key);
    },
    () => {
      if (cache.get(key) === promise) cache.delete(key);
    },
  );
  return promise;
}

/** The result of `run` for these arguments, made once per program run. */
export function oncePerRun<T>(
  kind: string,
  args: ConnectionArgs & Record<string, unknown>,
  run: () => Promise<T>,
): Promise<T> {
  return shared(forRun, keyOf(kind, args), true, run);
}

/** The result of `run` for these arguments, shared by the calls made while it is in flight. */
export function oncePerFlight<T>(
  kind: string,
  args: ConnectionArgs & Record<string, unknown>,
  run: () => Promise<T>,
): Promise<T> {
  return shared(inFlight, keyOf(kind, args), false, run);
}

/** Forgets every shared call (tests that change the service between two calls use it). */
export function forgetSharedCalls(): void {
  forRun.clear();
  inFlight.clear();
}
