/**
 * How the plugin stops on SIGTERM / SIGINT: no new calls, a bounded grace for those in flight
 * (`BLOCKCHAIN_SHUTDOWN_GRACE_MS`), then they are cut off and answered with an error, so that a
 * call retrying against a silent service cannot keep the process alive for minutes. The engine's
 * `Cancel` cuts them off at once, the same way, and refuses the calls after it.
 */
import { beginStopping, interruptCalls, OutcomeUnknownError } from "../provider/calls";

/** Default grace for the calls in flight, ms. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5_000;

/** The environment variable that sets the grace, in ms (an integer from 0). */
export const SHUTDOWN_GRACE_ENV = "BLOCKCHAIN_SHUTDOWN_GRACE_MS";

/** Longest grace honoured: Node's longest timer. */
const MAX_GRACE_MS = 2_147_483_647;

/** How long cut-off work gets to record its outcome before its call is answered with an error, ms. */
const RECORD_MS = 500;

/** How long the answers get to reach the engine before the server is closed hard, ms. */
const FLUSH_MS = 2_000;

/**
 * How long the last answers get to be written once every call is answered, ms: the process then
 * exits even when a client keeps its connection open (gRPC's graceful shutdown waits for that).
 */
const ANSWERED_FLUSH_MS = 250;

/** The grace from `BLOCKCHAIN_SHUTDOWN_GRACE_MS`, or the default with a warning for a value that is not one. */
export function shutdownGraceMs(env: NodeJS.ProcessEnv = process.env): { graceMs: number; warning?: string } {
  const raw = env[SHUTDOWN_GRACE_ENV];
  if (raw === undefined || raw.trim() === "") return { graceMs: DEFAULT_SHUTDOWN_GRACE_MS };
  const value = raw.trim();
  if (/^\d+$/.test(value) && Number(value) <= MAX_GRACE_MS) return { graceMs: Number(value) };
  const warning = `${SHUTDOWN_GRACE_ENV}=${JSON.stringify(value.slice(0, 40))} is not a number of milliseconds from 0 to ${MAX_GRACE_MS}; using ${DEFAULT_SHUTDOWN_GRACE_MS}`;
  return { graceMs: DEFAULT_SHUTDOWN_GRACE_MS, warning };
}

/** Why the work of the calls is cut off when the engine sends `Cancel`. */
const CANCEL_REASON = "the engine cancelled the operation (Cancel)";

/** The one error of every call cut off by the engine's `Cancel`, and of every call after it. */
export const CANCELLED_MESSAGE = `${CANCEL_REASON}: this call was interrupted; run the command again`;

/** The error of the calls cut off (set by the first cut-off): answers with an error from then on say it. */
let cutOffMessage: string | undefined;
let cancelled = false;

/** Answers a call: with its value, or with an error. */
export type Answer<T> = (result: { value: T } | { error: unknown }) => void;

interface InFlight {
  /** Answers the call, once; later answers are dropped. */
  answer: Answer<unknown>;
  /** Settles once the call is answered. */
  answered: Promise<void>;
}

const inFlight = new Set<InFlight>();

/** Registers a call being served; the first answer is sent through `send`, any later one dropped. */
export function trackCall<T>(send: Answer<T>): Answer<T> {
  let answered = false;
  let done: () => void = () => undefined;
  const call: InFlight = {
    answer: (result) => {
      if (answered) return;
      answered = true;
      inFlight.delete(call);
      done();
      // Once cut off, a call fails with the one message, whatever its work threw when cut; but a
      // write cut off says what may have been applied.
      const failed =
        cutOffMessage !== undefined && "error" in result && !(result.error instanceof OutcomeUnknownError);
      send((failed ? { error: new Error(cutOffMessage) } : result) as { value: T } | { error: unknown });
    },
    answered: new Promise<void>((resolve) => (done = resolve)),
  };
  inFlight.add(call);
  return call.answer as Answer<T>;
}

/**
 * Cuts off the calls in flight: their work is interrupted (requests aborted, waits ended) and
 * records what it must (a faucet send); those not answered within `RECORD_MS` get `message`.
 */
async function cutOff(reason: string, message: string): Promise<void> {
  cutOffMessage ??= message;
  const open = [...inFlight];
  interruptCalls(reason);
  await Promise.race([Promise.all(open.map((call) => call.answered)), sleep(RECORD_MS)]);
  for (const call of [...inFlight]) call.answer({ error: new Error(cutOffMessage) });
}

/**
 * The provider protocol's `Cancel` ("gracefully shut down and abort any ongoing resource
 * operations", advisory and non-blocking: proto/pulumi/provider.proto): the calls in flight are
 * cut off at once and fail with {@link CANCELLED_MESSAGE}; the process keeps serving, refusing calls.
 */
export function cancelCalls(): void {
  cancelled = true;
  void cutOff(CANCEL_REASON, CANCELLED_MESSAGE);
}

/** Throws {@link CANCELLED_MESSAGE} once the engine has sent `Cancel`: no call starts after it. */
export function refuseAfterCancel(): void {
  if (cancelled) throw new Error(CANCELLED_MESSAGE);
}

/** The parts of a gRPC server a shutdown uses. */
export type StoppableServer = { tryShutdown(callback: (error?: Error) => void): void; forceShutdown(): void };

/** What a shutdown needs besides the server; injectable for tests. */
export interface ShutdownOptions {
  graceMs: number;
  exit: (code: number) => void;
  /** Writes one line for the engine's log (the plugin's standard error). */
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The handler of SIGTERM / SIGINT: the first signal stops taking calls (exit 0 once all are answered, a
 * moment later); when the grace runs out, or at a second signal, the calls in flight are cut off (exit 1).
 */
export function shutdownOnSignal(server: StoppableServer, options: ShutdownOptions) {
  let reason: string | undefined;
  let forced = false;
  let exited = false;
  let graceTimer: NodeJS.Timeout | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    clearTimeout(graceTimer);
    clearTimeout(flushTimer);
    options.exit(code);
  };

  const force = async (): Promise<void> => {
    if (forced) return;
    forced = true;
    clearTimeout(graceTimer);
    const why = reason ?? "the provider was stopped";
    const open = [...inFlight];
    if (open.length > 0)
      options.log(
        `pulumi-resource-blockchain: ${why}; ${open.length} call${open.length === 1 ? "" : "s"} still in flight after the ${options.graceMs} ms grace (${SHUTDOWN_GRACE_ENV}) are cut off`,
      );
    // Work that must record its outcome (a faucet send) does so, and its call is answered.
    const message = `${why} while this call was in flight; calls get ${options.graceMs} ms to finish (${SHUTDOWN_GRACE_ENV}), and this one had not. Run the command again.`;
    await cutOff(why, message);
    // The answers are on their way; tryShutdown exits once they are sent. If it does not, close hard.
    flushTimer = setTimeout(() => {
      server.forceShutdown();
      exit(1);
    }, FLUSH_MS);
  };

  return (signal: string) => {
    if (reason !== undefined) return void force();
    reason = `the provider was stopped (${signal})`;
    beginStopping(reason);
    server.tryShutdown(() => exit(forced ? 1 : 0));
    graceTimer = setTimeout(() => void force(), options.graceMs);
    // Every call answered: exit, whether or not the engine has closed its connection yet.
    void Promise.all([...inFlight].map((call) => call.answered)).then(() => {
      if (forced) return;
      clearTimeout(graceTimer);
      flushTimer = setTimeout(() => {
        server.forceShutdown();
        exit(0);
      }, ANSWERED_FLUSH_MS);
    });
  };
}
