/**
 * What a failed answer means: an HTTP status and its body turned into the description of an
 * error (kind, code, detail, hint, per-field messages, server-requested wait), with every server
 * string redacted, escaped and capped, and whether the service said it did not process the request.
 */
import { ApiError, createApiError, type ApiErrorInit, type ApiErrorKind, type Redacting } from "./errors";
import { ResponseShapeError } from "./mapping";
import { sanitizeServerText } from "./redact";
import { describeBody, type ParsedBody } from "./node-fetch";
import { shownPath } from "./url";
import { formatDuration, isIdempotent, parseDateDelay, parseRetryAfter, RetryContext } from "./retry";
import type { ApiResponse, RequestSpec, Transport } from "./transport";

/** Longest server message quoted in an error message; `serverMessage` keeps more. */
const SERVER_MESSAGE_CHARS = 1000;
/** Longest server error code, field name, or other short server string quoted. */
export const SERVER_SHORT_CHARS = 120;
/** Most per-field messages quoted, and the length of each. */
const SERVER_FIELDS = 20;
const SERVER_FIELD_CHARS = 300;

/** A server string for a message: credentials redacted first, then control characters escaped and the length capped. */
export function serverText(t: Transport, text: string, max: number): string {
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

/**
 * A failed attempt, described: whether it may be retried at all and what the service said about
 * processing it, the facts the retry rules read, and the error to throw when it is not retried.
 */
export interface AttemptFailure {
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
function isObjectNotFoundCode(code: string): boolean {
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

/**
 * An answer that cannot be used (too large, not JSON): never retried, and for a non-idempotent
 * request it may have been processed.
 */
export function unusableAnswer(
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

/** What an attempt that got an answer other than 2xx read of it. */
export interface FailedAnswer {
  status: number;
  contentType: string;
  text: string;
  parsed: ParsedBody;
  retryAfterHeader: string | null;
}

/**
 * Describes an answer other than 2xx: its kind from the status, the service's error object when
 * the body has one, a 404 that is not the service's own "does not exist" as a wrong API URL, and
 * the wait the service asked for.
 */
export function httpFailure(
  t: Transport,
  spec: RequestSpec,
  answer: FailedAnswer,
): { failed: AttemptFailure } {
  const { status, contentType, text, parsed, retryAfterHeader } = answer;
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

/*
 * Mapping a successful answer: a body of the wrong shape becomes an `invalid_response`
 * {@link ApiError} that names the wrong fields, here and nowhere else.
 */
/** The note on an error of a non-idempotent request that may have been processed. */
export const MAY_HAVE_BEEN_PROCESSED_NOTE =
  "The request reached the service and its answer does not say it was refused, so it may have been processed: it is not repeated automatically.";

/**
 * Maps a successful response with `map`; a {@link ResponseShapeError} becomes an
 * `invalid_response` {@link ApiError} that names the wrong fields (with `mayHaveBeenProcessed`
 * for a non-idempotent `method`: the service answered 2xx, so it did something).
 */
export function mapResponse<T>(
  t: Redacting,
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
  t: Redacting,
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
