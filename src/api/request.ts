/**
 * The one request path of the client: every HTTP call goes through {@link request}, which adds the
 * `Authorization` header, applies the rate limiter to each attempt, a per-attempt timeout and an
 * overall deadline, follows the retry rules of `retry.ts`, parses JSON and maps failures to
 * {@link ApiError}s with credentials redacted.
 */
import { ApiError, ApiErrorInit, ApiErrorKind, createApiError, kindForStatus } from "./errors";
import { RateLimiter } from "./rate-limiter";
import { Redactor, previewBody } from "./redact";
import { RETRYABLE_CONNECTION_CODES, USER_AGENT } from "./defaults";
import {
  FailureKind,
  RetryContext,
  RetryPolicy,
  RetryStop,
  isIdempotent,
  parseDateDelay,
  parseRetryAfter,
  retryDelay,
  retryStop,
} from "./retry";
import { ResponseShapeError } from "./mapping";
import { ApiBase, isSameOrigin } from "./url";

/** The parts of a fetch `Response` the client reads (node-fetch v2 and WHATWG fetch both fit). */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** The request options the client passes to fetch. */
export interface FetchInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirect: "manual";
}

/**
 * A fetch function: node-fetch v2 by default; inject another (a recorder, a fake) through the
 * client's `fetch` option.
 */
export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

/**
 * Everything a request needs besides the request itself. Built once by the client; holds the key
 * only inside the `authorization` closure, so that printing a transport never shows it.
 */
export interface Transport {
  /** The configured API origin and path prefix. */
  base: ApiBase;
  /** Returns the `Authorization` header value. */
  authorization: () => string;
  /** Redacts the API key (and generic credential patterns) from a text. */
  redact: Redactor;
  /** The fetch function. */
  fetch: FetchLike;
  /** Per-attempt timeout, ms. */
  timeoutMs: number;
  /** Overall deadline of a call across attempts, ms. */
  deadlineMs: number;
  /** Largest response body read, in bytes after decompression; see `DEFAULT_MAX_RESPONSE_BYTES`. */
  maxResponseBytes: number;
  /** Most attempts per call (retries + 1; 1 when retries are off). */
  maxAttempts: number;
  /** The retry tunables. */
  retryPolicy: RetryPolicy;
  /** The client-side rate limiter, applied to every attempt. */
  limiter: RateLimiter;
  /** Waits between attempts. */
  sleep: (ms: number) => Promise<void>;
  /** The clock, ms. */
  now: () => number;
  /** Random numbers in [0, 1) for jitter. */
  random: () => number;
}

/** One logical call. */
export interface RequestSpec {
  /** The client operation, for error messages (`getNode`). */
  operation: string;
  /** The id the call is about, for error messages. */
  resourceId?: string;
  /** HTTP method. */
  method: "GET" | "PATCH" | "DELETE" | "POST";
  /** Absolute URL on the configured origin (see `url.ts`). */
  url: string;
  /** JSON body, serialized by the request. */
  body?: unknown;
}

/** A successful answer: status, raw text and the parsed JSON (`undefined` for an empty body). */
export interface ApiResponse {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
  /** Attempts it took. */
  attempts: number;
}

/** The default sleep: a plain timer. */
export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface ErrorBody {
  code?: string;
  message?: string;
  fields?: Record<string, string[]>;
  nextFaucetAvailable?: string;
}

/** Reads the spec's error object (`{"error": {"code", "message", "fields"?}}`) when present. */
function readErrorBody(body: unknown): ErrorBody | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const top = body as Record<string, unknown>;
  const out: ErrorBody = {};
  if (typeof top.nextFaucetAvailable === "string") out.nextFaucetAvailable = top.nextFaucetAvailable;
  const err = top.error;
  if (typeof err === "object" && err !== null) {
    const e = err as Record<string, unknown>;
    if (typeof e.code === "string") out.code = e.code;
    if (typeof e.message === "string") out.message = e.message;
    if (typeof e.fields === "object" && e.fields !== null && !Array.isArray(e.fields)) {
      const fields: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(e.fields as Record<string, unknown>)) {
        fields[k] = Array.isArray(v) ? v.map(String) : [String(v)];
      }
      out.fields = fields;
    }
  } else if (typeof err === "string") {
    out.message = err;
  }
  return out;
}

function isJsonContentType(contentType: string): boolean {
  return /\bjson\b/i.test(contentType);
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const HINTS: Partial<Record<ApiErrorKind, string>> = {
  unauthorized:
    "The API key is missing, wrong or revoked: check BLOCKCHAIN_API_KEY, or set it with `pulumi config set --secret blockchain:apiKey <key>`.",
  forbidden: "The API key is valid but may not perform this operation; use a key with the needed role.",
  not_found:
    "The object does not exist, or the API key's organization may not access it; check the id and the key.",
};

/** Classifies a rejection of fetch (or of reading the body) that was not our own abort. */
function classifyFailure(error: unknown): { failure: FailureKind; code: string; detail: string } {
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; name?: unknown; type?: unknown };
  const code = typeof e?.code === "string" ? e.code : typeof e?.errno === "string" ? e.errno : undefined;
  // node-fetch words it "request to <url> failed, reason: <reason>"; the URL is already shown.
  const message = (typeof e?.message === "string" ? e.message : String(error)).replace(
    /^request to \S+ failed, reason: /,
    "",
  );
  const connection =
    (code !== undefined && RETRYABLE_CONNECTION_CODES.includes(code)) ||
    /socket hang up|premature close|ECONNRESET|ECONNREFUSED|other side closed/i.test(message);
  return {
    failure: connection ? "connection" : "network",
    code: code ?? (connection ? "connection_failed" : "network_error"),
    detail: message,
  };
}

interface AttemptFailure {
  /** True when the failure is never retried (an unusable success body). */
  final?: boolean;
  /** For the retry rules. */
  ctx: Pick<RetryContext, "status" | "failure" | "retryAfterMs">;
  /** The error to throw when not retried. */
  init: Omit<ApiErrorInit, "operation" | "resourceId" | "attempts">;
}

/** Sends one attempt; returns the response, or a failure description. */
async function attempt(
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
  let status: number;
  let contentType: string;
  let text: string;
  let retryAfterHeader: string | null;
  try {
    const res = await t.fetch(spec.url, {
      method: spec.method,
      headers,
      body,
      signal: controller.signal,
      redirect: "manual",
    });
    status = res.status;
    contentType = res.headers.get("content-type") ?? "";
    retryAfterHeader = res.headers.get("retry-after");
    const location = status >= 300 && status < 400 ? res.headers.get("location") : null;
    text = await res.text();
    if (location !== null) text = `redirect to ${location}`;
  } catch (error) {
    if (timedOut || controller.signal.aborted) {
      const reason = deadlineHit
        ? `the overall deadline of ${t.deadlineMs} ms passed before the service answered`
        : `no answer within the per-attempt timeout of ${timeoutMs} ms`;
      return {
        failed: {
          ctx: { failure: "timeout" },
          init: {
            kind: "timeout",
            code: deadlineHit ? "deadline_exceeded" : "timeout",
            detail: `${spec.method} ${new URL(spec.url).pathname}: ${reason}`,
            hint: deadlineHit
              ? "Raise deadlineMs, or check that the service is reachable."
              : "Raise timeoutMs if the service is slow, or check that it is reachable.",
          },
        },
      };
    }
    const { failure, code, detail } = classifyFailure(error);
    return {
      failed: {
        ctx: { failure },
        init: {
          kind: "network",
          code,
          detail: `${spec.method} ${t.base.origin}${new URL(spec.url).pathname}: ${detail}`,
          hint: "Check the API URL and the network connection.",
        },
      },
    };
  } finally {
    clearTimeout(timer);
  }

  const parsed = text === "" ? ({ ok: true, value: undefined } as const) : tryParseJson(text);

  if (status >= 200 && status < 300) {
    if (!parsed.ok) {
      return {
        failed: {
          final: true,
          ctx: { status },
          init: {
            kind: "invalid_response",
            status,
            code: "invalid_json",
            detail: `expected JSON, got ${describeBody(t, contentType, text)}`,
          },
        },
      };
    }
    return { response: { status, contentType, text, body: parsed.value, attempts: 0 } };
  }

  const errorBody = parsed.ok ? readErrorBody(parsed.value) : undefined;
  const now = t.now();
  let retryAfterMs = parseRetryAfter(retryAfterHeader, now);
  if (retryAfterMs === undefined && status === 429 && errorBody?.nextFaucetAvailable !== undefined) {
    retryAfterMs = parseDateDelay(errorBody.nextFaucetAvailable, now);
  }
  const kind = kindForStatus(status);
  let detail: string;
  let code: string;
  if (errorBody && (errorBody.code !== undefined || errorBody.message !== undefined)) {
    code = errorBody.code ?? `http_${status}`;
    detail = errorBody.message ?? "(no message)";
  } else if (status >= 300 && status < 400) {
    code = "unexpected_redirect";
    detail = `the service answered with a ${text}; the client does not follow redirects (check the API URL)`;
  } else {
    code = parsed.ok ? `http_${status}` : "non_json_body";
    detail = `the body is not the service's error object: ${describeBody(t, contentType, text)}`;
  }
  let hint = HINTS[kind];
  if (kind === "rate_limited") {
    if (errorBody?.nextFaucetAvailable !== undefined) {
      hint = `The faucet can be used again at ${errorBody.nextFaucetAvailable}.`;
    } else if (retryAfterMs !== undefined) {
      hint = `The service asks to wait ${formatDuration(retryAfterMs)} (until ${new Date(now + retryAfterMs).toISOString()}).`;
    } else {
      hint = "Slow down (lower maxRequestsPerSecond) and try again later.";
    }
  }
  return {
    failed: {
      ctx: { status, retryAfterMs },
      init: {
        kind,
        status,
        code,
        detail,
        fields: errorBody?.fields,
        nextFaucetAvailable: errorBody?.nextFaucetAvailable,
        retryAfterMs,
        hint,
      },
    },
  };
}

/** Describes an unexpected body: content type and its first characters, redacted. */
function describeBody(t: Transport, contentType: string, text: string): string {
  const type = contentType || "no content-type";
  if (text === "") return `an empty body (${type})`;
  const what = isJsonContentType(contentType) ? "invalid or truncated JSON" : "a non-JSON body";
  return `${what} (${type}, ${text.length} characters): ${JSON.stringify(previewBody(text, t.redact))}`;
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

const STOP_NOTES: Record<
  RetryStop,
  (t: Transport, attempts: number, ctx: RetryContext) => string | undefined
> = {
  not_retryable: (_t, attempts) => (attempts > 1 ? `Gave up after ${attempts} attempts.` : undefined),
  may_have_been_processed: () =>
    "The request may have been processed: it is not repeated automatically because it is not idempotent. Check the faucet and the transaction of the address before retrying.",
  retry_after_too_long: (t, _attempts, ctx) =>
    `The requested wait of ${formatDuration(ctx.retryAfterMs ?? 0)} is longer than maxRetryAfterMs (${t.retryPolicy.maxRetryAfterMs} ms); try again after that.`,
  attempts_exhausted: (_t, attempts) => (attempts > 1 ? `Gave up after ${attempts} attempts.` : undefined),
  deadline: (t, attempts) =>
    `Gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}: another retry would pass the overall deadline of ${t.deadlineMs} ms.`,
};

/**
 * Performs one logical call with retries and returns the successful response, or throws an
 * {@link ApiError}. Only `url`s on the configured origin are accepted.
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
  for (;;) {
    await t.limiter.acquire();
    const elapsed = t.now() - start;
    const remaining = t.deadlineMs - elapsed;
    if (remaining <= 0) {
      throw createApiError(
        {
          kind: "timeout",
          code: "deadline_exceeded",
          operation: spec.operation,
          resourceId: spec.resourceId,
          detail: `the overall deadline of ${t.deadlineMs} ms passed before attempt ${attempts + 1} could start`,
          hint: "Raise deadlineMs, or lower the request rate.",
          attempts,
        },
        t.redact,
      );
    }
    const attemptTimeout = Math.min(t.timeoutMs, remaining);
    attempts++;
    const result = await attempt(t, spec, attemptTimeout, attemptTimeout < t.timeoutMs);
    if ("response" in result) return { ...result.response, attempts };

    const { ctx: partial, init, final } = result.failed;
    const ctx: RetryContext = {
      method: spec.method,
      attempt: attempts,
      maxAttempts: t.maxAttempts,
      elapsedMs: t.now() - start,
      deadlineMs: t.deadlineMs,
      ...partial,
    };
    // An unusable success body is not a transient failure.
    const stop: RetryStop | undefined = final ? "not_retryable" : retryStop(ctx, t.retryPolicy);
    if (stop === undefined) {
      await t.sleep(retryDelay(ctx, t.retryPolicy, t.random));
      continue;
    }
    const mayHaveBeenProcessed = !isIdempotent(spec.method)
      ? stop === "may_have_been_processed" && init.code !== "ECONNREFUSED"
      : undefined;
    const note =
      stop === "may_have_been_processed" && !mayHaveBeenProcessed
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

/**
 * Maps a successful response with `map`; a {@link ResponseShapeError} becomes an
 * `invalid_response` {@link ApiError} that names the wrong fields.
 */
export function mapResponse<T>(
  t: Transport,
  spec: Pick<RequestSpec, "operation" | "resourceId">,
  response: ApiResponse,
  map: (body: unknown, text: string) => T,
): T {
  try {
    return map(response.body, response.text);
  } catch (error) {
    if (!(error instanceof ResponseShapeError)) throw error;
    throw invalidResponse(t, spec, response, `unexpected response shape: ${error.problems.join("; ")}`);
  }
}

/** An `invalid_response` error for a successful response whose content is unusable. */
export function invalidResponse(
  t: Transport,
  spec: Pick<RequestSpec, "operation" | "resourceId">,
  response: Pick<ApiResponse, "status" | "attempts">,
  detail: string,
  code = "unexpected_shape",
): ApiError {
  return createApiError(
    {
      kind: "invalid_response",
      code,
      status: response.status,
      operation: spec.operation,
      resourceId: spec.resourceId,
      detail,
      attempts: response.attempts,
    },
    t.redact,
  );
}
