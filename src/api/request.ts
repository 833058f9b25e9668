/**
 * The one request path of the client: every HTTP call goes through {@link request}, which adds the
 * `Authorization` header, applies the rate limiter to each attempt, a per-attempt timeout and an
 * overall deadline, follows the retry rules of `retry.ts`, parses JSON and maps failures to
 * {@link ApiError}s with credentials redacted.
 */
import { ApiError, ApiErrorInit, ApiErrorKind, createApiError } from "./errors";
import { RateLimiter } from "./rate-limiter";
import { Redactor, previewBody, sanitizeServerText } from "./redact";
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
import { BodyTooLargeError, readBodyText } from "./body";
import type { LearnedSecrets } from "./learned-secrets";
import type { Node } from "./types";
import { ApiBase, isSameOrigin } from "./url";

/** The parts of a fetch `Response` the client reads (node-fetch v2 and WHATWG fetch both fit). */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  /** The body stream, when there is one (read with a size cap; see `body.ts`). */
  body?: unknown;
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
  /** Redacts the API key, the credentials learned so far and generic credential patterns from a text. */
  redact: Redactor;
  /**
   * Credentials this client has read in the service's answers (node passwords, keys, endpoint
   * URLs): `redact` removes them too, so an error that echoes one never shows it.
   */
  learned?: LearnedSecrets;
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

/** Longest server message quoted in an error message; the full text is kept on `serverMessage`. */
const SERVER_MESSAGE_CHARS = 1000;
/** Longest server error code, field name, or other short server string quoted. */
const SERVER_SHORT_CHARS = 120;
/** Most per-field messages quoted, and the length of each. */
const SERVER_FIELDS = 20;
const SERVER_FIELD_CHARS = 300;

/** A server string for a message: credentials redacted first, then control characters escaped and the length capped. */
function serverText(t: Transport, text: string, max: number): string {
  return sanitizeServerText(t.redact(text), max);
}

/** Per-field messages of a server error, redacted, escaped and capped in number and length. */
function serverFields(t: Transport, fields: Record<string, string[]>): Record<string, string[]> {
  const entries = Object.entries(fields);
  const out: Record<string, string[]> = {};
  for (const [field, messages] of entries.slice(0, SERVER_FIELDS)) {
    out[serverText(t, field, SERVER_SHORT_CHARS)] = messages
      .slice(0, SERVER_FIELDS)
      .map((m) => serverText(t, m, SERVER_FIELD_CHARS));
  }
  if (entries.length > SERVER_FIELDS) out["…"] = [`${entries.length - SERVER_FIELDS} more fields not shown`];
  return out;
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
  /** True when the body is the spec's error object: `{"error": {"code": string, "message": string}}`. */
  shaped: boolean;
}

function fieldMessage(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/** Reads the spec's error object (`{"error": {"code", "message", "fields"?}}`) when present. */
function readErrorBody(body: unknown): ErrorBody | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const top = body as Record<string, unknown>;
  const out: ErrorBody = { shaped: false };
  if (typeof top.nextFaucetAvailable === "string") out.nextFaucetAvailable = top.nextFaucetAvailable;
  const err = top.error;
  if (typeof err === "object" && err !== null && !Array.isArray(err)) {
    const e = err as Record<string, unknown>;
    if (typeof e.code === "string") out.code = e.code;
    if (typeof e.message === "string") out.message = e.message;
    out.shaped = out.code !== undefined && out.message !== undefined;
    if (typeof e.fields === "object" && e.fields !== null && !Array.isArray(e.fields)) {
      const fields: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(e.fields as Record<string, unknown>)) {
        fields[k] = Array.isArray(v) ? v.map(fieldMessage) : [fieldMessage(v)];
      }
      out.fields = fields;
    }
  } else if (typeof err === "string") {
    out.message = err;
  }
  return out;
}

/**
 * True for an `error.code` that says "this object does not exist" (`not_found`, `NotFound`,
 * `network_not_found`, `does_not_exist`), and not a missing route, page or method.
 */
export function isObjectNotFoundCode(code: string): boolean {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (
    words.some((w) => ["route", "path", "endpoint", "url", "page", "method", "version", "api"].includes(w))
  ) {
    return false;
  }
  const text = words.join("_");
  return /(?:^|_)not_?found$/.test(text) || /(?:^|_)does_?not_?exist$/.test(text) || text === "notfound";
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

/** The kind of error an HTTP status means. */
function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 400 || status === 422) return "validation";
  if (status === 409) return "conflict";
  if (status === 429) return "rate_limited";
  if (status >= 500 && status <= 599) return "unavailable";
  return "unknown";
}

const HINTS: Partial<Record<ApiErrorKind, string>> = {
  unauthorized: "The API key is missing, wrong or revoked.",
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
  // A refused connection never carried the request: nothing can have been processed.
  const refused = code === "ECONNREFUSED" || (code === undefined && /\bECONNREFUSED\b/.test(message));
  const connection =
    (code !== undefined && RETRYABLE_CONNECTION_CODES.includes(code)) ||
    /socket hang up|premature close|ECONNRESET|other side closed/i.test(message);
  return {
    failure: refused ? "refused" : connection ? "connection" : "network",
    code: code ?? (refused ? "ECONNREFUSED" : connection ? "connection_failed" : "network_error"),
    detail: message,
  };
}

interface AttemptFailure {
  /** True when the failure is never retried (an unusable success body). */
  final?: boolean;
  /**
   * True when the service clearly said it did not process the request: a 4xx with its error
   * object, or a 429 / 503 with `Retry-After`; and when the connection was refused (nothing sent).
   */
  notProcessed: boolean;
  /** For the retry rules. */
  ctx: Pick<RetryContext, "status" | "failure" | "retryAfterMs">;
  /** The error to throw when not retried. */
  init: Omit<ApiErrorInit, "operation" | "resourceId" | "attempts">;
}

/** The path (and query names only) of a request URL, for messages: never a query value. */
function shownPath(url: string): string {
  return new URL(url).pathname;
}

/**
 * An answer that cannot be used (too large, not JSON): never retried, and for a non-idempotent
 * request it may have been processed.
 */
function unusableAnswer(
  status: number,
  code: string,
  detail: string,
  hint?: string,
): { failed: AttemptFailure } {
  return {
    failed: {
      final: true,
      notProcessed: false,
      ctx: { status },
      init: { kind: "invalid_response", status, code, detail, hint },
    },
  };
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

  const parsed = text === "" ? ({ ok: true, value: undefined } as const) : tryParseJson(text);

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

  const errorBody = parsed.ok ? readErrorBody(parsed.value) : undefined;
  const shaped = errorBody?.shaped === true;
  const now = t.now();
  let retryAfterMs = parseRetryAfter(retryAfterHeader, now);
  const notProcessed =
    (status >= 400 && status < 500 && shaped) ||
    ((status === 429 || status === 503) && retryAfterMs !== undefined);
  if (retryAfterMs === undefined && status === 429 && errorBody?.nextFaucetAvailable !== undefined) {
    retryAfterMs = parseDateDelay(errorBody.nextFaucetAvailable, now);
  }
  let kind = kindForStatus(status);
  let detail: string;
  let code: string;
  let hint: string | undefined;
  if (status === 404 && !(shaped && isObjectNotFoundCode(errorBody?.code ?? ""))) {
    // Only the service's own "does not exist" answer means gone; anything else is a wrong URL.
    kind = "invalid_response";
    code = "unexpected_not_found";
    const got = shaped
      ? `an error object with code ${JSON.stringify(serverText(t, errorBody?.code ?? "", SERVER_SHORT_CHARS))}`
      : parsed.ok
        ? "a JSON body that is not the service's error object"
        : describeBody(t, contentType, text);
    detail = `${spec.method} ${t.base.href}${shownPath(spec.url).slice(t.base.basePath.length)} answered 404 with ${got}, not the service's "does not exist" error`;
    hint = `The API URL (${t.base.href}) looks wrong: it must be the service's base URL, to which /v1/... paths are appended.`;
  } else if (errorBody && (errorBody.code !== undefined || errorBody.message !== undefined)) {
    code =
      errorBody.code !== undefined ? serverText(t, errorBody.code, SERVER_SHORT_CHARS) : `http_${status}`;
    detail =
      errorBody.message !== undefined
        ? serverText(t, errorBody.message, SERVER_MESSAGE_CHARS)
        : "(no message)";
    hint = HINTS[kind];
  } else if (status >= 300 && status < 400) {
    code = "unexpected_redirect";
    detail = `the service answered with a ${text}; the client does not follow redirects (check the API URL)`;
  } else {
    code = parsed.ok ? `http_${status}` : "non_json_body";
    detail = `the body is not the service's error object: ${describeBody(t, contentType, text)}`;
    hint = HINTS[kind];
  }
  const nextFaucetAvailable =
    errorBody?.nextFaucetAvailable !== undefined
      ? serverText(t, errorBody.nextFaucetAvailable, SERVER_SHORT_CHARS)
      : undefined;
  if (kind === "rate_limited") {
    if (nextFaucetAvailable !== undefined) {
      hint = `The faucet can be used again at ${nextFaucetAvailable}.`;
    } else if (retryAfterMs !== undefined) {
      const until = new Date(now + retryAfterMs);
      hint = `The service asks to wait ${formatDuration(retryAfterMs)}${Number.isNaN(until.getTime()) ? "" : ` (until ${until.toISOString()})`}.`;
    } else {
      hint = "Slow down (lower maxRequestsPerSecond) and try again later.";
    }
  }
  return {
    failed: {
      notProcessed,
      ctx: { status, retryAfterMs },
      init: {
        kind,
        status,
        code,
        detail,
        fields: errorBody?.fields !== undefined ? serverFields(t, errorBody.fields) : undefined,
        nextFaucetAvailable,
        serverMessage: errorBody?.message,
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
    "The request may have been processed: it is not repeated automatically because it is not idempotent.",
  retry_after_too_long: (t, _attempts, ctx) =>
    `The requested wait of ${formatDuration(ctx.retryAfterMs ?? 0)} is longer than maxRetryAfterMs (${t.retryPolicy.maxRetryAfterMs} ms); try again after that.`,
  attempts_exhausted: (_t, attempts) => (attempts > 1 ? `Gave up after ${attempts} attempts.` : undefined),
  deadline: (t, attempts) =>
    `Gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}: another retry would pass the overall deadline of ${t.deadlineMs} ms.`,
};

const MAY_HAVE_BEEN_PROCESSED_NOTE =
  "The request reached the service and its answer does not say it was refused, so it may have been processed: it is not repeated automatically.";

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
    attempts++;
    const result = await attempt(t, spec, attemptTimeout, attemptTimeout < t.timeoutMs);
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
 * `invalid_response` {@link ApiError} that names the wrong fields (with `mayHaveBeenProcessed`
 * for a non-idempotent `method`: the service answered 2xx, so it did something).
 */
export function mapResponse<T>(
  t: Transport,
  spec: Pick<RequestSpec, "operation" | "resourceId"> & { method?: RequestSpec["method"] },
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
  spec: Pick<RequestSpec, "operation" | "resourceId"> & { method?: RequestSpec["method"] },
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
      // A non-idempotent request answered with an unusable success body was processed, or may have been.
      mayHaveBeenProcessed: spec.method !== undefined && !isIdempotent(spec.method) ? true : undefined,
      hint:
        spec.method !== undefined && !isIdempotent(spec.method) ? MAY_HAVE_BEEN_PROCESSED_NOTE : undefined,
    },
    t.redact,
  );
}

/** Remembers the credentials of nodes just read (see {@link Transport.learned}). */
export function learnNodeSecrets(t: Transport, nodes: readonly Node[]): void {
  if (!t.learned) return;
  for (const node of nodes) {
    const d = node.details;
    t.learned.learn([
      d.httpsEndpoint,
      d.wssEndpoint,
      d.graphqlEndpoint,
      d.beaconEndpoint,
      d.authUsername,
      d.authPassword,
      d.authKey,
    ]);
  }
}
