/**
 * The client's default fetch: node-fetch v2, with a watch on each response. node-fetch pipes the
 * HTTP response into the body stream it hands out, and a pipe does not pass on the end of an
 * incomplete message: a body shorter than its `Content-Length`, or a connection closed or reset
 * while the body arrives, would leave that stream open until the per-attempt timeout fired. Here
 * each request goes through an agent that sees its response; when the response closes before it
 * was complete, the body stream is destroyed with a {@link BodyInterruptedError}, so the reader
 * fails at once (`body_interrupted`, retried like any dropped connection; see `attempt.ts`).
 *
 * Nothing changes on the wire: the agent is the global agent of `http` / `https` (read at each
 * request, so a replaced global agent is still the one used), and the `Connection: close` header
 * that node-fetch sends when it has no agent of its own is still sent.
 */
import * as http from "http";
import * as https from "https";
import nodeFetch from "node-fetch";
import { RETRYABLE_CONNECTION_CODES } from "./defaults";
import { previewBody } from "./redact";
import type { FailureKind } from "./retry";
import type { FetchLike, FetchResponseLike, Transport } from "./transport";

/** The connection ended before the whole response body had arrived. */
export class BodyInterruptedError extends Error {
  /** The client's error code for it. */
  readonly code = "body_interrupted";

  /** Builds the error; `declared` is the response's `Content-Length`, when it gave one. */
  constructor(declared: string | undefined) {
    super(
      declared !== undefined && /^\d+$/.test(declared)
        ? `the connection closed before the ${declared} bytes of the body (Content-Length) had arrived`
        : "the connection closed before the body was complete",
    );
    this.name = "BodyInterruptedError";
  }
}

/** An agent: the global one of the URL's protocol, told of each request before it goes out. */
function watchingAgent(
  url: { protocol?: string | null },
  watch: (req: http.ClientRequest) => void,
): http.Agent {
  const base: http.Agent = url.protocol === "https:" ? https.globalAgent : http.globalAgent;
  const agent = Object.create(base) as http.Agent & {
    addRequest(req: http.ClientRequest, options: unknown): void;
  };
  // `addRequest` is how Node's HTTP client hands a request to its agent (what proxy agents hook).
  const addRequest = (base as unknown as typeof agent).addRequest;
  agent.addRequest = (req, options) => {
    watch(req);
    addRequest.call(base, req, options);
  };
  return agent;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/**
 * node-fetch v2, failing a body cut off mid-stream at once with a {@link BodyInterruptedError}
 * (from the body stream) instead of leaving it to the per-attempt timeout.
 */
export const watchedNodeFetch: FetchLike = async (url, init) => {
  // What the watch found, and the body stream to stop once node-fetch has handed it out.
  const cut: { error?: BodyInterruptedError; body?: { destroy?: (error: Error) => void } } = {};
  const watch = (req: http.ClientRequest) =>
    req.once("response", (res: http.IncomingMessage) =>
      res.once("close", () => {
        if (res.complete || cut.error) return;
        const declared = res.headers["content-length"];
        cut.error = new BodyInterruptedError(typeof declared === "string" ? declared.trim() : undefined);
        cut.body?.destroy?.(cut.error);
      }),
    );
  const headers = hasHeader(init.headers, "connection")
    ? init.headers
    : { ...init.headers, Connection: "close" };
  const response = (await nodeFetch(url, {
    ...init,
    headers,
    agent: (parsed: { protocol?: string | null }) => watchingAgent(parsed, watch),
  } as unknown as Parameters<typeof nodeFetch>[1])) as unknown as FetchResponseLike;
  cut.body = response.body as typeof cut.body;
  // The response may have closed before this continuation ran.
  if (cut.error) cut.body?.destroy?.(cut.error);
  return response;
};

/*
 * Reads a response body with a size cap. The cap counts bytes after decompression (node-fetch
 * inflates gzip and deflate before the body stream), so a small compressed body that inflates to
 * gigabytes is stopped as soon as it passes the cap; nothing past the cap is kept in memory.
 */
/** The body parts of a fetch `Response` the reader uses; any of them may be absent in a fake. */
export interface BodySource {
  headers: { get(name: string): string | null };
  /** node-fetch v2: a Node `Readable`; WHATWG fetch: a `ReadableStream`. Both are async iterable. */
  body?: unknown;
  text(): Promise<string>;
}

/** The body passed the cap: `declaredBytes` when `Content-Length` said so, else `readBytes`. */
export class BodyTooLargeError extends Error {
  /** Builds the error. */
  constructor(
    readonly maxBytes: number,
    readonly readBytes: number,
    readonly declaredBytes?: number,
  ) {
    super(
      declaredBytes !== undefined
        ? `the response declares ${declaredBytes} bytes (Content-Length), more than the ${maxBytes} bytes read at most`
        : `the response body passed the ${maxBytes} bytes read at most (maxResponseBytes); the rest was not read`,
    );
    this.name = "BodyTooLargeError";
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk, "utf8");
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  return Buffer.from(String(chunk), "utf8");
}

/** Stops the body stream without reading the rest (a Node stream, or a WHATWG stream). */
function discard(body: unknown): void {
  const b = body as { destroy?: () => void; cancel?: () => Promise<void>; locked?: boolean };
  try {
    if (typeof b?.destroy === "function") b.destroy();
    else if (typeof b?.cancel === "function" && !b.locked) void b.cancel().catch(() => undefined);
  } catch {
    // the stream is gone either way
  }
}

/**
 * Returns the body as text (UTF-8), reading at most `maxBytes` bytes. Throws a
 * {@link BodyTooLargeError} when `Content-Length` announces more, or as soon as more arrives;
 * `abort` is then called so the connection is closed instead of drained.
 */
export async function readBodyText(res: BodySource, maxBytes: number, abort: () => void): Promise<string> {
  const declared = res.headers.get("content-length");
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > maxBytes) {
    abort();
    discard(res.body);
    throw new BodyTooLargeError(maxBytes, 0, Number(declared));
  }
  if (!isAsyncIterable(res.body)) {
    // A fake response without a stream: the text is already in memory; still enforce the cap.
    const text = await res.text();
    if (Buffer.byteLength(text, "utf8") > maxBytes) throw new BodyTooLargeError(maxBytes, text.length);
    return text;
  }
  const decoder = new TextDecoder("utf-8");
  const parts: string[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    const bytes = toBytes(chunk);
    total += bytes.byteLength;
    if (total > maxBytes) {
      abort();
      discard(res.body);
      throw new BodyTooLargeError(maxBytes, total);
    }
    parts.push(decoder.decode(bytes, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

function isJsonContentType(contentType: string): boolean {
  return /\bjson\b/i.test(contentType);
}

/** The result of `JSON.parse` on a body, or that it is not JSON. */
export type ParsedBody = { ok: true; value: unknown } | { ok: false };

/** Parses a body: an empty body is `undefined`. */
export function parseBody(text: string): ParsedBody {
  if (text === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Describes an unexpected body: content type and its first characters, redacted. */
export function describeBody(t: Transport, contentType: string, text: string): string {
  const type = contentType || "no content-type";
  if (text === "") return `an empty body (${type})`;
  const what = isJsonContentType(contentType) ? "invalid or truncated JSON" : "a non-JSON body";
  return `${what} (${type}, ${text.length} characters): ${JSON.stringify(previewBody(text, t.redact))}`;
}

/** Classifies a rejection of fetch (or of reading the body) that was not our own abort. */
export function classifyFailure(error: unknown): { failure: FailureKind; code: string; detail: string } {
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
