/**
 * The one request loop: every HTTP call of the client takes a place of the limiter, makes one
 * attempt within the call's deadline, and follows the retry rules below; a failure that is not
 * retried becomes an {@link ApiError} naming the call, with credentials redacted.
 */
import { attempt, type Answer, type HttpRequest } from "./attempt";
import { formatDuration, type Failure } from "./failures";
import { ApiError, createApiError, invalidInput, type ApiErrorInit, type CallLimit } from "./errors";
import { defaultSleep, MAX_TIMER_MS, type Context } from "./options";
import type { Outcome } from "./limits";
import { ResponseShapeError } from "./mapping";
import { show, type Problem } from "../model";

/** Longest wait a server may ask for (`Retry-After`, `nextFaucetAvailable`); a longer one fails the call, saying when. */
const MAX_RETRY_AFTER_MS = 60_000;

/** What a caller may set for one call. */
export interface CallOptions {
  /**
   * What errors and wait lines call this call, e.g. `getNodesOutput` or `Network main`: the
   * name the program knows it by. Default the client method's name.
   */
  operation?: string;
  /** The call's deadline, ms, across its attempts and waits (a whole listing included). Default the client's `deadlineMs`. */
  deadlineMs?: number;
}

/** One call of the client: its name in messages, the id it is about, and its one deadline. */
export interface Call {
  operation: string;
  resourceId?: string;
  deadlineMs: number;
  /** When the call must be over, ms since the epoch. */
  deadlineAt: number;
}

/** Starts a call named `method` (or the caller's `operation`); throws an `InvalidInputError` for wrong options. */
export function startCall(
  t: Context,
  method: string,
  options: CallOptions | undefined,
  resourceId?: string,
): Call {
  const { operation, deadlineMs = t.deadlineMs } = (options ?? {}) as CallOptions;
  const problems: Problem[] = [];
  if (
    operation !== undefined &&
    (typeof operation !== "string" || operation.trim() === "" || operation.length > 200)
  ) {
    problems.push({
      field: "operation",
      value: show(operation),
      allowed: "expected a name of at most 200 characters",
    });
  }
  if (typeof deadlineMs !== "number" || !(deadlineMs > 0 && deadlineMs <= MAX_TIMER_MS)) {
    problems.push({
      field: "deadlineMs",
      value: show(deadlineMs),
      allowed: `expected a positive number of milliseconds, at most ${MAX_TIMER_MS}`,
    });
  }
  if (problems.length > 0) throw invalidInput(method, problems, { redactor: t.redact });
  return { operation: operation ?? method, resourceId, deadlineMs, deadlineAt: Date.now() + deadlineMs };
}

/** Whether a failed attempt is tried again: the first rule that matches decides. */
interface Rule {
  rule: string;
  matches: (f: Failure, post: boolean) => boolean;
  retry: boolean;
}

/**
 * The retry rules. GET, PATCH and DELETE are idempotent here; POST (the faucet) is not, so it is
 * retried only when the service said it did not process it or nothing was sent. A retry waits
 * what the server asked for (`Retry-After`, `nextFaucetAvailable`), else the local backoff.
 */
const RETRY_RULES: readonly Rule[] = [
  { rule: "an unusable 2xx answer", matches: (f) => f.cause === "unusable", retry: false },
  {
    rule: "a POST the service did not process: 429, 503 with Retry-After, a refused connection",
    matches: (f, post) =>
      post &&
      (f.status === 429 || (f.status === 503 && f.retryAfterMs !== undefined) || f.cause === "refused"),
    retry: true,
  },
  { rule: "any other failed POST: it may have been processed", matches: (_f, post) => post, retry: false },
  { rule: "429, 502, 503, 504", matches: (f) => [429, 502, 503, 504].includes(f.status ?? 0), retry: true },
  {
    rule: "a timeout, a dropped or refused connection",
    matches: (f) => ["timeout", "connection", "refused"].includes(f.cause),
    retry: true,
  },
  { rule: "anything else (400, 404, 500, a DNS or TLS failure)", matches: () => true, retry: false },
];

/** The note on a POST that may have been processed. */
export const MAY_HAVE_BEEN_PROCESSED = "It may have been processed, so it is not repeated automatically.";

/** The capped exponential backoff before attempt `attempt + 1`, drawn from [half, full]. */
function backoff(t: Context, attempt: number): number {
  const full = Math.min(t.maxDelayMs, t.baseDelayMs * 2 ** (attempt - 1));
  return full * (0.5 + 0.5 * Math.random());
}

/** Why a call stopped retrying: the note added to its error, and the limit that ran out. */
function stopNote(
  t: Context,
  call: Call,
  f: Failure,
  attempts: number,
  rule: Rule,
  delayMs: number,
): { note?: string; limit?: CallLimit } {
  const gaveUp = `Gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  if (!rule.retry) return { note: attempts > 1 ? `${gaveUp}.` : undefined, limit: f.error.limit };
  if (f.retryAfterMs !== undefined && f.retryAfterMs > MAX_RETRY_AFTER_MS) {
    return {
      note: `The requested wait of ${formatDuration(f.retryAfterMs)} is longer than the ${formatDuration(MAX_RETRY_AFTER_MS)} waited at most; try again after it.`,
    };
  }
  if (attempts >= t.maxAttempts) {
    return {
      note: `${gaveUp}: the retries ran out (maxRetries ${t.maxAttempts - 1}); raise maxRetries.`,
      limit: "maxRetries",
    };
  }
  if (Date.now() + delayMs >= call.deadlineAt) {
    return {
      note: `${gaveUp}: another retry would pass the call's deadline of ${call.deadlineMs} ms; raise deadlineMs.`,
      limit: "deadlineMs",
    };
  }
  return {};
}

/** The error of a call that stopped, its notes appended to the failure's hint. */
function callError(
  t: Context,
  call: Call,
  init: Omit<ApiErrorInit, "operation" | "resourceId">,
  ...notes: (string | undefined)[]
): ApiError {
  const hint = [init.hint, ...notes].filter(Boolean).join("\n") || undefined;
  return createApiError({ ...init, hint, operation: call.operation, resourceId: call.resourceId }, t.redact);
}

/** Tells `onWait` of a wait as it starts; a listener that throws does not fail the call. */
function reportWait(t: Context, call: Call, f: Failure, delayMs: number, nextAttempt: number): void {
  const reason =
    f.status !== undefined
      ? `the service answered ${f.status}`
      : f.cause === "timeout"
        ? `no answer within ${formatDuration(t.timeoutMs)}`
        : f.cause === "refused"
          ? "the connection was refused"
          : `the connection failed (${f.error.code})`;
  const subject = call.resourceId ? `${call.operation} ${call.resourceId}` : call.operation;
  const message = t.redact(
    `${subject}: ${reason}; waiting ${formatDuration(delayMs)} before attempt ${nextAttempt} of ${t.maxAttempts}`,
  );
  try {
    t.onWait?.({
      operation: call.operation,
      resourceId: call.resourceId,
      reason,
      status: f.status,
      delayMs,
      nextAttempt,
      maxAttempts: t.maxAttempts,
      message,
    });
  } catch {
    // A log that fails must not fail the call.
  }
}

/** What the limiter learns from an attempt: whether the service throttled it (429, or 503 with Retry-After), and its wait. */
function heard(outcome: Awaited<ReturnType<typeof attempt>> | undefined): Outcome {
  if (outcome === undefined) return undefined;
  if ("answer" in outcome) return { throttled: false };
  const { status, retryAfterMs } = outcome.failure;
  // A 503 slows the process only when the service said for how long: otherwise it is a fault.
  const throttled = status === 429 || (status === 503 && retryAfterMs !== undefined);
  return status === undefined ? undefined : { throttled, retryAfterMs };
}

/**
 * Makes one HTTP request of `call`, retried by {@link RETRY_RULES}, within the call's deadline
 * (waits for the limiter, attempts and the waits between them). A POST's error says
 * `mayHaveBeenProcessed: false` only when every attempt was clearly refused or never sent.
 */
export async function request(t: Context, call: Call, req: HttpRequest): Promise<Answer> {
  const post = req.method === "POST";
  let attempts = 0;
  let sent = false;
  for (;;) {
    const release = await t.limiter.take(call.deadlineAt);
    const left = call.deadlineAt - Date.now();
    if (!release || left <= 0) {
      release?.();
      const where =
        attempts === 0
          ? "before the first attempt could start"
          : `before attempt ${attempts + 1} could start`;
      throw callError(t, call, {
        kind: "timeout",
        code: "deadline_exceeded",
        detail: `the call's deadline of ${call.deadlineMs} ms passed ${where} (requests wait for a place in flight and for the pace the service allows)`,
        hint: "Raise deadlineMs.",
        limit: "deadlineMs",
        attempts,
        mayHaveBeenProcessed: post && sent ? true : undefined,
      });
    }
    let outcome: Awaited<ReturnType<typeof attempt>> | undefined;
    try {
      outcome = await attempt(
        t,
        req,
        Math.min(t.timeoutMs, left),
        left < t.timeoutMs ? call.deadlineMs : undefined,
      );
    } finally {
      release(heard(outcome));
    }
    attempts++;
    if ("answer" in outcome) return { ...outcome.answer, attempts };
    const f = outcome.failure;
    sent ||= !f.notProcessed;
    const rule = RETRY_RULES.find((r) => r.matches(f, post)) as Rule;
    const delayMs = f.retryAfterMs ?? backoff(t, attempts);
    const stop = stopNote(t, call, f, attempts, rule, delayMs);
    if (rule.retry && !("note" in stop)) {
      reportWait(t, call, f, delayMs, attempts + 1);
      await defaultSleep(delayMs); // throws once every request of the process is aborted
      continue;
    }
    const mayHaveBeenProcessed = post ? sent : undefined;
    throw callError(
      t,
      call,
      { ...f.error, attempts, mayHaveBeenProcessed, limit: stop.limit },
      stop.note,
      mayHaveBeenProcessed ? MAY_HAVE_BEEN_PROCESSED : undefined,
    );
  }
}

/**
 * Maps a successful answer with `map`; a {@link ResponseShapeError} becomes an `invalid_response`
 * error naming the wrong fields (a POST answered 2xx did something: it may have been processed).
 */
export function mapAnswer<T>(
  t: Context,
  call: Call,
  answer: Answer,
  map: (body: unknown, text: string) => T,
  post = false,
): T {
  try {
    return map(answer.body, answer.text);
  } catch (error) {
    if (!(error instanceof ResponseShapeError)) throw error;
    throw invalidAnswer(
      t,
      call,
      answer,
      `unexpected response shape: ${error.problems.join("; ")}`,
      "unexpected_shape",
      post,
    );
  }
}

/** An `invalid_response` error for a 2xx whose content cannot be used. */
export function invalidAnswer(
  t: Context,
  call: Call,
  answer: Pick<Answer, "status" | "attempts">,
  detail: string,
  code: string,
  post = false,
): ApiError {
  return callError(
    t,
    call,
    {
      kind: "invalid_response",
      code,
      status: answer.status,
      detail,
      attempts: answer.attempts,
      mayHaveBeenProcessed: post || undefined,
    },
    post ? MAY_HAVE_BEEN_PROCESSED : undefined,
  );
}
