/**
 * What a provider process keeps around each call, for both hosts (the dynamic providers' host and
 * the `blockchain` plugin): the provider's config, the engine's log channel, and the interruption
 * of calls in flight when the process is stopped.
 *
 * The log: a line logged here is shown by the engine as it happens, on the resource when its URN
 * is known, in `pulumi up`'s progress and in a CI log. The engine starts every provider process
 * with its own address as the last argument; the Pulumi SDK's `pulumi.log` is not connected to it
 * there, so this module speaks the engine's `Log` call itself, with the stubs of the installed
 * `@pulumi/pulumi` (loaded on the first line logged, never before; in the bundled plugin, the
 * copies bundled with it: static `require`s the bundler follows). Without an engine (a test, a
 * script), or when the call fails, the line goes to standard error, which the engine also shows.
 *
 * The interruption: the provider plugin says when it was asked to stop ({@link beginStopping}: no
 * new send may start) and when its grace for the calls in flight has run out
 * ({@link interruptCalls}: work still running is abandoned). Work that must not be half-recorded
 * when that happens (a faucet send, which may have reached the service) runs through
 * {@link interruptible} and decides what to record. The dynamic providers never call either.
 */
import { AsyncLocalStorage } from "async_hooks";
import { createRequire } from "module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import type { ConfigReader } from "../settings";

// The provider's config.

/**
 * The dynamic providers' config reader: the stack config handed to `configure(req)`, kept in
 * this module of the provider process (read at call time, never serialized).
 */
let providerConfig: ConfigReader | undefined;

/** Stores the reader of the stack config handed to a dynamic provider's `configure`. */
export function setProviderConfig(reader: ConfigReader | undefined): void {
  providerConfig = reader;
}

/** Reads a full key (`blockchain:apiKey`) of the stack config handed to `configure`; undefined before it. */
export const readProviderConfig: ConfigReader = (fullKey) => providerConfig?.(fullKey);

// The engine's log.

/** The severities a line may have. */
export type LogSeverity = "info" | "warning";

/** What a call in flight is about: the URN the engine shows its lines under. */
const callContext = new AsyncLocalStorage<{ urn: string }>();

/** Runs `body` with `urn` as the resource the lines it logs are about. */
export function withResource<T>(urn: string, body: () => T): T {
  return callContext.run({ urn }, body);
}

/**
 * What errors and wait lines call the resource of the call in flight: `Network main` when its URN
 * is known (the plugin), else the kind alone (a dynamic provider is not told the resource's name).
 */
export function resourceLabel(kind: string): { operation: string } {
  const urn = callContext.getStore()?.urn;
  return { operation: urn ? `${kind} ${urn.slice(urn.lastIndexOf("::") + 2)}` : kind };
}

/** `host:port` of the engine: the last argument of this process that looks like one. */
export function engineAddress(argv: readonly string[] = process.argv): string | undefined {
  for (let i = argv.length - 1; i >= 2; i--) {
    if (/^(?:[\w.-]+|\[[0-9a-fA-F:.]+\]):\d{1,5}$/.test(argv[i])) return argv[i];
  }
  return undefined;
}

interface Channel {
  client: engineRpc.EngineClient;
  proto: typeof engineProto;
}

let channel: Channel | null | undefined;

/** True in the bundled plugin (`scripts/bundle-plugin.js` defines it); not defined elsewhere. */
declare const BLOCKCHAIN_PLUGIN_BUNDLED: boolean | undefined;

/** gRPC and the engine's stubs: bundled ones in the bundled plugin, else those of the installed `@pulumi/pulumi`. */
function loadStubs(): { grpc: typeof grpcTypes; rpc: typeof engineRpc; proto: typeof engineProto } {
  // A constant in the bundle: the bundler keeps this branch and drops the other.
  if (typeof BLOCKCHAIN_PLUGIN_BUNDLED === "boolean") {
    return {
      grpc: require("@grpc/grpc-js"),
      rpc: require("@pulumi/pulumi/proto/engine_grpc_pb"),
      proto: require("@pulumi/pulumi/proto/engine_pb"),
    };
  }
  const sdkRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  return {
    grpc: sdkRequire("@grpc/grpc-js"),
    rpc: sdkRequire("./proto/engine_grpc_pb"),
    proto: sdkRequire("./proto/engine_pb"),
  };
}

function open(): Channel | null {
  if (channel !== undefined) return channel;
  const address = engineAddress();
  if (!address) return (channel = null);
  try {
    const { grpc, rpc, proto } = loadStubs();
    const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
    channel = { client, proto };
  } catch {
    channel = null;
  }
  return channel;
}

/** Writes `message` to standard error, one line. */
function toStderr(severity: LogSeverity, message: string): void {
  process.stderr.write(`${severity}: ${message}\n`);
}

/**
 * Logs one line through the engine, on the resource of the call in flight when there is one.
 * Never throws; the line must hold no secret (callers log waits and outcomes, never values).
 */
export function engineLog(severity: LogSeverity, message: string): void {
  const ch = open();
  if (!ch) return toStderr(severity, message);
  const req = new ch.proto.LogRequest();
  req.setSeverity(severity === "warning" ? ch.proto.LogSeverity.WARNING : ch.proto.LogSeverity.INFO);
  req.setMessage(message);
  req.setUrn(callContext.getStore()?.urn ?? "");
  req.setEphemeral(false);
  try {
    ch.client.log(req, (err) => {
      if (err) toStderr(severity, message);
    });
  } catch {
    toStderr(severity, message);
  }
}

// Interrupting calls in flight.

/** Why a piece of work was cut off, and whether it had started. */
export class CallInterrupted extends Error {
  /**
   * Builds the error. `started`: the work was running (a request may have been sent), rather
   * than refused before it began.
   */
  constructor(
    readonly reason: string,
    readonly started: boolean,
  ) {
    super(started ? `${reason} while the call was in flight` : `${reason}; the call was not started`);
    this.name = "CallInterrupted";
  }
}

let stopping: string | undefined;
let interrupted: string | undefined;
const running = new Set<(reason: string) => void>();

/** From now on, {@link interruptible} starts no new work; `reason` says why (e.g. "the provider was stopped (SIGTERM)"). */
export function beginStopping(reason: string): void {
  stopping ??= reason;
}

/** Cuts off every piece of work running through {@link interruptible}, and any started later. */
export function interruptCalls(reason: string): void {
  stopping ??= reason;
  interrupted ??= reason;
  for (const cut of [...running]) cut(interrupted);
}

/**
 * Runs `work` unless the process is stopping (then throws a {@link CallInterrupted} with
 * `started: false`, without calling it), and settles like it, unless {@link interruptCalls} comes
 * first: then it rejects at once with a {@link CallInterrupted} with `started: true` (the work
 * itself is abandoned, not awaited).
 */
export async function interruptible<T>(work: () => Promise<T>): Promise<T> {
  if (stopping !== undefined) throw new CallInterrupted(stopping, false);
  let cut: (reason: string) => void = () => undefined;
  const cutOff = new Promise<never>((_resolve, reject) => {
    cut = (reason) => reject(new CallInterrupted(reason, true));
  });
  running.add(cut);
  try {
    return await Promise.race([work(), cutOff]);
  } finally {
    running.delete(cut);
  }
}
