import type * as http from "http";

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
