/**
 * One HTTP attempt: the request sent with its headers, one timer that aborts it, the body read within
 * node-fetch's own `size` cap; then the answer, or the failure for the retry rules and the error.
 */
import * as http from "http";
import * as https from "https";
import nodeFetch from "node-fetch";
import { everyRequestSignal, type Context, type FetchLike, type FetchResponseLike } from "./options";
import { describeBody, refusal, serverText, SHORT_CHARS, type Failure, type FailureError } from "./failures";

/** Largest response body read, after decompression (a page of 100 nodes is about 150 KB). */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** The `User-Agent` header of every request. */
const USER_AGENT = "pulumi-blockchain-nodes";

/** One HTTP request of a call. */
export interface HttpRequest {
  method: "GET" | "PATCH" | "DELETE" | "POST";
  /** Absolute URL on the configured origin. */
  url: string;
  /** JSON body. */
  body?: unknown;
}

/** A successful answer: status, raw text and parsed JSON (`undefined` for an empty body). */
export interface Answer {
  status: number;
  text: string;
  body: unknown;
  /** Attempts it took. */
  attempts: number;
}

/** Codes of a failed connection (reset, dropped, unreachable) that idempotent calls retry. */
const CONNECTION_CODES =
  /^(?:ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_SOCKET)$/;

/**
 * Agents of a POST (the faucet): a new connection each time, so a POST never meets a kept-alive
 * connection the server has just closed (it may not be retried). Other methods keep connections alive.
 */
const closing = { http: new http.Agent(), https: new https.Agent() };

/**
 * node-fetch v2, failing a body cut off mid-stream at once (`body_interrupted`) instead of at the
 * timeout: node-fetch pipes the response into the body it hands out, and a pipe does not pass on
 * a connection closed before the body was complete, so an agent that sees each response ends it.
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
 * Sends one attempt of `req` and reads its answer. `timeoutMs` aborts the attempt; when
 * `deadlineMs` is given, that timer is the call's deadline rather than the per-attempt timeout.
 * `abortEveryRequest` aborts it too, and it then throws that reason (as it does before sending).
 */
export async function attempt(t: Context, req: HttpRequest, timeoutMs: number, deadlineMs?: number) {
  const where = `${req.method} ${t.base.origin}${new URL(req.url).pathname}`;
  const headers: Record<string, string> = {
    Authorization: t.authorization(),
    Accept: "application/json",
    "User-Agent": USER_AGENT,
  };
  const body = req.body === undefined ? undefined : JSON.stringify(req.body);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  everyRequestSignal.throwIfAborted();
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, timeoutMs);
  everyRequestSignal.addEventListener("abort", abort, { once: true });
  let res: FetchResponseLike | undefined;
  let text: string;
  const tooLarge = (detail: string) =>
    unusable(res?.status ?? 0, "response_too_large", `${where}: ${detail}`);
  try {
    const { signal } = controller;
    const init = { method: req.method, headers, body, signal, redirect: "manual" as const };
    res = await (t.fetch ?? watchedNodeFetch)(req.url, { ...init, size: MAX_RESPONSE_BYTES });
    const declared = Number(res.headers.get("content-length") ?? NaN);
    if (declared > MAX_RESPONSE_BYTES) {
      return tooLarge(
        `the response declares ${declared} bytes (Content-Length), more than the ${MAX_RESPONSE_BYTES} read at most`,
      );
    }
    text = await res.text();
    // A fetch other than node-fetch may ignore `size`: the cap still holds.
    if (text.length > MAX_RESPONSE_BYTES) throw Object.assign(new Error(), { type: "max-size" });
  } catch (error) {
    if ((error as { type?: unknown })?.type === "max-size") {
      return tooLarge(
        `the response body passed the ${MAX_RESPONSE_BYTES} bytes read at most; the rest was not read`,
      );
    }
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
  const parsed = parse(text);
  if (status >= 200 && status < 300) {
    if ("value" in parsed) return { answer: { status, text, body: parsed.value, attempts: 0 } };
    return unusable(status, "invalid_json", `expected JSON, got ${describeBody(t, contentType, text)}`);
  }
  return { failure: refusal(t, status, contentType, text, parsed, res.headers.get("retry-after")) };
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
    hint: deadline ? "Raise deadlineMs." : "Raise timeoutMs if the service is this slow.",
    limit: deadline ? "deadlineMs" : "timeoutMs",
  };
  return { cause: "timeout", notProcessed: false, error };
}

/** A rejection of fetch or of reading the body that was not our timer: refused, dropped, or another network failure. */
function lost(where: string, thrown: unknown, answered: boolean): Failure {
  const e = thrown as { code?: unknown; message?: unknown };
  const code = typeof e?.code === "string" ? e.code : undefined;
  // node-fetch words it "request to <url> failed, reason: <reason>"; the URL is already shown.
  const prefix = /^.*?(?:failed, reason|while trying to fetch \S+): /;
  const message = String(e?.message ?? thrown).replace(prefix, "");
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
    hint: "Check that the API URL is reachable from here.",
  };
  return { cause: refused ? "refused" : connection ? "connection" : "network", notProcessed: refused, error };
}

function parse(text: string): { value: unknown } | { invalid: true } {
  if (text === "") return { value: undefined };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { invalid: true };
  }
}
