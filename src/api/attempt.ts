/**
 * One attempt of a call: the request sent with its headers and body, a timer that aborts it,
 * the body read with a size cap; the result is the response, or the description of a failure
 * (a timeout, a connection that failed or was refused, an unusable or failed answer).
 */
import { BodyTooLargeError, readBodyText } from "./body";
import { RETRYABLE_CONNECTION_CODES, USER_AGENT } from "./defaults";
import {
  AttemptFailure,
  describeBody,
  httpFailure,
  parseBody,
  SERVER_SHORT_CHARS,
  serverText,
  shownPath,
  unusableAnswer,
} from "./http-failure";
import type { FailureKind } from "./retry";
import type { ApiResponse, RequestSpec, Transport } from "./transport";

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
