/**
 * The functions' program host: the program's stack config as the config reader, the client of a
 * call (with waits logged to the engine and refused settings named where they came from), one
 * request for the same arguments in one program run, and the quiet `pulumi.RunError` of every
 * expected failure. The public functions (`./index.ts`) call {@link fetchNode} and
 * {@link fetchNodes}; the lookups themselves are host-neutral (`./lookups.ts`).
 *
 * No duplicate work in one program run: calls of the data-source functions with the same
 * arguments share one request. A listing (`getNodes`, `getNodesOutput`,
 * `getNodeConnectionsOutput` with filters) is made once per program run (one process); a node
 * read (`getNode`) is shared while it is in flight. A call with `waitFor` or `dependsOn` is never
 * shared: it polls, or reads after its resources, on its own. A failed call is forgotten, so that
 * a later call tries again.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { isApiError, type Node, type NodeServiceClient, type RetryWait } from "../api";
import {
  appendHint,
  CONFIG_NAMESPACE,
  ConfigReader,
  ConnectionArgs,
  findSettings,
  reviewStackConfig,
  SettingsError,
  setWaitReporter,
  settingFix,
  withClient,
} from "../settings";
import { DEFAULT_GET_NODES_LIMIT, listNodes, readNode, type GetNodeArgs, type GetNodesArgs } from "./lookups";
import { WaitTimeoutError } from "./wait";

// Config and client.

/**
 * The functions' config reader: the program's stack configuration, `blockchain:*` keys only;
 * undefined outside a Pulumi program (e.g. a script using the functions directly).
 */
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

/**
 * A wait between two attempts, in the program's log as it happens (the engine shows it in the
 * CI log at once, under the call's `parent`): "getNodes: the service answered 429; waiting 20 s
 * before attempt 2 of 5". Only under an engine: outside a Pulumi run (a script, unit tests with
 * mocks) there is no log to write to, and `pulumi.log` would print to the console instead.
 */
function logWait(event: RetryWait): void {
  if (!pulumi.runtime.hasEngine()) return;
  pulumi.log.info(event.message, callParent.getStore()).catch(() => undefined);
}

/** Which setting a refusal of the client's own checks is about, by the error's code. */
const REFUSED_SETTING: Record<string, "apiUrl" | "apiKey"> = {
  invalid_api_url: "apiUrl",
  invalid_api_key: "apiKey",
};

/**
 * `withClient` for the functions: the program's stack config as the config reader, and a URL or
 * key refused by the client's checks (plain `http://` to a remote host, a key no header can
 * carry) says where it came from and how to replace it there, as a refused key (401) already does:
 * "It came from stack config blockchain:apiUrl: set the right one with `pulumi config set …`".
 */
export async function withFunctionClient<T>(
  args: ConnectionArgs,
  use: (client: NodeServiceClient) => Promise<T>,
): Promise<T> {
  setWaitReporter(logWait);
  reviewStackConfig(pulumi.runtime, (message) => pulumi.log.warn(message));
  try {
    return await withClient(args, readStackConfig, use);
  } catch (error) {
    const setting = isApiError(error) ? REFUSED_SETTING[error.code] : undefined;
    const found = setting && findSettings(args, readStackConfig)[setting];
    if (!setting || !found) throw error;
    const fix = settingFix(setting, found.source);
    throw appendHint(error as Error, `${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`);
  }
}

// One request for the same arguments.

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

/**
 * The result of `run` for these arguments (a hash of `kind`, them and the connection they use),
 * made once per program run (`"run"`: listings) or shared by the calls made while it is in flight
 * (`"flight"`: node reads).
 */
function sharedCall<T>(
  scope: "run" | "flight",
  kind: string,
  args: ConnectionArgs & Record<string, unknown>,
  run: () => Promise<T>,
): Promise<T> {
  return shared(scope === "run" ? forRun : inFlight, keyOf(kind, args), scope === "run", run);
}

/** Forgets every shared call (tests that change the service between two calls use it). */
export function forgetSharedCalls(): void {
  forRun.clear();
  inFlight.clear();
}

/** Reads one node (and waits for its status when asked); `fresh`: shares no earlier request. */
export function fetchNode(operation: string, args: GetNodeArgs, fresh = false): Promise<Node> {
  const { waitFor, ...rest } = args;
  const reading = () => readNode(operation, args, withFunctionClient);
  // Concurrent reads of one node share one request; a call that waits polls on its own.
  return waitFor || fresh ? reading() : sharedCall("flight", "getNode", rest, reading);
}

/** Lists the matching nodes (and waits for their status when asked); `fresh`: shares no earlier listing. */
export function fetchNodes(operation: string, args: GetNodesArgs, fresh = false): Promise<Node[]> {
  const { apiUrl, apiKey, limit = DEFAULT_GET_NODES_LIMIT, waitFor, ...rest } = args;
  const listing = () => listNodes(operation, args, withFunctionClient);
  // The same listing in one program run is made once; a call that waits polls on its own.
  return waitFor || fresh
    ? listing()
    : sharedCall("run", "listNodes", { apiUrl, apiKey, limit, filters: rest }, listing);
}

// Quiet errors.

/**
 * Whether `error` is an expected failure, one a user can cause or meet: a missing or refused
 * setting, a refused input, key or id, a wait that timed out, and every error of the service's
 * client (unreachable host, refused connection, timeout, 5xx, 429 after retries, a wrong API URL).
 * Each already says what happened and what to do; only a bug is not expected.
 */
export function isExpectedFailure(error: unknown): error is Error {
  if (error instanceof SettingsError || error instanceof WaitTimeoutError) return true;
  return isApiError(error);
}

/**
 * One error object per message (and `parent`): the engine's language host reports an error object
 * once, so the same failure met by several function calls of one program (a missing key, a
 * refused key) is printed once.
 */
const thrown = new Map<string, Error>();
const parentIds = new WeakMap<pulumi.Resource, number>();
let parentCount = 0;
/** Messages remembered at most (a long-running script forgets the oldest). */
const MAX_MESSAGES = 100;

/**
 * `error` as the functions throw it. An expected failure ({@link isExpectedFailure}) becomes a
 * `pulumi.RunError` with the same message (with a `parent`, a `pulumi.ResourceError` without its
 * stack, shown under that resource): the engine prints that message alone, without the
 * "unhandled exception" banner and stack trace, and ends the program. Its `name` is the original
 * error's (`SettingsError`, `UnauthorizedError`, ...), and its `cause` the original error, with its
 * `kind`, `code` and fields. Anything else (a bug) is returned as it is, trace included.
 */
export function asRunError(error: unknown, parent?: pulumi.Resource): unknown {
  if (!isExpectedFailure(error)) return error;
  if (parent && !parentIds.has(parent)) parentIds.set(parent, ++parentCount);
  const key = `${parent ? parentIds.get(parent) : 0} ${error.message}`;
  const known = thrown.get(key);
  if (known) return known;
  quietLateHandling();
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

/** Whether the `rejectionHandled` listener of {@link quietLateHandling} is installed. */
let listening = false;

/**
 * No `PromiseRejectionHandledWarning` for the errors thrown here. A function's Output that fails
 * before the program's exports are awaited (an invalid filter fails at once) is reported by the
 * language host's `unhandledRejection` handler, which prints its message; when the export is
 * awaited later, Node.js warns that the rejection "was handled asynchronously", unless a
 * `rejectionHandled` listener takes it. This listener takes only the rejections whose reason is a
 * `RunError` of this module; for any other it emits Node's own warning, as Node would.
 */
function quietLateHandling(): void {
  if (listening) return;
  listening = true;
  const ours = (reason: unknown) => [...thrown.values()].some((e) => e === reason);
  process.on("rejectionHandled", (promise: Promise<unknown>) => {
    promise.catch((reason: unknown) => {
      if (!ours(reason)) {
        process.emitWarning("Promise rejection was handled asynchronously", "PromiseRejectionHandledWarning");
      }
    });
  });
}

/** Runs `body` for a call under `parent`, throwing its expected failures quietly ({@link asRunError}). */
export async function failingQuietly<T>(body: () => Promise<T>, parent?: pulumi.Resource): Promise<T> {
  try {
    return await callParent.run(parent, body);
  } catch (error) {
    throw asRunError(error, parent);
  }
}
