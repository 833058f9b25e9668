/**
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
