/**
 * What a provider process keeps around each call, for both hosts: the provider's config, the
 * engine's log channel, the interruption of calls in flight when the plugin is stopped, and the
 * end of the process once its engine is gone.
 */
import { AsyncLocalStorage } from "async_hooks";
import { createRequire } from "module";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import { abortEveryRequest } from "../api/options";
import type { ConfigReader } from "../settings";
import { engineGone, noticeEngineGone, onEngineGone, watchEngine, writeStderr } from "./engine-watch";

/** The stack config handed to a dynamic provider's `configure` (read at call time, never serialized). */
let providerConfig: ConfigReader | undefined;

export function setProviderConfig(reader: ConfigReader | undefined): void {
  providerConfig = reader;
}

/** Reads a full key (`blockchain:apiKey`) of the stack config handed to `configure`; undefined before it. */
export const readProviderConfig: ConfigReader = (fullKey) => providerConfig?.(fullKey);

export type LogSeverity = "info" | "warning";

const callContext = new AsyncLocalStorage<{ urn: string }>();

/** Runs `body` with `urn` as the resource the lines it logs are about. */
export function withResource<T>(urn: string, body: () => T): T {
  return callContext.run({ urn }, body);
}

/** How errors and wait lines name the resource of the call: `Network main` when its URN is known (the plugin), else the kind. */
export function resourceLabel(kind: string): { operation: string } {
  const urn = callContext.getStore()?.urn;
  return { operation: urn ? `${kind} ${urn.slice(urn.lastIndexOf("::") + 2)}` : kind };
}

/** `host:port` of the engine: the engine passes it as the last argument of a provider process. */
export function engineAddress(argv: readonly string[] = process.argv): string | undefined {
  for (let i = argv.length - 1; i >= 2; i--)
    if (/^(?:[\w.-]+|\[[0-9a-fA-F:.]+\]):\d{1,5}$/.test(argv[i])) return argv[i];
  return undefined;
}

/** The engine's address given by `Attach`, which overrides the command line's. */
let attachedAddress: string | undefined;

/**
 * Takes the engine's address from the provider protocol's `Attach` (`PluginAttach.address`), sent
 * when the engine attaches to a provider started beforehand (`PULUMI_DEBUG_PROVIDERS`), with no
 * address on its command line: {@link engineLog} writes there from now on.
 */
export function attachEngine(address: string): void {
  attachedAddress = address;
  channel?.client.close();
  channel = undefined;
  reached = false;
}

/**
 * The engine's address has answered (a connection, a line delivered): from then on, a line that
 * cannot be delivered means the engine is gone. Not for an engine that attached (`Attach`): such
 * a provider was started beforehand and serves engine after engine.
 */
let reached = false;

type Channel = {
  client: engineRpc.EngineClient;
  proto: typeof engineProto;
  metadata: typeof grpcTypes.Metadata;
};

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
  const address = attachedAddress || engineAddress();
  if (!address) return (channel = null);
  try {
    const { grpc, rpc, proto } = loadStubs();
    const client = new rpc.EngineClient(address, grpc.credentials.createInsecure());
    channel = { client, proto, metadata: grpc.Metadata };
  } catch {
    channel = null;
  }
  return channel;
}

function toStderr(severity: LogSeverity, message: string): void {
  writeStderr(`${severity}: ${message}\n`);
}

/**
 * Logs one line through the engine's `Log` call (`pulumi.log` is not connected in a provider
 * process), on the resource of the call in flight; standard error without an engine. Never throws
 * or rejects; settles once the engine has the line (or after 5 s): a call whose last word is the
 * line awaits it, so the engine cannot end the run before the line reaches it.
 */
export function engineLog(severity: LogSeverity, message: string): Promise<void> {
  if (engineGone() !== undefined) return Promise.resolve();
  const ch = open();
  if (!ch) return Promise.resolve(toStderr(severity, message));
  const req = new ch.proto.LogRequest();
  req.setSeverity(severity === "warning" ? ch.proto.LogSeverity.WARNING : ch.proto.LogSeverity.INFO);
  req.setMessage(message);
  req.setUrn(callContext.getStore()?.urn ?? "");
  req.setEphemeral(false);
  return new Promise((resolve) => {
    try {
      ch.client.log(req, new ch.metadata(), { deadline: Date.now() + 5_000 }, (err) => {
        if (!err) reached ||= attachedAddress === undefined;
        // UNAVAILABLE (14): nothing answers at the engine's address any more.
        else if (reached && (err as { code?: number }).code === 14)
          noticeEngineGone("a line for the engine could not be delivered");
        else toStderr(severity, message);
        resolve();
      });
    } catch {
      toStderr(severity, message);
      resolve();
    }
  });
}

/** Why a piece of work was cut off; `started`: it was running (a request may have been sent). */
export class CallInterrupted extends Error {
  constructor(
    readonly reason: string,
    readonly started: boolean,
  ) {
    super(started ? `${reason} while the call was in flight` : `${reason}; the call was not started`);
    this.name = "CallInterrupted";
  }
}

/**
 * A write whose outcome is unknown (cut off while in flight, or no answer after it may have reached
 * the service), said in one line: what may have been applied, and how to see what the service holds.
 * It is not sent again.
 */
export class OutcomeUnknownError extends Error {
  constructor(operation: string, id: string, cause: string, change: string) {
    super(
      `${operation} ${id}: ${cause}; ${change} may have been applied by the service; \`pulumi refresh\` shows what it holds`,
    );
    this.name = "OutcomeUnknownError";
    this.stack = `${this.name}: ${this.message}`;
  }
}

let stopping: string | undefined;
let interrupted: string | undefined;
const running = new Set<(reason: string) => void>();

/** From now on, {@link interruptible} starts no new work; `reason` says why. */
export function beginStopping(reason: string): void {
  stopping ??= reason;
}

/**
 * Cuts off every piece of work running through {@link interruptible}, and any started later; and ends every
 * HTTP request and wait of the process (`abortEveryRequest`), which then throw a {@link CallInterrupted}.
 */
export function interruptCalls(reason: string): void {
  stopping ??= reason;
  interrupted ??= reason;
  for (const cut of [...running]) cut(interrupted);
  abortEveryRequest(new CallInterrupted(interrupted, true));
}

/**
 * Runs `work` unless stopping (then throws, `started: false`); if {@link interruptCalls} comes
 * first, rejects at once with `started: true`, abandoning the work, so the caller records what it must.
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

/** How long cut-off work gets to record what it must (a faucet send's journal entry) before the process exits, ms. */
const RECORD_MS = 500;

/**
 * Ends this provider process once its engine is gone (see engine-watch.ts): every call in flight is
 * cut off ({@link interruptCalls}: no request is sent after it, a faucet send is recorded as
 * unknown), nothing more is written, and `exit(1)` follows within a second.
 */
export function exitWhenEngineGone(exit: (code: number) => void = (code) => process.exit(code)): void {
  onEngineGone((reason) => {
    interruptCalls(`the engine is gone (${reason})`);
    setTimeout(() => exit(1), RECORD_MS);
  });
  const ch = attachedAddress === undefined ? open() : undefined;
  watchEngine({
    channel: ch?.client.getChannel(),
    onReady: () => (reached ||= attachedAddress === undefined),
  });
}
