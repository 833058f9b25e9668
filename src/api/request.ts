/**
 * The one request loop: every HTTP call takes a place of the limiter, makes one attempt within the call's
 * deadline and follows the retry rules below; a failure not retried becomes an {@link ApiError}.
 */
import { attempt, formatDuration, type Answer, type Failure, type HttpRequest } from "./attempt";
import { createApiError, invalidInput, type ApiError, type ApiErrorInit, type CallLimit } from "./errors";
import { defaultSleep, MAX_TIMER_MS, type Context } from "./options";
import { ResponseShapeError } from "./mapping";
import { show, type Problem } from "../model/rules";

/** Longest wait a server may ask for (`Retry-After`, `nextFaucetAvailable`); a longer one fails the call, saying when. */
const MAX_RETRY_AFTER_MS = 60_000;

/** What a caller may set for one call. */
export interface CallOptions {
  /** The call's name in errors and wait lines (`getNodesOutput`, `Network main`); default the method. */
  operation?: string;
  /** The call's deadline, ms, across its attempts and waits (a whole listing included). Default the client's `deadlineMs`. */
  deadlineMs?: number;
}

/**
 * One call of the client: its name in messages, the id it is about, its one deadline (over at `deadlineAt`, ms
 * since the epoch), and its writes' (the caller's `deadlineMs`, else the client's `writeDeadlineMs`).
 */
export type Call = Pick<Context, "deadlineMs" | "writeDeadlineMs"> & {
  operation: string;
  resourceId?: string;
  deadlineAt: number;
};

/** Starts a call named `method` (or the caller's `operation`); throws an `InvalidInputError` for wrong options. */
export function startCall(t: Context, method: string, options?: CallOptions, resourceId?: string): Call {
  const { operation, deadlineMs = t.deadlineMs } = (options ?? {}) as CallOptions;
  const problems: Problem[] = [];
  const named = typeof operation === "string" && operation.trim() !== "" && operation.length <= 200;
  if (operation !== undefined && !named) {
    const allowed = "expected a name of at most 200 characters";
    problems.push({ field: "operation", value: show(operation), allowed });
  }
  if (typeof deadlineMs !== "number" || !(deadlineMs > 0 && deadlineMs <= MAX_TIMER_MS)) {
    const allowed = `expected a positive number of milliseconds, at most ${MAX_TIMER_MS}`;
    problems.push({ field: "deadlineMs", value: show(deadlineMs), allowed });
  }
  if (problems.length > 0) throw invalidInput(method, problems, { redactor: t.redact });
  const writeDeadlineMs = Math.min(
    options?.deadlineMs !== undefined ? deadlineMs : t.writeDeadlineMs,
    deadlineMs,
  );
  return {
    operation: operation ?? method,
    resourceId,
    deadlineMs,
    deadlineAt: Date.now() + deadlineMs,
    writeDeadlineMs,
  };
}

/** Whether a failed attempt is tried again: the first rule that matches decides. */
type Rule = { rule: string; matches: (f: Failure, post: boolean) => boolean; retry: boolean };

/**
 * The retry rules. GET, PATCH and DELETE are idempotent here; POST (the faucet) is not, so it is
 * retried only when the service said it did not process it or nothing was sent. A retry waits
 * what the server asked for (`Retry-After`, `nextFaucetAvailable`), else the local backoff.
 */
const RETRY_RULES: readonly Rule[] = [
  { rule: "an unusable 2xx answer", matches: (f) => f.cause === "unusable", retry: false },
  {
    rule: "a POST the service did not process: 429, 503 with Retry-After, a refused connection",
    matches: (f, post) => post && (throttled(f) || f.cause === "refused"),
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

/** The service throttled: a 429, or a 503 that said for how long (without it, a 503 is a fault). */
function throttled(f: Failure): boolean {
  return f.status === 429 || (f.status === 503 && f.retryAfterMs !== undefined);
}

const MAY_HAVE_BEEN_PROCESSED = "It may have been processed, so it is not repeated automatically.";

/** The note on a PATCH or DELETE that got no answer after it may have reached the service. */
const MAY_HAVE_BEEN_APPLIED =
  "It may have been applied by the service; it is not sent again automatically: read the object back to see what the service holds.";

/** Why a call stopped retrying: the note added to its error, and the limit that ran out. */
function stopNote(t: Context, call: Call, f: Failure, attempts: number, rule: Rule, delayMs: number) {
  const gaveUp = `Gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  if (!rule.retry) return { note: attempts > 1 ? `${gaveUp}.` : undefined, limit: f.error.limit };
  if (f.retryAfterMs !== undefined && f.retryAfterMs > MAX_RETRY_AFTER_MS)
    return {
      note: `The requested wait of ${formatDuration(f.retryAfterMs)} is longer than the ${formatDuration(MAX_RETRY_AFTER_MS)} waited at most; try again after it.`,
    };
  const outOf =
    attempts >= t.maxAttempts
      ? "maxRetries"
      : Date.now() + delayMs >= call.deadlineAt
        ? "deadlineMs"
        : undefined;
  if (outOf === undefined) return undefined;
  // Nothing listens at the URL: more retries or time will not start a service, so no limit is named.
  if (f.cause === "refused") return { note: `${gaveUp}.` };
  const note =
    outOf === "maxRetries"
      ? `${gaveUp}: the retries ran out (maxRetries ${t.maxAttempts - 1}).`
      : `${gaveUp}: another retry would pass the call's deadline of ${call.deadlineMs} ms.`;
  return { note, limit: outOf as CallLimit };
}

/** The error of a call, named by its operation and id, its `notes` appended to the hint, then the limit to raise. */
export function callError(
  t: Context,
  call: Call,
  init: Omit<ApiErrorInit, "operation" | "resourceId">,
  ...notes: (string | undefined)[]
): ApiError {
  const raise = init.limit ? `Raise ${init.limit}.` : undefined;
  const hint = [init.hint, ...notes, raise].filter(Boolean).join("\n") || undefined;
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
  const { operation, resourceId } = call;
  const { maxAttempts } = t;
  const subject = resourceId ? `${operation} ${resourceId}` : operation;
  const message = t.redact(
    `${subject}: ${reason}; waiting ${formatDuration(delayMs)} before attempt ${nextAttempt} of ${maxAttempts}`,
  );
  try {
    t.onWait?.({
      operation,
      resourceId,
      reason,
      status: f.status,
      delayMs,
      nextAttempt,
      maxAttempts,
      message,
    });
  } catch {
    // A log that fails must not fail the call.
  }
}

/**
 * One HTTP request of `call`, retried by {@link RETRY_RULES} within its (or a write's) deadline. A POST's
 * error says `mayHaveBeenProcessed: false` only when no attempt was sent; a PATCH or DELETE's says `true`
 * (and names no limit to raise) when an attempt got no answer after it may have reached the service.
 */
export async function request(t: Context, whole: Call, req: HttpRequest): Promise<Answer> {
  const post = req.method === "POST";
  // A write (the faucet's POST, a DELETE, a PATCH that changes something: a PATCH of `{}` only reads)
  // has its own, shorter deadline (see `writeDeadlineMs`), counted from the call's start.
  const write =
    post || req.method === "DELETE" || (req.method === "PATCH" && Object.keys(req.body ?? {}).length > 0);
  const { deadlineAt, deadlineMs, writeDeadlineMs } = whole;
  const call = write
    ? { ...whole, deadlineMs: writeDeadlineMs, deadlineAt: deadlineAt - deadlineMs + writeDeadlineMs }
    : whole;
  let attempts = 0;
  let sent = false;
  // A PATCH or DELETE that got no answer after it may have reached the service: its outcome is unknown.
  let unanswered = false;
  for (;;) {
    const release = await t.limiter.take(call.deadlineAt);
    const left = call.deadlineAt - Date.now();
    if (!release || left <= 0) {
      release?.();
      const where = `before ${attempts === 0 ? "the first attempt" : `attempt ${attempts + 1}`} could start`;
      throw callError(t, call, {
        kind: "timeout",
        code: "deadline_exceeded",
        detail: `the call's deadline of ${call.deadlineMs} ms passed ${where} (requests wait for a place in flight and for the pace the service allows)`,
        hint: unanswered ? MAY_HAVE_BEEN_APPLIED : undefined,
        limit: unanswered ? undefined : "deadlineMs",
        attempts,
        mayHaveBeenProcessed: (post && sent) || unanswered ? true : undefined,
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
      // The limiter learns from an answer or a refusal whether the service throttled; a lost connection says nothing.
      const f = outcome && "failure" in outcome ? outcome.failure : undefined;
      const heard = outcome && (!f || f.status !== undefined);
      release(heard ? { throttled: !!f && throttled(f), retryAfterMs: f?.retryAfterMs } : undefined);
    }
    attempts++;
    if ("answer" in outcome) return { ...outcome.answer, attempts };
    const f = outcome.failure;
    sent ||= !f.notProcessed;
    // A definite answer (a 4xx) tells where the write stands, whatever an earlier attempt did.
    if (f.status !== undefined && f.status < 500 && f.status !== 429) unanswered = false;
    else unanswered ||= write && !post && (f.cause === "timeout" || f.cause === "connection");
    const rule = RETRY_RULES.find((r) => r.matches(f, post)) as Rule;
    // What the server asked for, else the capped exponential backoff, drawn from [half, full].
    const delayMs =
      f.retryAfterMs ??
      Math.min(t.maxDelayMs, t.baseDelayMs * 2 ** (attempts - 1)) * (0.5 + 0.5 * Math.random());
    const stop = stopNote(t, call, f, attempts, rule, delayMs);
    if (rule.retry && !stop) {
      reportWait(t, call, f, delayMs, attempts + 1);
      await defaultSleep(delayMs); // throws once every request of the process is aborted
      continue;
    }
    if (unanswered) {
      // No limit to raise: the write may have been applied, and is not sent again.
      const init = { ...f.error, hint: undefined, attempts, mayHaveBeenProcessed: true, limit: undefined };
      const gaveUp = attempts > 1 ? `Gave up after ${attempts} attempts.` : undefined;
      throw callError(t, call, init, gaveUp, MAY_HAVE_BEEN_APPLIED);
    }
    const mayHaveBeenProcessed = post ? sent : undefined;
    const init = { ...f.error, attempts, mayHaveBeenProcessed, limit: stop?.limit };
    throw callError(t, call, init, stop?.note, mayHaveBeenProcessed ? MAY_HAVE_BEEN_PROCESSED : undefined);
  }
}

/** Maps an answer; a {@link ResponseShapeError} becomes `invalid_response` (a POST's: may have been processed). */
export function mapAnswer<T>(t: Context, call: Call, answer: Answer, map: (a: Answer) => T, post = false): T {
  try {
    return map(answer);
  } catch (error) {
    if (!(error instanceof ResponseShapeError)) throw error;
    const { status, attempts } = answer;
    const detail = `unexpected response shape: ${error.problems.join("; ")}`;
    const init = { kind: "invalid_response" as const, status, attempts, code: "unexpected_shape", detail };
    if (!post) throw callError(t, call, init);
    throw callError(t, call, { ...init, mayHaveBeenProcessed: true }, MAY_HAVE_BEEN_PROCESSED);
  }
}
