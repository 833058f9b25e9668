/**
 * How a provider process (the plugin, or Pulumi's dynamic-provider host running the provider
 * runtime) hears that the engine that started it is gone: its parent process changes (the engine
 * is its parent), its standard input ends (a pipe from the engine, which never writes to it: it
 * ends only when the engine's end closes), standard error is a broken pipe, the engine's address
 * refuses connections after it once answered, or a line for the engine cannot be delivered
 * (calls.ts). The first of them is noticed once; what listens cuts off the work in flight and exits.
 */
import * as fs from "fs";

let goneReason: string | undefined;
const listeners: Array<(reason: string) => void> = [];

/** Why the engine is gone, once it is; undefined while it is there. */
export function engineGone(): string | undefined {
  return goneReason;
}

/** Records that the engine is gone (the first reason wins) and tells the listeners, once. */
export function noticeEngineGone(reason: string): void {
  if (goneReason !== undefined) return;
  goneReason = reason;
  for (const listener of listeners.splice(0)) listener(reason);
}

/** Calls `listener` once the engine is gone (at once if it is already). */
export function onEngineGone(listener: (reason: string) => void): void {
  if (goneReason !== undefined) listener(goneReason);
  else listeners.push(listener);
}

/**
 * Writes `text` to standard error unless the engine is gone: the engine reads the other end of that
 * pipe, so nothing is written to a pipe nobody reads (a write there fails, and Pulumi's
 * dynamic-provider host would print that failure again, and again).
 */
export function writeStderr(text: string): void {
  if (goneReason !== undefined) return;
  try {
    process.stderr.write(text);
  } catch {
    noticeEngineGone("its standard error cannot be written");
  }
}

/** The parts of a gRPC channel watched (`@grpc/grpc-js`'s `Channel`). */
export interface WatchedChannel {
  getConnectivityState(tryToConnect: boolean): number;
  watchConnectivityState(state: number, deadline: number, callback: (error?: Error) => void): void;
}

/** `@grpc/grpc-js`'s `ConnectivityState` values used here. */
const READY = 2;
const TRANSIENT_FAILURE = 3;
const SHUTDOWN = 4;

/**
 * Watches a channel to the engine: once it has been ready (`onReady`), a failure to connect again
 * means the engine's address refuses connections: the engine is gone. An idle channel is connected
 * again at once (the engine closing its connection is what makes it idle).
 */
function watchChannel(channel: WatchedChannel, onReady: () => void): void {
  let ready = false;
  const step = (): void => {
    let state: number;
    try {
      state = channel.getConnectivityState(true);
      if (state === SHUTDOWN) return;
      if (state === READY && !ready) {
        ready = true;
        onReady();
      }
      if (state === TRANSIENT_FAILURE && ready) {
        noticeEngineGone("its engine's address refuses connections");
        return;
      }
      channel.watchConnectivityState(state, Infinity, (error) => {
        if (!error) step();
      });
    } catch {
      // A channel closed meanwhile (an `Attach` replaced it): nothing more to watch.
    }
  };
  step();
}

/** Options of {@link watchEngine}. */
export interface EngineWatchOptions {
  /** The channel to the engine's address, when the process was given one on its command line. */
  channel?: WatchedChannel;
  /** Told when the channel first connects: the engine's address answers. */
  onReady?: () => void;
  /** How often the parent process is checked, ms. */
  pollMs?: number;
}

let watching = false;

/**
 * Starts listening, once per process, for each sign that the engine is gone (see this file's
 * header); none of them keeps the process alive. Standard input is read only when it is a pipe
 * (or a socket), never a terminal or a file.
 */
export function watchEngine(options: EngineWatchOptions = {}): void {
  if (watching) return;
  watching = true;
  const parent = process.ppid;
  // A process whose parent is already init has no engine parent to lose.
  if (parent > 1) {
    const timer = setInterval(() => {
      if (process.ppid !== parent) {
        clearInterval(timer);
        noticeEngineGone(`its parent process (${parent}) ended`);
      }
    }, options.pollMs ?? 1_000);
    timer.unref();
  }
  let stdinIsPipe = false;
  try {
    const stdin = fs.fstatSync(0);
    // The engine's is a pipe; Node.js gives its children a socket pair.
    stdinIsPipe = stdin.isFIFO() || stdin.isSocket();
  } catch {
    // no standard input
  }
  if (stdinIsPipe) {
    const stdin = process.stdin;
    stdin.on("data", () => undefined);
    stdin.on("end", () => noticeEngineGone("its standard input closed"));
    stdin.on("error", () => noticeEngineGone("its standard input failed"));
    stdin.resume();
    (stdin as { unref?: () => void }).unref?.();
  }
  process.stderr.on("error", () => noticeEngineGone("its standard error is a broken pipe"));
  if (options.channel) watchChannel(options.channel, options.onReady ?? (() => undefined));
}
