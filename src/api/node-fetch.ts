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
import type { FetchLike, FetchResponseLike } from "./transport";

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
