import { defaultSleep } from "../api/options";
import { invalidInput } from "../api/errors";
import { type Node } from "../api/types";
import { VerifyError } from "./verify";
import { checkOneOf, Problem, show } from "../model/rules";
import { NODE_STATUSES, NodeStatus } from "../model/values";

/** Wait for nodes to reach a status. Every field is checked before the first poll. */
export interface WaitFor {
  /** The status to wait for: one of the node statuses, e.g. `running`. */
  status: NodeStatus;
  /**
   * Give up after this many seconds: a number from 0 to {@link MAX_WAIT_TIMEOUT_SECONDS} (one
   * day). Default 600. `0` checks once without waiting.
   */
  timeoutSeconds?: number;
  /**
   * Seconds between polls: a number from {@link MIN_WAIT_INTERVAL_SECONDS} (0.1) to
   * {@link MAX_WAIT_INTERVAL_SECONDS} (one hour). Default 5.
   */
  intervalSeconds?: number;
}

export const DEFAULT_WAIT_TIMEOUT_SECONDS = 600;
export const DEFAULT_WAIT_INTERVAL_SECONDS = 5;
/** Longest `waitFor.timeoutSeconds` accepted: one day. */
export const MAX_WAIT_TIMEOUT_SECONDS = 86_400;
/** Shortest `waitFor.intervalSeconds` accepted: 0.1 s, so that polling cannot flood the service. */
export const MIN_WAIT_INTERVAL_SECONDS = 0.1;
/** Longest `waitFor.intervalSeconds` accepted: one hour. */
export const MAX_WAIT_INTERVAL_SECONDS = 3_600;

/** Each number of a `waitFor`, in seconds: its default, least and greatest value. */
const WAIT_NUMBERS = {
  timeoutSeconds: [DEFAULT_WAIT_TIMEOUT_SECONDS, 0, MAX_WAIT_TIMEOUT_SECONDS],
  intervalSeconds: [DEFAULT_WAIT_INTERVAL_SECONDS, MIN_WAIT_INTERVAL_SECONDS, MAX_WAIT_INTERVAL_SECONDS],
} as const;

const WAIT_FOR_FIELDS = ["status", ...Object.keys(WAIT_NUMBERS)];

/** The checked settings of a wait. */
export type WaitSettings = { status: NodeStatus; timeoutSeconds: number; intervalMs: number };

/** The clock and timer a wait uses (injectable for tests). */
export interface WaitClock {
  /** The clock, ms. Default `Date.now`. */
  now?: () => number;
  /** Waits `ms` milliseconds. Default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** Checks a `waitFor` argument completely; an `InvalidInputError` lists every problem, nothing polled. */
export function checkWaitFor(operation: string, waitFor: unknown): WaitSettings {
  const refuse = (problems: Problem[]) =>
    invalidInput(operation, problems, {
      code: "invalid_wait_for",
      summary: "invalid waitFor, nothing was polled",
    });
  if (typeof waitFor !== "object" || waitFor === null || Array.isArray(waitFor)) {
    const allowed = "expected an object { status, timeoutSeconds?, intervalSeconds? }";
    throw refuse([{ field: "waitFor", value: show(waitFor), allowed }]);
  }
  const record = waitFor as Record<string, unknown>;
  const problems: Problem[] = Object.keys(record)
    .filter((key) => !WAIT_FOR_FIELDS.includes(key))
    .map((key) => ({
      field: `waitFor.${key}`,
      value: show(record[key]),
      allowed: `unknown field; expected one of ${WAIT_FOR_FIELDS.map((f) => `waitFor.${f}`).join(", ")}`,
    }));
  const own = (key: string) => (Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined);
  const status = own("status");
  const statusProblem = checkOneOf("waitFor.status", status, NODE_STATUSES);
  if (statusProblem) problems.push(statusProblem);
  const [timeoutSeconds, intervalSeconds] = (["timeoutSeconds", "intervalSeconds"] as const).map((name) => {
    const [fallback, min, max] = WAIT_NUMBERS[name];
    const value = own(name);
    if (value === undefined) return fallback;
    if (typeof value === "number" && Number.isFinite(value) && value >= min && value <= max) return value;
    const allowed = `expected a number of seconds >= ${min}, at most ${max}`;
    problems.push({ field: `waitFor.${name}`, value: show(value), allowed });
    return fallback;
  });
  if (problems.length > 0) throw refuse(problems);
  return { status: status as NodeStatus, timeoutSeconds, intervalMs: intervalSeconds * 1000 };
}

/** A wait of `waitFor` that ended before every node reached the status: the message names them. */
export class WaitTimeoutError extends Error {
  override name = "WaitTimeoutError";
}

const TIMED_OUT = Symbol("timed out");

/** Resolves `promise`, or {@link TIMED_OUT} after `ms`; the timer never outlives the race. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  // A poll abandoned at the deadline may still fail later: that failure is no longer anyone's.
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls `fetch` until every node it returns has `waitFor.status` (with `enough`: at least that
 * many, the others left to `settle`), and `settle` passes (a {@link VerifyError} it throws polls
 * again unless lasting); never runs past `timeoutSeconds`
 * (a poll still running then is abandoned). On timeout, a {@link WaitTimeoutError} naming the nodes still elsewhere.
 * The default sleep and the client's polls end at once when the process's requests are aborted
 * (the plugin cancelled or stopped): the wait then throws that reason.
 */
export async function waitUntil<T>(
  operation: string,
  waitFor: WaitFor,
  fetch: () => Promise<T>,
  nodesOf: (value: T) => Node[],
  clock: WaitClock = {},
  settle?: (value: T) => Promise<T>,
  enough?: number,
): Promise<T> {
  const { status, timeoutSeconds, intervalMs } = checkWaitFor(operation, waitFor);
  const now = clock.now ?? Date.now;
  const sleep = clock.sleep ?? defaultSleep;
  const deadline = now() + timeoutSeconds * 1000;
  let pending: Node[] | undefined;
  let ready = false;
  let failed: VerifyError | undefined;
  const timedOut = (late: boolean) => {
    const where = !pending
      ? "no poll answered"
      : !ready
        ? `still not there: ${pending.map((n) => `${n.id} (${n.status})`).join(", ")}`
        : failed
          ? `the last endpoint check: ${failed.message.replace(/^[^:]*: /, "")}`
          : "the endpoint check did not end in time";
    return new WaitTimeoutError(
      `${operation}: timed out after ${timeoutSeconds} s waiting for status ${status}${settle ? " and a passing endpoint check" : ""}; ${where}${late && pending ? " (the last poll did not answer in time)" : ""}`,
    );
  };
  const bounded = <V>(first: boolean, promise: () => Promise<V>) =>
    first && timeoutSeconds === 0 ? promise() : within(promise(), Math.max(0, deadline - now()));
  for (let first = true; ; first = false) {
    let value = await bounded(first, fetch);
    if (value === TIMED_OUT) throw timedOut(true);
    const nodes = nodesOf(value);
    pending = nodes.filter((n) => n.status !== status);
    ready = pending.length === 0 || (enough !== undefined && nodes.length - pending.length >= enough);
    if (ready && settle) {
      const settling = value;
      value = await bounded(first, () => settle(settling)).catch((error: unknown) => {
        if (!(error instanceof VerifyError) || error.lasting || timeoutSeconds === 0) throw error;
        failed = error;
        return TIMED_OUT;
      });
      if (value !== TIMED_OUT) return value;
    } else if (ready) return value;
    if (now() + intervalMs >= deadline) throw timedOut(false);
    await sleep(intervalMs);
  }
}
