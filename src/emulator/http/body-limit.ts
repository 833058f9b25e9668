import * as http from "http";
import type { Reply } from "./reply";
import { errorReply } from "./reply";

/**
 * After refusing a request whose body is too large, how long the connection stays half-open
 * (our side closed, nothing more read) before it is destroyed: time for the client to read the
 * answer before a reset could discard it.
 */
export const REFUSAL_LINGER_MS = 1000;

/** The outcome of reading a request body. */
export type BodyOutcome = { kind: "body"; body: Buffer } | { kind: "too-large" };

/**
 * Whether the request announces (`Content-Length`) a body larger than `limit` bytes: such a
 * request is refused before any of its body is read.
 */
export function announcedTooLarge(req: http.IncomingMessage, limit: number): boolean {
  const declared = req.headers["content-length"];
  if (declared === undefined) return false;
  // Node's parser already refused a malformed Content-Length; a huge one may not be a safe integer.
  return !/^[0-9]+$/.test(declared) || declared.length > 15 || Number(declared) > limit;
}

/**
 * Reads the whole body, or stops at the first chunk that takes it past `limit` bytes
 * (`"too-large"`): nothing more is read or kept, and the stream is left paused so the caller
 * can answer and close the connection. Rejects when the client aborts.
 */
export function readBody(req: http.IncomingMessage, limit: number): Promise<BodyOutcome> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      req.pause();
      chunks.length = 0;
      resolve({ kind: "too-large" });
    };
    const onEnd = () => {
      cleanup();
      resolve({ kind: "body", body: Buffer.concat(chunks) });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error("aborted"));
    // Kept after cleanup: a reset after a refusal must not become an unhandled 'error'.
    req.on("error", ignore);
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

function ignore(): void {}

/** The answer to a body over the limit: 413 `payload_too_large`. */
export function tooLarge(): Reply {
  return errorReply(413, "payload_too_large", "Request body too large.");
}

/**
 * Answers a request whose body is too large and closes the connection without reading any more
 * of it: reading stops (the socket is paused), the answer is written straight to the socket
 * with `Connection: close` and our side is closed (FIN); the socket is destroyed after
 * {@link REFUSAL_LINGER_MS}, so the client can read the answer even while it is still sending.
 */
export function refuseAndClose(req: http.IncomingMessage, reply: Reply): void {
  const socket = req.socket;
  req.pause();
  socket.pause();
  const body = reply.body ?? "";
  const headers: Record<string, string> = {
    ...reply.headers,
    Date: new Date().toUTCString(),
    Connection: "close",
    "Content-Length": String(Buffer.byteLength(body)),
  };
  const head = [
    `HTTP/1.1 ${reply.status} ${http.STATUS_CODES[reply.status] ?? ""}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    "",
  ].join("\r\n");
  const timer = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.end(head + body);
}
