import type { Node } from "../api";
import { NODE_STATUSES, NodeStatus } from "../model";

/** Wait for nodes to reach a status. */
export interface WaitFor {
  /** The status to wait for, e.g. `running`. */
  status: NodeStatus;
  /** Give up after this many seconds (default 600). */
  timeoutSeconds?: number;
  /** Seconds between polls (default 5). */
  intervalSeconds?: number;
}

/** Default wait timeout, in seconds. */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 600;
/** Default poll interval, in seconds. */
export const DEFAULT_WAIT_INTERVAL_SECONDS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `fetch` until every node it returns has `waitFor.status`, then returns the last result.
 * @throws an error naming the operation, the wanted status, the timeout and the nodes still elsewhere.
 */
export async function waitUntil<T>(
  operation: string,
  waitFor: WaitFor,
  fetch: () => Promise<T>,
  nodesOf: (value: T) => Node[],
): Promise<T> {
  if (!(NODE_STATUSES as readonly string[]).includes(waitFor.status)) {
    throw new Error(
      `${operation}: waitFor.status ${JSON.stringify(waitFor.status)} is not a node status; expected one of ${NODE_STATUSES.join(", ")}`,
    );
  }
  const timeoutSeconds = waitFor.timeoutSeconds ?? DEFAULT_WAIT_TIMEOUT_SECONDS;
  const intervalMs = Math.max(0, (waitFor.intervalSeconds ?? DEFAULT_WAIT_INTERVAL_SECONDS) * 1000);
  if (!(timeoutSeconds >= 0)) throw new Error(`${operation}: waitFor.timeoutSeconds must be a number >= 0`);
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const value = await fetch();
    const pending = nodesOf(value).filter((n) => n.status !== waitFor.status);
    if (pending.length === 0) return value;
    if (Date.now() + intervalMs > deadline) {
      const list = pending.map((n) => `${n.id} (${n.status})`).join(", ");
      throw new Error(
        `${operation}: timed out after ${timeoutSeconds} s waiting for status ${waitFor.status}; still not there: ${list}`,
      );
    }
    await sleep(intervalMs);
  }
}
