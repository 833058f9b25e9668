/**
 * The functions' program host: stack config, the client of a call, one request for the same
 * arguments in one run (a listing once per run, a node read while in flight; never with `waitFor`
 * or `dependsOn`; a failure is forgotten), quiet errors, and the invoke options (`dependsOn` and
 * `parent` honoured; those choosing a plugin ignored: none serves these calls).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { invalidInput, isApiError } from "../api/errors";
import { type Node } from "../api/types";
import { type RetryWait } from "../api/options";
import {
  CONFIG_NAMESPACE,
  ConfigReader,
  ConnectionArgs,
  resolveCall,
  reviewStackConfig,
  SettingsError,
  setWaitReporter,
  settingsDigest,
  withClient,
  type CallSettings,
} from "../settings";
import { show } from "../model/rules";
import { finiteStacks, guardFrames } from "../provider/error-reports";
import { DEFAULT_GET_NODES_LIMIT, listNodes, readNode } from "./lookups";
import type { Connect, GetNodeArgs, GetNodesArgs } from "./lookups";
import { VerifyError, type VerifyHost } from "./verify";
import { WaitTimeoutError } from "./wait";

/** The program's stack config, `blockchain:*` keys only; undefined outside a Pulumi program. */
export const readStackConfig: ConfigReader = (fullKey) => {
  const [namespace, key] = fullKey.split(":");
  if (namespace !== CONFIG_NAMESPACE) return undefined;
  try {
    return new pulumi.Config(namespace).get(key);
  } catch {
    return undefined;
  }
};

/** The `parent` option of the call being made: its waits and failures are shown under it. */
const callParent = new AsyncLocalStorage<pulumi.Resource | undefined>();

/** A wait between two attempts, in the program's log under the call's `parent`; only under an engine. */
function logWait(event: RetryWait): void {
  if (!pulumi.runtime.hasEngine()) return;
  pulumi.log.info(event.message, callParent.getStore()).catch(() => undefined);
}

/** The TypeScript host of `verify`: names as the schema spells them; a warning under the call's `parent`. */
const verifyHost: VerifyHost = { warn: (message) => pulumi.log.warn(message, callParent.getStore()) };

/** A call's settings, resolved once from its arguments, the stack config (reviewed first) and the environment. */
function callSettings(args: ConnectionArgs): CallSettings {
  guardFrames();
  setWaitReporter(logWait);
  reviewStackConfig(pulumi.runtime, (message) => pulumi.log.warn(message));
  return resolveCall(args, readStackConfig);
}

/** `withClient` with a call's settings (its errors get the hint that fits where each setting came from). */
const connectWith =
  (settings: CallSettings): Connect =>
  (_args, use) =>
    withClient(settings, undefined, use);

const MAX_REMEMBERED = 200;

const forRun = new Map<string, Promise<unknown>>();
const inFlight = new Map<string, Promise<unknown>>();

/** A hash of `kind`, the arguments and the settings the call will use: no credential kept as text. */
function keyOf(kind: string, args: Record<string, unknown>, settings: CallSettings): string {
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
  const text = JSON.stringify([kind, stable(args), settingsDigest(settings)]);
  return createHash("sha256").update(text).digest("hex");
}

/** The result of `run` for these arguments, made once per run (`"run"`) or shared while in flight (`"flight"`). */
function sharedCall<T>(
  scope: "run" | "flight",
  kind: string,
  args: Record<string, unknown>,
  settings: CallSettings,
  run: () => Promise<T>,
): Promise<T> {
  const [cache, key] = [scope === "run" ? forRun : inFlight, keyOf(kind, args, settings)];
  const known = cache.get(key);
  if (known) return known as Promise<T>;
  const promise = run();
  cache.set(key, promise);
  if (cache.size > MAX_REMEMBERED) cache.delete(cache.keys().next().value as string);
  // A failed call is forgotten, so that a later one tries again.
  const forget = () => cache.get(key) === promise && cache.delete(key);
  promise.then(() => scope === "flight" && forget(), forget);
  return promise;
}

/** Reads one node (and waits for its status when asked); `fresh`: shares no earlier request. */
export function fetchNode(operation: string, args: GetNodeArgs, fresh = false): Promise<Node> {
  const { waitFor, apiUrl: _url, apiKey: _key, ...rest } = args;
  const settings = callSettings(args);
  const reading = () => readNode(operation, args, connectWith(settings), verifyHost);
  // Concurrent reads of one node share one request; a call that waits polls on its own.
  return waitFor || fresh ? reading() : sharedCall("flight", "getNode", rest, settings, reading);
}

/** Lists the matching nodes (and waits for their status when asked); `fresh`: shares no earlier listing. */
export function fetchNodes(operation: string, args: GetNodesArgs, fresh = false): Promise<Node[]> {
  const { apiUrl: _url, apiKey: _key, limit = DEFAULT_GET_NODES_LIMIT, waitFor, ...rest } = args;
  const settings = callSettings(args);
  const listing = () => listNodes(operation, args, connectWith(settings), verifyHost);
  // The same listing in one program run is made once; a call that waits polls on its own.
  return waitFor || fresh
    ? listing()
    : sharedCall("run", "listNodes", { limit, filters: rest }, settings, listing);
}

/** Whether `error` is one a user can cause or meet (a setting, an input, a wait, the service): not a bug. */
export function isExpectedFailure(error: unknown): error is Error {
  if (error instanceof SettingsError || error instanceof WaitTimeoutError) return true;
  if (error instanceof VerifyError) return true;
  return isApiError(error);
}

/** One error object per message and `parent`: the language host reports each object once. */
const thrown = new Map<string, Error>();
const parentIds = new WeakMap<pulumi.Resource, number>();
let parentCount = 0;
const MAX_MESSAGES = 100;

/**
 * An expected failure as a `pulumi.RunError` (a `ResourceError` under `parent`) with the same
 * message, name and `cause`, and no trace: the engine prints the message alone. A bug is returned as it is.
 */
export function asRunError(error: unknown, parent?: pulumi.Resource): unknown {
  if (!isExpectedFailure(error)) return error;
  if (parent && !parentIds.has(parent)) parentIds.set(parent, ++parentCount);
  const key = `${parent ? parentIds.get(parent) : 0} ${error.message}`;
  const known = thrown.get(key);
  if (known) return known;
  const quiet = parent
    ? Object.assign(new pulumi.ResourceError(error.message, parent, true), { cause: error })
    : new pulumi.RunError(error.message, { cause: error });
  quiet.name = error.name;
  // The message is the whole report: the trace would point into this package, not at the program.
  quiet.stack = `${error.name}: ${error.message}`;
  if (thrown.size >= MAX_MESSAGES) thrown.delete(thrown.keys().next().value as string);
  thrown.set(key, quiet);
  return quiet;
}

/** A promise that knows whether its result was taken (`await`, `then`, `catch`, `pulumi.output`). */
class Watched<T> extends Promise<T> {
  static override get [Symbol.species]() {
    return Promise;
  }
  taken = false;
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.taken = true;
    return super.then(onFulfilled, onRejected);
  }
}

/**
 * Runs `body` for a call under `parent`, failing with its expected failures quietly ({@link asRunError}). The
 * failure is a rejection of a promise already marked handled, never a `throw` in an async function: Pulumi's
 * language host enables V8's debugger, which then looks for a handler of each such throw through every path
 * of the Outputs built on this call, and that search grows exponentially with the program's Outputs (minutes
 * and gigabytes for the README's program). The Output or the caller's `await` still fails with it; a result
 * nobody took (a Promise form not awaited, as a data source is written) fails the program as an unhandled
 * rejection of its own, which has no handler to search for. A bug leaves with its stack's frames made finite
 * to inspect ({@link finiteStacks}), its message as it was.
 */
export function failingQuietly<T>(body: () => Promise<T>, parent?: pulumi.Resource): Promise<T> {
  const result: Watched<T> = new Watched((resolve, reject) => {
    callParent.run(parent, body).then(resolve, (error: unknown) => {
      const failure = asRunError(finiteStacks(error), parent);
      Promise.prototype.then.call(result, undefined, () => undefined);
      reject(failure);
      // After the jobs that take a result just made (an `await` takes it a job later).
      setImmediate(() => result.taken || void Promise.reject(failure));
    });
  });
  return result;
}

/** What tells that `resource` has been applied: a custom resource's id, a component's children's. */
function doneAt(resource: pulumi.Resource): pulumi.Output<unknown>[] {
  // A DependencyResource has no id: its urn is all there is.
  if (pulumi.CustomResource.isInstance(resource)) return [resource.id ?? resource.urn];
  const children = (resource as unknown as { __childResources?: Set<pulumi.Resource> }).__childResources;
  return [resource.urn, ...[...(children ?? [])].flatMap(doneAt)];
}

/** The entries of `dependsOn` that are not resources, known once every resource among them is applied. */
function dependencies(dependsOn: pulumi.InvokeOutputOptions["dependsOn"]): pulumi.Output<unknown[]> {
  return (pulumi.output(dependsOn ?? []) as pulumi.Output<unknown>).apply((deps) => {
    const list = ([] as unknown[]).concat(deps);
    const isResource = (d: unknown): d is pulumi.Resource => pulumi.Resource.isInstance(d);
    return pulumi
      .all(list.filter(isResource).flatMap(doneAt))
      .apply(() => list.filter((d) => !isResource(d)));
  });
}

type Unsecret<T> = pulumi.Unwrap<Omit<T, "apiKey">> & { apiKey?: string };

/** The arguments with a secret `apiKey` unwrapped: the key is used, never returned. */
export function unsecretArgs<T extends { apiKey?: pulumi.Input<string> }>(args: T) {
  const { apiKey, ...rest } = args;
  const all = pulumi.all([pulumi.output(rest), pulumi.unsecret(pulumi.output(apiKey))]);
  return all.apply(([r, key]) => ({ ...(r as object), apiKey: key }) as Unsecret<T>);
}

/**
 * An Output form's result: secret from the start, made by `lookup` once the arguments are known
 * and `opts.dependsOn` is done (then `fresh`: sharing no earlier request).
 */
export function lookupOutput<P, T>(
  operation: string,
  args: { apiKey?: pulumi.Input<string> },
  opts: pulumi.InvokeOutputOptions,
  lookup: (args: P, fresh: boolean) => Promise<T>,
): pulumi.Output<T> {
  const allowed = "expected resources, e.g. { dependsOn: [network] }";
  return pulumi.secret(pulumi.all([unsecretArgs(args), dependencies(opts.dependsOn)])).apply(([a, wrong]) =>
    failingQuietly(async () => {
      if (wrong.length > 0)
        throw invalidInput(operation, [{ field: "dependsOn", value: show(wrong[0]), allowed }]);
      return lookup(a as P, opts.dependsOn !== undefined);
    }, opts.parent),
  );
}

/** Refuses `dependsOn` on a Promise form (Pulumi would drop it silently), naming the Output form. */
export function checkPromiseOptions(operation: string, opts: pulumi.InvokeOptions): void {
  const { dependsOn } = opts as pulumi.InvokeOutputOptions;
  if (dependsOn === undefined) return;
  const allowed = `use ${operation}Output(args, { dependsOn }), which waits for them`;
  throw invalidInput(operation, [{ field: "dependsOn", value: "resources", allowed }], {
    summary: "a Promise form cannot wait for resources, nothing was sent",
  });
}
