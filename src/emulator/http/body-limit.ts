import * as http from "http";
import type { Reply } from "./reply";

/** How long a refused connection stays half-open before it is destroyed: time to read the 413. */
const REFUSAL_LINGER_MS = 1000;

/** Whether `Content-Length` announces a body over `limit` bytes (refused before a byte is read). */
export function announcedTooLarge(req: http.IncomingMessage, limit: number): boolean {
  const declared = req.headers["content-length"];
  if (declared === undefined) return false;
  // Node's parser already refused a malformed Content-Length; a huge one may not be a safe integer.
  return !/^[0-9]+$/.test(declared) || declared.length > 15 || Number(declared) > limit;
}

/**
 * The whole body, or `"too-large"` at the first chunk past `limit` bytes (the stream left paused
 * for the caller to answer and close). Rejects when the client aborts.
 */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      for (const event of ["data", "end", "error", "aborted"]) req.off(event, listeners[event]);
      outcome();
    };
    const listeners: Record<string, (value?: unknown) => void> = {
      data: (chunk) => {
        size += (chunk as Buffer).length;
        if (size <= limit) return void chunks.push(chunk as Buffer);
        req.pause();
        settle(() => resolve("too-large"));
      },
      end: () => settle(() => resolve(Buffer.concat(chunks))),
      error: (error) => settle(() => reject(error as Error)),
      aborted: () => settle(() => reject(new Error("aborted"))),
    };
    // Kept after settling: a reset after a refusal must not become an unhandled 'error'.
    req.on("error", () => undefined);
    for (const [event, listener] of Object.entries(listeners)) req.on(event, listener);
  });
}

/**
 * Answers straight to the paused socket with `Connection: close` and closes our side (FIN), reading
 * no more; destroyed after {@link REFUSAL_LINGER_MS}, so a client still sending can read it.
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
  const timer = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS).unref();
  socket.once("close", () => clearTimeout(timer));
  socket.end(head + body);
}
