/**
 * The dynamic providers, loaded by name in the provider process at call time (nothing captured by value).
 * Pulumi's host prints each error of `check`, `diff`, `read` and `delete` again with its trace, and offers no
 * way to turn it off: that copy is dropped here. The host ignores the engine's `Cancel`; what this process
 * can hear is its engine going away, and then it stops (see `exitWhenEngineGone`), printing nothing more.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Assert, SameNames } from "../api/types";
import { engineGone } from "../provider/engine-watch";
import { engineLog, exitWhenEngineGone, setProviderConfig } from "../provider/calls";
import { KINDS, type KindMethods, type ResourceKind } from "../provider/kinds";
import { setWaitReporter } from "../settings";

/** How long a muted line is waited for, ms (the host prints it right after the call fails). */
const MUTE_FOR_MS = 10_000;

const muted = new Set<string>();
let installed = false;

/**
 * Lets `console.error` drop the host's copy of an error thrown here, and everything once the engine
 * is gone (nobody reads standard error then: a write there fails, and the host would print that
 * failure again and again); prints everything else.
 */
function installFilter(): void {
  if (installed) return;
  installed = true;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (engineGone() !== undefined) return;
    if (args.length === 1 && typeof args[0] === "string" && muted.delete(args[0])) return;
    print(...args);
  };
}

/** Makes an error thrown to the host quiet: its stack its first line, the host's copy dropped; returns it. */
export function quiet(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  error.stack = `${error.name}: ${error.message}`;
  installFilter();
  const line = `${error}: ${error.stack}`;
  muted.add(line);
  setTimeout(() => muted.delete(line), MUTE_FOR_MS).unref();
  return error;
}

/** A provider method whose errors are made {@link quiet}. */
export function quietly<A extends unknown[], R>(
  method: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await method(...args);
    } catch (error) {
      throw quiet(error);
    }
  };
}

// A wait between two attempts shows in the engine's log as it happens (a 429, a 5xx, a timeout).
setWaitReporter((event) => void engineLog("info", event.message));

/** This module runs in Pulumi's dynamic-provider host (`node …/@pulumi/pulumi/cmd/dynamic-provider <engine>`). */
const IN_HOST = /[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/.test(process.argv[1] ?? "");
if (IN_HOST) {
  installFilter();
  exitWhenEngineGone();
}

/** Keeps the stack config of this provider process (read at call time, never serialized). */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  setProviderConfig((key) => req.config.get(key));
}

/** The dynamic provider of a kind, its errors quiet (`read` also returns the inputs; the host hands them on). */
function dynamicProvider<I, O>(kind: ResourceKind<I, O>) {
  const m: KindMethods<I, O> = kind.methods;
  return {
    check: quietly(m.check),
    diff: quietly(m.diff),
    create: quietly(m.create),
    read: quietly(m.read as (id: string, props?: O) => Promise<pulumi.dynamic.ReadResult<O>>),
    update: quietly(m.update),
    delete: quietly(m.delete),
  } satisfies pulumi.dynamic.ResourceProvider<I, O>;
}

/** The Network provider (key `network` of the registry). */
export const network = dynamicProvider(KINDS.network);
/** The FaucetDrip provider (key `faucetDrip` of the registry). */
export const faucetDrip = dynamicProvider(KINDS.faucetDrip);

/** Every kind of the registry is exported under its key. */
type _EveryKindServed = Assert<SameNames<keyof typeof KINDS, "network" | "faucetDrip">>;
