/**
 * What a failed attempt means: the failure the retry rules read, and the error thrown if it is not retried;
 * an answer other than 2xx read into it, every server string redacted, escaped and capped.
 */
import type { ApiErrorInit, ApiErrorKind } from "./errors";
import type { Context } from "./options";
import { previewBody, sanitizeServerText } from "./redact";

/** The error an attempt's failure becomes when it is not retried. */
export type FailureError = Omit<ApiErrorInit, "operation" | "resourceId" | "attempts">;

/** A failed attempt: what the retry rules read, and the error to throw. */
export interface Failure {
  /** The HTTP status, or how the attempt failed without a usable answer. */
  cause: "status" | "timeout" | "connection" | "refused" | "network" | "unusable";
  status?: number;
  /** The wait the server asked for (`Retry-After`, or the faucet's `nextFaucetAvailable`). */
  retryAfterMs?: number;
  /** The service said it did not process the request, or nothing was sent (a refused connection). */
  notProcessed: boolean;
  error: FailureError;
}

/** Longest server message quoted in an error (`serverMessage` keeps more). */
const MESSAGE_CHARS = 1000;
/** Longest server code, field name or other short string quoted. */
export const SHORT_CHARS = 120;
/** Most per-field messages quoted, and the length of each. */
const FIELDS = 20;
const FIELD_CHARS = 300;
/** A server string for a message: redacted, then control characters escaped and the length capped. */
export function serverText(t: Pick<Context, "redact">, text: string, max: number): string {
  return sanitizeServerText(t.redact(text), max);
}

/** A duration for a message: `250 ms`, `1.5 s`, `3 min`, `2.5 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

/** A `Retry-After` header (delay seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim() ?? "";
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date has a month name; a bare or signed number that is not delay-seconds is junk.
  if (/^[+-]/.test(text) || !/[A-Za-z]/.test(text)) return undefined;
  return dateDelay(text, now);
}

/** A date string in ms from `now` (never negative); undefined when unreadable. */
function dateDelay(text: string, now: number): number | undefined {
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An unexpected body for a message: its type and first characters, redacted. */
export function describeBody(t: Pick<Context, "redact">, contentType: string, text: string): string {
  const type = contentType || "no content-type";
  if (text === "") return `an empty body (${type})`;
  const what = /\bjson\b/i.test(contentType) ? "invalid or truncated JSON" : "a non-JSON body";
  return `${what} (${type}, ${text.length} characters): ${JSON.stringify(previewBody(text, t.redact))}`;
}

/** The code of a 404 whose body is not the service's error object. */
export const FOREIGN_404 = "unexpected_not_found";

const KINDS: Record<number, ApiErrorKind> = {
  400: "validation",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  422: "validation",
  429: "rate_limited",
};

const HINTS: Partial<Record<ApiErrorKind, string>> = {
  unauthorized: "The API key is missing, wrong or revoked.",
  forbidden: "The API key is valid but may not perform this operation; use a key with the needed role.",
  not_found:
    "The object does not exist, or the API key's organization may not access it; check the id and the key.",
};

const record = (v: unknown) =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The service's error object (`{"error": {"code", "message", "fields"?}}`) and the faucet's `nextFaucetAvailable`. */
function errorObject(body: unknown) {
  const top = record(body) ?? {};
  const err = record(top.error) ?? {};
  const text = (v: unknown) => str(v) ?? JSON.stringify(v) ?? String(v);
  const fields = record(err.fields);
  return {
    code: str(err.code),
    message: str(err.message) ?? str(top.error),
    fields:
      fields &&
      Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) ? v.map(text) : [text(v)]] as const),
    shaped: str(err.code) !== undefined && str(err.message) !== undefined,
    next: str(top.nextFaucetAvailable),
  };
}

/** An answer other than 2xx: its kind, the service's error object, and the wait the server asked for. */
export function refusal(
  t: Context,
  status: number,
  contentType: string,
  text: string,
  parsed: { value: unknown } | { invalid: true },
  retryAfter: string | null,
): Failure {
  const body = errorObject("value" in parsed ? parsed.value : undefined);
  const now = Date.now();
  const headerWait = parseRetryAfter(retryAfter, now);
  const retryAfterMs =
    headerWait ?? (status === 429 && body.next !== undefined ? dateDelay(body.next, now) : undefined);
  const kind: ApiErrorKind = KINDS[status] ?? (status >= 500 && status <= 599 ? "unavailable" : "unknown");
  const short = (s: string) => serverText(t, s, SHORT_CHARS);
  let code: string;
  let detail: string;
  let hint = HINTS[kind];
  if (body.code !== undefined || body.message !== undefined) {
    code = body.code !== undefined ? short(body.code) : `http_${status}`;
    detail = body.message !== undefined ? serverText(t, body.message, MESSAGE_CHARS) : "(no message)";
  } else if (status >= 300 && status < 400) {
    code = "unexpected_redirect";
    detail = `the service answered with a ${text}; the client does not follow redirects (check the API URL)`;
  } else {
    code = "value" in parsed ? `http_${status}` : "non_json_body";
    detail = `the body is not the service's error object: ${describeBody(t, contentType, text)}`;
  }
  // A router's, a gateway's or a framework's 404 is never "does not exist" (see `judgeNotFound`).
  if (status === 404 && !body.shaped) code = FOREIGN_404;
  const nextFaucetAvailable = body.next !== undefined ? short(body.next) : undefined;
  if (kind === "rate_limited") {
    const until = new Date(now + (retryAfterMs ?? 0));
    hint =
      nextFaucetAvailable !== undefined
        ? `The faucet can be used again at ${nextFaucetAvailable}.`
        : retryAfterMs !== undefined
          ? `The service asks to wait ${formatDuration(retryAfterMs)}${Number.isNaN(until.getTime()) ? "" : ` (until ${until.toISOString()})`}.`
          : "Try again later.";
  }
  const all = body.fields;
  const messages = (ms: string[]) => ms.slice(0, FIELDS).map((m) => serverText(t, m, FIELD_CHARS));
  const fields =
    all &&
    Object.fromEntries([
      ...all.slice(0, FIELDS).map(([f, ms]) => [short(f), messages(ms)]),
      ...(all.length > FIELDS ? [["…", [`${all.length - FIELDS} more fields not shown`]]] : []),
    ]);
  const notProcessed =
    (status >= 400 && status < 500 && body.shaped) ||
    ((status === 429 || status === 503) && headerWait !== undefined);
  const error = { kind, status, code, detail, fields, nextFaucetAvailable, retryAfterMs, hint };
  return {
    cause: "status",
    status,
    retryAfterMs,
    notProcessed,
    error: { ...error, serverMessage: body.message },
  };
}
