/**
 * One HTTP attempt: the request sent with its headers, one timer that aborts it, the body read within
 * node-fetch's own `size` cap; then the answer, or the failure the retry rules read and the error it
 * becomes when not retried, every server string redacted, escaped and capped.
 */
import * as http from "http";
import * as https from "https";
import nodeFetch from "node-fetch";
import type { ApiErrorInit, ApiErrorKind } from "./errors";
import { isObject } from "./mapping";
import { everyRequestSignal, type Context, type FetchLike, type FetchResponseLike } from "./options";
import { previewBody, sanitizeServerText } from "./redact";

/** Largest response body read, after decompression (a page of 100 nodes is about 150 KB). */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Longest server message quoted in an error (`serverMessage` keeps more). */
const MESSAGE_CHARS = 1000;
/** Longest server code, field name or other short string quoted. */
const SHORT_CHARS = 120;
/** Most per-field messages quoted, and the length of each. */
const [FIELDS, FIELD_CHARS] = [20, 300];
/** The code of a 404 whose body is not the service's error object. */
export const FOREIGN_404 = "unexpected_not_found";

/** One HTTP request of a call: an absolute URL on the configured origin, and a JSON body. */
export type HttpRequest = { method: "GET" | "PATCH" | "DELETE" | "POST"; url: string; body?: unknown };

/** A successful answer: status, raw text, parsed JSON (`undefined` for an empty body), and the attempts it took. */
export type Answer = { status: number; text: string; body: unknown; attempts: number };

/** The error an attempt's failure becomes when it is not retried. */
type FailureError = Omit<ApiErrorInit, "operation" | "resourceId" | "attempts">;

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

/** Codes of a failed connection (reset, dropped, unreachable) that idempotent calls retry. */
const CONNECTION_CODES =
  /^(?:ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_SOCKET)$/;

/** A POST's agents: a new connection each time, never a kept-alive one the server just closed (no retry then). */
const closing = { http: new http.Agent(), https: new https.Agent() };

/**
 * node-fetch v2, failing a body cut off mid-stream at once (`body_interrupted`), not at the timeout: its pipe
 * does not pass on a connection closed early, so an agent that sees each response ends the body.
 */
const watchedNodeFetch: FetchLike = async (url, init) => {
  // What the watch found, and the body to end once node-fetch has handed it out.
  const seen: { cut?: Error; body?: { destroy?: (error: Error) => void } } = {};
  const agent = (parsed: { protocol?: string | null }) => {
    const agents = init.method === "POST" ? closing : { http: http.globalAgent, https: https.globalAgent };
    const base = parsed.protocol === "https:" ? agents.https : agents.http;
    type Adding = http.Agent & { addRequest(req: http.ClientRequest, options: unknown): void };
    const watching = Object.create(base) as Adding;
    watching.addRequest = (req, options) => {
      req.once("response", (res: http.IncomingMessage) =>
        res.once("close", () => {
          if (res.complete || seen.cut) return;
          const declared = res.headers["content-length"];
          const what = declared ? `the ${declared} bytes of the body (Content-Length)` : "the body";
          seen.cut = Object.assign(new Error(`the connection closed before ${what} had arrived`), {
            code: "body_interrupted",
          });
          seen.body?.destroy?.(seen.cut);
        }),
      );
      (base as Adding).addRequest.call(base, req, options);
    };
    return watching;
  };
  const response = await nodeFetch(url, { ...init, agent } as never);
  seen.body = response.body as typeof seen.body;
  if (seen.cut) seen.body?.destroy?.(seen.cut);
  return response as unknown as FetchResponseLike;
};

/**
 * Sends one attempt of `req` and reads its answer, aborted after `timeoutMs` (the call's deadline when
 * `deadlineMs` is given), or by `abortEveryRequest`, whose reason it then throws.
 */
export async function attempt(t: Context, req: HttpRequest, timeoutMs: number, deadlineMs?: number) {
  const where = `${req.method} ${t.base.origin}${new URL(req.url).pathname}`;
  const body = req.body === undefined ? undefined : JSON.stringify(req.body);
  const headers: Record<string, string> = {
    Authorization: t.authorization(),
    Accept: "application/json",
    "User-Agent": "pulumi-blockchain-nodes",
    ...(body === undefined ? {} : { "Content-Type": "application/json" }),
  };
  everyRequestSignal.throwIfAborted();
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, timeoutMs);
  everyRequestSignal.addEventListener("abort", abort, { once: true });
  let res: FetchResponseLike | undefined;
  let text: string;
  const tooLarge = (detail: string) =>
    unusable(res?.status ?? 0, "response_too_large", `${where}: the response ${detail}`);
  try {
    const init = { method: req.method, headers, body, signal: controller.signal, size: MAX_RESPONSE_BYTES };
    res = await (t.fetch ?? watchedNodeFetch)(req.url, { ...init, redirect: "manual" });
    const declared = Number(res.headers.get("content-length") ?? NaN);
    if (declared > MAX_RESPONSE_BYTES)
      return tooLarge(
        `declares ${declared} bytes (Content-Length), more than the ${MAX_RESPONSE_BYTES} read at most`,
      );
    text = await res.text();
    // A fetch other than node-fetch may ignore `size`: the cap still holds.
    if (text.length > MAX_RESPONSE_BYTES) throw Object.assign(new Error(), { type: "max-size" });
  } catch (error) {
    if ((error as { type?: unknown })?.type === "max-size")
      return tooLarge(`body passed the ${MAX_RESPONSE_BYTES} bytes read at most; the rest was not read`);
    everyRequestSignal.throwIfAborted();
    if (controller.signal.aborted)
      return { failure: timedOut(where, timeoutMs, res !== undefined, deadlineMs) };
    return { failure: lost(where, error, res !== undefined) };
  } finally {
    clearTimeout(timer);
    everyRequestSignal.removeEventListener("abort", abort);
    // Closes what is left of a body not read to its end.
    controller.abort();
  }
  const status = res.status;
  const contentType = res.headers.get("content-type") ?? "";
  const location = status >= 300 && status < 400 ? res.headers.get("location") : null;
  if (location !== null) text = `redirect to ${serverText(t, location, SHORT_CHARS * 2)}`;
  let parsed: { value: unknown } | undefined = { value: undefined };
  try {
    if (text !== "") parsed = { value: JSON.parse(text) };
  } catch {
    parsed = undefined;
  }
  if (status >= 200 && status < 300) {
    if (parsed) return { answer: { status, text, body: parsed.value, attempts: 0 } };
    return unusable(status, "invalid_json", `expected JSON, got ${describeBody(t, contentType, text)}`);
  }
  return { failure: refusal(t, res, text, parsed) };
}

/** A 2xx that cannot be used: never retried; a POST that got it may have been processed. */
function unusable(status: number, code: string, detail: string): { failure: Failure } {
  const hint =
    code === "response_too_large" ? "Check the API URL: the service's answers are far smaller." : undefined;
  const error: FailureError = { kind: "invalid_response", status, code, detail, hint };
  return { failure: { cause: "unusable", status, notProcessed: false, error } };
}

/** An attempt our timer aborted: the per-attempt timeout, or the call's deadline if `deadlineMs` is given. */
function timedOut(where: string, timeoutMs: number, answered: boolean, deadlineMs?: number): Failure {
  const deadline = deadlineMs !== undefined;
  const reason = deadline
    ? `the call's deadline of ${deadlineMs} ms passed before the service answered`
    : `no answer within the per-attempt timeout of ${timeoutMs} ms`;
  const error: FailureError = {
    kind: "timeout",
    code: deadline ? "deadline_exceeded" : "timeout",
    detail: `${where}: ${reason}${answered ? " (the body was still arriving)" : ""}`,
    limit: deadline ? "deadlineMs" : "timeoutMs",
  };
  return { cause: "timeout", notProcessed: false, error };
}

/** A rejection of fetch or of reading the body that was not our timer: refused, dropped, or another network failure. */
function lost(where: string, thrown: unknown, answered: boolean): Failure {
  const e = thrown as { code?: unknown; message?: unknown };
  const code = typeof e?.code === "string" ? e.code : undefined;
  // node-fetch words it "request to <url> failed, reason: <reason>"; the URL is already shown.
  const message = String(e?.message ?? thrown).replace(
    /^.*?(?:failed, reason|while trying to fetch \S+): /,
    "",
  );
  // A refused connection never carried the request: nothing can have been processed.
  const refused = !answered && (code === "ECONNREFUSED" || /\bECONNREFUSED\b/.test(message));
  const connection =
    answered ||
    CONNECTION_CODES.test(code ?? "") ||
    /socket hang up|premature close|ECONNRESET|other side closed/i.test(message);
  const fallback = refused ? "ECONNREFUSED" : connection ? "connection_failed" : "network_error";
  const error: FailureError = {
    kind: "network",
    code: answered ? "body_interrupted" : (code ?? fallback),
    detail: `${where}: ${message}`,
    hint: refused
      ? "Nothing accepted the connection: check that the service runs at the API URL, and that the URL is right."
      : "Check that the API URL is reachable from here.",
  };
  return { cause: refused ? "refused" : connection ? "connection" : "network", notProcessed: refused, error };
}

function serverText(t: Pick<Context, "redact">, text: string, max: number): string {
  return sanitizeServerText(t.redact(text), max);
}

/** A duration for a message: `250 ms`, `1.5 s`, `3 min`, `2.5 h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

function dateDelay(text: string, now: number): number | undefined {
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An unexpected body for a message: its type and first characters, redacted. */
function describeBody(t: Pick<Context, "redact">, contentType: string, text: string): string {
  const type = contentType || "no content-type";
  if (text === "") return `an empty body (${type})`;
  const what = /\bjson\b/i.test(contentType) ? "invalid or truncated JSON" : "a non-JSON body";
  return `${what} (${type}, ${text.length} characters): ${JSON.stringify(previewBody(text, t.redact))}`;
}

/** The kind of each status that has one (any other 5xx is `unavailable`). */
// prettier-ignore
const KINDS: Record<number, ApiErrorKind> = {
  400: "validation", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict", 422: "validation",
  429: "rate_limited",
};

const HINTS: Partial<Record<ApiErrorKind, string>> = {
  unauthorized: "The API key is missing, wrong or revoked.",
  forbidden: "The API key is valid but may not perform this operation; use a key with the needed role.",
  not_found:
    "The object does not exist, or the API key's organization may not access it; check the id and the key.",
};

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/**
 * An answer other than 2xx: its kind, the service's error object (`{"error": {"code", "message",
 * "fields"?}}`), the faucet's `nextFaucetAvailable`, and the wait the server asked for (a
 * `Retry-After` of delay seconds or an HTTP date).
 */
function refusal(t: Context, res: FetchResponseLike, text: string, parsed?: { value: unknown }): Failure {
  const [status, contentType] = [res.status, res.headers.get("content-type") ?? ""];
  const top = isObject(parsed?.value) ? parsed.value : {};
  const err = isObject(top.error) ? top.error : {};
  const bodyCode = str(err.code);
  const serverMessage = str(err.message) ?? str(top.error);
  const next = str(top.nextFaucetAvailable);
  const shaped = bodyCode !== undefined && str(err.message) !== undefined;
  const now = Date.now();
  const header = res.headers.get("retry-after")?.trim() ?? "";
  // An HTTP date has a month name; a bare or signed number that is not delay-seconds is junk.
  const headerWait = /^\d+(?:\.\d+)?$/.test(header)
    ? Math.round(Number(header) * 1000)
    : /^[+-]/.test(header) || !/[A-Za-z]/.test(header)
      ? undefined
      : dateDelay(header, now);
  const retryAfterMs =
    headerWait ?? (status === 429 && next !== undefined ? dateDelay(next, now) : undefined);
  const kind: ApiErrorKind = KINDS[status] ?? (status >= 500 && status <= 599 ? "unavailable" : "unknown");
  const short = (s: string) => serverText(t, s, SHORT_CHARS);
  let code: string;
  let detail: string;
  let hint = HINTS[kind];
  if (bodyCode !== undefined || serverMessage !== undefined) {
    code = bodyCode !== undefined ? short(bodyCode) : `http_${status}`;
    detail = serverMessage !== undefined ? serverText(t, serverMessage, MESSAGE_CHARS) : "(no message)";
  } else if (status >= 300 && status < 400) {
    code = "unexpected_redirect";
    detail = `the service answered with a ${text}; the client does not follow redirects (check the API URL)`;
  } else {
    code = parsed ? `http_${status}` : "non_json_body";
    detail = `the body is not the service's error object: ${describeBody(t, contentType, text)}`;
  }
  // A router's, a gateway's or a framework's 404 is never "does not exist" (see `judgeNotFound`).
  if (status === 404 && !shaped) code = FOREIGN_404;
  const nextFaucetAvailable = next !== undefined ? short(next) : undefined;
  if (kind === "rate_limited") {
    const until = new Date(now + (retryAfterMs ?? 0));
    hint =
      nextFaucetAvailable !== undefined
        ? `The faucet can be used again at ${nextFaucetAvailable}.`
        : retryAfterMs !== undefined
          ? `The service asks to wait ${formatDuration(retryAfterMs)}${Number.isNaN(until.getTime()) ? "" : ` (until ${until.toISOString()})`}.`
          : "Try again later.";
  }
  const all = isObject(err.fields) ? Object.entries(err.fields) : undefined;
  const fieldText = (v: unknown) => serverText(t, str(v) ?? JSON.stringify(v) ?? String(v), FIELD_CHARS);
  const messages = (v: unknown) => (Array.isArray(v) ? v : [v]).slice(0, FIELDS).map(fieldText);
  const fields =
    all &&
    Object.fromEntries([
      ...all.slice(0, FIELDS).map(([f, ms]) => [short(f), messages(ms)]),
      ...(all.length > FIELDS ? [["…", [`${all.length - FIELDS} more fields not shown`]]] : []),
    ]);
  const notProcessed =
    (status >= 400 && status < 500 && shaped) ||
    ((status === 429 || status === 503) && headerWait !== undefined);
  const error = { kind, status, code, detail, fields, nextFaucetAvailable, retryAfterMs, hint };
  return { cause: "status", status, retryAfterMs, notProcessed, error: { ...error, serverMessage } };
}
