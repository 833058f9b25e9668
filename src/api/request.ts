/**
 * The one request path of the client: every HTTP call goes through {@link request}, which
 * applies the rate limiter to each attempt ({@link attempt}, below), cuts each attempt to the time left
 * of the overall deadline, follows the retry rules of `retry.ts`, and turns the last failure into
 * an {@link ApiError} with credentials redacted.
 */
import {
  AttemptFailure,
  httpFailure,
  MAY_HAVE_BEEN_PROCESSED_NOTE,
  SERVER_SHORT_CHARS,
  serverText,
  unusableAnswer,
} from "./answer";
import { USER_AGENT } from "./defaults";
import { ApiError, createApiError } from "./errors";
import { BodyTooLargeError, classifyFailure, describeBody, parseBody, readBodyText } from "./node-fetch";
import {
  formatDuration,
  isIdempotent,
  reportWait,
  retryDelay,
  retryStop,
  RetryContext,
  RetryStop,
} from "./retry";
import type { ApiResponse, RequestSpec, Transport } from "./transport";
import { isSameOrigin, shownPath } from "./url";

const STOP_NOTES: Record<
  RetryStop,
  (t: Transport, attempts: number, ctx: RetryContext) => string | undefined
> = {
  not_retryable: (_t, attempts) => (attempts > 1 ? `Gave up after ${attempts} attempts.` : undefined),
  may_have_been_processed: () =>
    "The request may have been processed: it is not repeated automatically because it is not idempotent.",
  retry_after_too_long: (t, _attempts, ctx) =>
    `The requested wait of ${formatDuration(ctx.retryAfterMs ?? 0)} is longer than maxRetryAfterMs (${t.retryPolicy.maxRetryAfterMs} ms); try again after that.`,
  attempts_exhausted: (_t, attempts) => (attempts > 1 ? `Gave up after ${attempts} attempts.` : undefined),
  deadline: (t, attempts) =>
    `Gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}: another retry would pass the overall deadline of ${t.deadlineMs} ms.`,
};

function deadlineError(t: Transport, spec: RequestSpec, attempts: number, where: string): ApiError {
  return createApiError(
    {
      kind: "timeout",
      code: "deadline_exceeded",
      operation: spec.operation,
      resourceId: spec.resourceId,
      detail: `the overall deadline of ${t.deadlineMs} ms ${where}`,
      hint: "Raise deadlineMs, or lower the number of calls made at once.",
      attempts,
      // A request that was sent before may have been processed.
      mayHaveBeenProcessed: !isIdempotent(spec.method) && attempts > 0 ? true : undefined,
    },
    t.redact,
  );
}

/**
 * Performs one logical call with retries and returns the successful response, or throws an
 * {@link ApiError}. Only `url`s on the configured origin are accepted. The overall deadline
 * (`deadlineMs`) covers everything, end to end: waiting for a rate-limiter slot, every attempt
 * (each cut to the time left) and every wait between attempts (a retry whose chosen delay would
 * pass the deadline is not made).
 *
 * For a non-idempotent request (the faucet's POST), the error's `mayHaveBeenProcessed` is
 * `false` only when the service clearly refused it (a 4xx with its error object, or a 429 / 503
 * with `Retry-After`) or the connection was refused before anything was sent; any other outcome
 * after sending (a timeout, a dropped connection, a 5xx, an unreadable 200) is `true`.
 */
export async function request(t: Transport, spec: RequestSpec): Promise<ApiResponse> {
  if (!isSameOrigin(t.base, spec.url)) {
    throw createApiError(
      {
        kind: "invalid_input",
        code: "foreign_origin",
        operation: spec.operation,
        resourceId: spec.resourceId,
        detail: `refusing to send the API key to a URL outside ${t.base.origin}`,
        attempts: 0,
      },
      t.redact,
    );
  }
  const start = t.now();
  let attempts = 0;
  let sentBefore = false;
  for (;;) {
    const result = await limited(t, () => oneAttempt(t, spec, start, attempts));
    attempts++;
    if ("response" in result) return { ...result.response, attempts };
    const { ctx: partial, init, final, notProcessed } = result.failed;
    if (!notProcessed) sentBefore = true;
    const ctx: RetryContext = {
      method: spec.method,
      attempt: attempts,
      maxAttempts: t.maxAttempts,
      elapsedMs: t.now() - start,
      deadlineMs: t.deadlineMs,
      ...partial,
    };
    const delayMs = retryDelay(ctx, t.retryPolicy, t.random);
    // An unusable success body is not a transient failure.
    const stop: RetryStop | undefined = final
      ? "not_retryable"
      : retryStop({ ...ctx, nextDelayMs: delayMs }, t.retryPolicy);
    if (stop === undefined) {
      reportWait(t, spec, init, ctx, delayMs, attempts + 1);
      await t.sleep(delayMs);
      continue;
    }
    const mayHaveBeenProcessed = isIdempotent(spec.method) ? undefined : sentBefore || !notProcessed;
    const note = mayHaveBeenProcessed
      ? [
          stop === "may_have_been_processed" ? undefined : STOP_NOTES[stop](t, attempts, ctx),
          MAY_HAVE_BEEN_PROCESSED_NOTE,
        ]
          .filter(Boolean)
          .join("\n")
      : stop === "may_have_been_processed"
        ? STOP_NOTES.not_retryable(t, attempts, ctx)
        : STOP_NOTES[stop](t, attempts, ctx);
    throw toError(
      t,
      spec,
      { ...init, hint: [init.hint, note].filter(Boolean).join("\n") || undefined },
      {
        attempts,
        mayHaveBeenProcessed,
      },
    );
  }
}

/** Runs `task` holding a place of the client-wide concurrency bound, when there is one. */
function limited<T>(t: Transport, task: () => Promise<T>): Promise<T> {
  return t.concurrency ? t.concurrency.run(task) : task();
}

/** Waits for a rate-limiter slot within the deadline, then makes attempt `attempts + 1`. */
async function oneAttempt(
  t: Transport,
  spec: RequestSpec,
  start: number,
  attempts: number,
): ReturnType<typeof attempt> {
  const remainingBeforeSlot = t.deadlineMs - (t.now() - start);
  if (remainingBeforeSlot <= 0 || !(await t.limiter.acquire(remainingBeforeSlot))) {
    throw deadlineError(
      t,
      spec,
      attempts,
      `would pass while waiting for a rate-limiter slot for attempt ${attempts + 1} (maxRequestsPerSecond)`,
    );
  }
  const remaining = t.deadlineMs - (t.now() - start);
  if (remaining <= 0) {
    throw deadlineError(t, spec, attempts, `passed before attempt ${attempts + 1} could start`);
  }
  const attemptTimeout = Math.min(t.timeoutMs, remaining);
  return attempt(t, spec, attemptTimeout, attemptTimeout < t.timeoutMs);
}

function toError(
  t: Transport,
  spec: RequestSpec,
  init: AttemptFailure["init"],
  extra: { attempts: number; mayHaveBeenProcessed?: boolean },
): ApiError {
  return createApiError(
    {
      ...init,
      operation: spec.operation,
      resourceId: spec.resourceId,
      attempts: extra.attempts,
      mayHaveBeenProcessed: extra.mayHaveBeenProcessed,
    },
    t.redact,
  );
}

/*
 * One attempt of a call: the request sent with its headers and body, a timer that aborts it,
 * the body read with a size cap; the result is the response, or the description of a failure
 * (a timeout, a connection that failed or was refused, an unusable or failed answer).
 */

/** Sends one attempt; returns the response, or a failure description. */
export async function attempt(
  t: Transport,
  spec: RequestSpec,
  timeoutMs: number,
  deadlineHit: boolean,
): Promise<{ response: ApiResponse } | { failed: AttemptFailure }> {
  const headers: Record<string, string> = {
    Authorization: t.authorization(),
    Accept: "application/json",
    "User-Agent": USER_AGENT,
  };
  let body: string | undefined;
  if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    headers["Content-Type"] = "application/json";
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  let status = 0;
  let contentType = "";
  let text: string;
  let retryAfterHeader: string | null = null;
  let answered = false;
  try {
    const res = await t.fetch(spec.url, {
      method: spec.method,
      headers,
      body,
      signal: controller.signal,
      redirect: "manual",
    });
    answered = true;
    status = res.status;
    contentType = res.headers.get("content-type") ?? "";
    retryAfterHeader = res.headers.get("retry-after");
    const location = status >= 300 && status < 400 ? res.headers.get("location") : null;
    text = await readBodyText(res, t.maxResponseBytes, () => controller.abort());
    if (location !== null) text = `redirect to ${serverText(t, location, SERVER_SHORT_CHARS * 2)}`;
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      return unusableAnswer(
        status,
        "response_too_large",
        `${spec.method} ${shownPath(spec.url)}: ${error.message}`,
        "Raise maxResponseBytes if the service really sends bodies this large; otherwise check the API URL.",
      );
    }
    if (timedOut || controller.signal.aborted) {
      const reason = deadlineHit
        ? `the overall deadline of ${t.deadlineMs} ms passed before the service answered`
        : `no answer within the per-attempt timeout of ${timeoutMs} ms`;
      return {
        failed: {
          notProcessed: false,
          ctx: { failure: "timeout" },
          init: {
            kind: "timeout",
            code: deadlineHit ? "deadline_exceeded" : "timeout",
            detail: `${spec.method} ${shownPath(spec.url)}: ${reason}${answered ? " (the body was still arriving)" : ""}`,
            hint: deadlineHit
              ? "Raise deadlineMs, or check that the service is reachable."
              : "Raise timeoutMs if the service is slow, or check that it is reachable.",
          },
        },
      };
    }
    const { failure, code, detail } = answered
      ? {
          failure: "connection" as const,
          code: "body_interrupted",
          detail: String((error as Error)?.message ?? error),
        }
      : classifyFailure(error);
    return {
      failed: {
        notProcessed: failure === "refused",
        ctx: { failure },
        init: {
          kind: "network",
          code,
          detail: `${spec.method} ${t.base.origin}${shownPath(spec.url)}: ${detail}`,
          hint: "Check the API URL and the network connection.",
        },
      },
    };
  } finally {
    clearTimeout(timer);
  }

  const parsed = parseBody(text);

  if (status >= 200 && status < 300) {
    if (!parsed.ok) {
      return unusableAnswer(
        status,
        "invalid_json",
        `expected JSON, got ${describeBody(t, contentType, text)}`,
      );
    }
    return { response: { status, contentType, text, body: parsed.value, attempts: 0 } };
  }
  return httpFailure(t, spec, { status, contentType, text, parsed, retryAfterHeader });
}
