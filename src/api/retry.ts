import {
  DEFAULT_BACKOFF_FACTOR,
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_JITTER,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  RETRYABLE_STATUSES,
} from "./defaults";
import type { AttemptFailure } from "./answer";
import type { RequestSpec, Transport } from "./transport";

/**
 * How an attempt failed without an HTTP answer:
 * - `timeout`: the per-attempt timeout fired (the request may have reached the service);
 * - `connection`: the connection was reset or dropped (`ECONNRESET`, `socket hang up`): the
 *   request may have reached the service;
 * - `refused`: the connection was refused (`ECONNREFUSED`): nothing was sent, so even a
 *   non-idempotent request may be retried;
 * - `network`: any other failure (DNS name unknown, TLS certificate refused): not transient.
 */
export type FailureKind = "timeout" | "connection" | "refused" | "network";

/** The facts about one finished attempt that the retry rules look at. */
export interface RetryContext {
  /** HTTP method: GET, PATCH and DELETE are idempotent here; POST (the faucet) is not. */
  method: string;
  /** Attempts made so far, counting the one that just failed (1 for the first). */
  attempt: number;
  /** The most attempts allowed (retries + 1). */
  maxAttempts: number;
  /** The HTTP status, when the service answered. */
  status?: number;
  /** How the attempt failed, when there was no HTTP answer. */
  failure?: FailureKind;
  /**
   * The server-requested wait in milliseconds (`Retry-After` header, or the faucet's
   * `nextFaucetAvailable`), when given.
   */
  retryAfterMs?: number;
  /** Time spent on the call so far, in milliseconds. */
  elapsedMs: number;
  /** The call's overall deadline, in milliseconds from its start. */
  deadlineMs: number;
  /**
   * The delay actually chosen for the next attempt (jitter applied), when known: the deadline
   * rule checks it. Without it the rule checks the shortest possible delay.
   */
  nextDelayMs?: number;
}

/** The tunables of the retry rules; see `defaults.ts`. */
export interface RetryPolicy {
  /** First backoff delay before jitter. */
  baseDelayMs: number;
  /** Growth factor of the backoff. */
  factor: number;
  /** Cap of a locally computed delay. */
  maxDelayMs: number;
  /** Longest server-requested wait honoured; longer → give up. */
  maxRetryAfterMs: number;
  /** Draw each backoff delay from [half, full] of its exponential value. */
  jitter: boolean;
  /** Statuses retried for idempotent methods. */
  retryableStatuses: readonly number[];
}

/** The default retry policy (see `defaults.ts`). */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  baseDelayMs: DEFAULT_BASE_DELAY_MS,
  factor: DEFAULT_BACKOFF_FACTOR,
  maxDelayMs: DEFAULT_MAX_DELAY_MS,
  maxRetryAfterMs: DEFAULT_MAX_RETRY_AFTER_MS,
  jitter: DEFAULT_JITTER,
  retryableStatuses: RETRYABLE_STATUSES,
});

/**
 * Why a failed attempt is not retried:
 * - `not_retryable`: the status or failure is not transient (e.g. 400, 404, 500, a DNS failure);
 * - `may_have_been_processed`: a non-idempotent request timed out or lost its connection, so it
 *   may have been processed: retrying could do it twice;
 * - `retry_after_too_long`: the server asked to wait longer than `maxRetryAfterMs`;
 * - `attempts_exhausted`: `maxAttempts` reached;
 * - `deadline`: waiting for the next attempt would pass the overall deadline.
 */
export type RetryStop =
  "not_retryable" | "may_have_been_processed" | "retry_after_too_long" | "attempts_exhausted" | "deadline";

/** True for methods that may be repeated safely: everything but POST (the faucet). */
export function isIdempotent(method: string): boolean {
  return method.toUpperCase() !== "POST";
}

/**
 * True when the failure itself is transient for this method, regardless of counts and time:
 * - idempotent methods: statuses of `retryableStatuses` (429, 502, 503, 504), a per-attempt
 *   timeout, a failed connection;
 * - POST: only when the service said it did not process the request (429, or 503 with a
 *   `Retry-After`), or the connection was refused (nothing was sent). Never after a timeout or a
 *   dropped connection.
 */
export function isRetryableFailure(ctx: RetryContext, policy: RetryPolicy = DEFAULT_RETRY_POLICY): boolean {
  if (isIdempotent(ctx.method)) {
    if (ctx.status !== undefined) return policy.retryableStatuses.includes(ctx.status);
    return ctx.failure === "timeout" || ctx.failure === "connection" || ctx.failure === "refused";
  }
  if (ctx.failure === "refused") return true;
  if (ctx.status === 429) return true;
  if (ctx.status === 503) return ctx.retryAfterMs !== undefined;
  return false;
}

/** The exponential backoff delay of a retry before jitter: `base * factor^(attempt-1)`, capped. */
export function backoffDelay(attempt: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * Math.pow(policy.factor, exponent));
}

/**
 * How long to wait before the next attempt. A server-requested wait (`retryAfterMs`) wins over
 * the local backoff; otherwise the capped exponential backoff, jittered into [half, full] when
 * `policy.jitter` is on. `random` returns a number in [0, 1).
 */
export function retryDelay(
  ctx: RetryContext,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): number {
  if (ctx.retryAfterMs !== undefined) return Math.max(0, ctx.retryAfterMs);
  const delay = backoffDelay(ctx.attempt, policy);
  if (!policy.jitter) return delay;
  const r = Math.min(Math.max(random(), 0), 1);
  return delay * (0.5 + 0.5 * r);
}

/** The shortest delay {@link retryDelay} may return for this context. */
export function minRetryDelay(ctx: RetryContext, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  if (ctx.retryAfterMs !== undefined) return Math.max(0, ctx.retryAfterMs);
  const delay = backoffDelay(ctx.attempt, policy);
  return policy.jitter ? delay / 2 : delay;
}

/** Why the attempt is not retried, or `undefined` when it is; see {@link RetryStop}. */
export function retryStop(
  ctx: RetryContext,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): RetryStop | undefined {
  if (!isRetryableFailure(ctx, policy)) {
    const sent = ctx.failure === "timeout" || ctx.failure === "connection";
    return !isIdempotent(ctx.method) && sent ? "may_have_been_processed" : "not_retryable";
  }
  if (ctx.retryAfterMs !== undefined && ctx.retryAfterMs > policy.maxRetryAfterMs) {
    return "retry_after_too_long";
  }
  if (ctx.attempt >= ctx.maxAttempts) return "attempts_exhausted";
  if (ctx.elapsedMs + (ctx.nextDelayMs ?? minRetryDelay(ctx, policy)) >= ctx.deadlineMs) return "deadline";
  return undefined;
}

/** True when the failed attempt should be retried; see {@link retryStop} for the reason when not. */
export function shouldRetry(ctx: RetryContext, policy: RetryPolicy = DEFAULT_RETRY_POLICY): boolean {
  return retryStop(ctx, policy) === undefined;
}

/**
 * Parses a `Retry-After` header: delay seconds (`"120"`) or an HTTP date
 * (`"Wed, 21 Oct 2015 07:28:00 GMT"`). Returns milliseconds from `nowMs` (never negative), or
 * `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date has a month name; a bare or signed number that is not delay-seconds is junk.
  if (/^[+-]/.test(text) || !/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Parses a date string (the faucet's `nextFaucetAvailable`) into milliseconds from `nowMs`. */
export function parseDateDelay(value: unknown, nowMs: number): number | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** A duration for a message: `250 ms`, `1.5 s`, `3 min`, `2.5 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

/** Why an attempt failed, in a few words for a log line. */
function failureReason(t: Transport, init: AttemptFailure["init"], ctx: RetryContext): string {
  if (ctx.status !== undefined) return `the service answered ${ctx.status}`;
  if (ctx.failure === "timeout") return `no answer within ${formatDuration(t.timeoutMs)}`;
  if (ctx.failure === "refused") return "the connection was refused";
  return `the connection failed (${init.code})`;
}

/** Tells the transport's `onWait` of a wait before attempt `nextAttempt`; a failing listener is ignored. */
export function reportWait(
  t: Transport,
  spec: RequestSpec,
  init: AttemptFailure["init"],
  ctx: RetryContext,
  delayMs: number,
  nextAttempt: number,
): void {
  if (!t.onWait) return;
  const reason = failureReason(t, init, ctx);
  const subject = spec.resourceId ? `${spec.operation} ${spec.resourceId}` : spec.operation;
  const message = t.redact(
    `${subject}: ${reason}; waiting ${formatDuration(delayMs)} before attempt ${nextAttempt} of ${t.maxAttempts}`,
  );
  try {
    t.onWait({
      operation: spec.operation,
      resourceId: spec.resourceId,
      reason,
      status: ctx.status,
      delayMs,
      nextAttempt,
      maxAttempts: t.maxAttempts,
      message,
    });
  } catch {
    // A log that fails must not fail the call.
  }
}
