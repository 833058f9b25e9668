/** The client in tests: wire records, a recording fake fetch, a scripted raw HTTP server, a test client. */
import http from "node:http";
import util from "node:util";
import { AddressInfo } from "node:net";
import {
  ApiError,
  FetchInitLike,
  FetchLike,
  FetchResponseLike,
  NodeServiceClient,
  NodeServiceClientOptions,
} from "../../src/api";
import type { WireNode } from "../../src/model";

/** A wire node as the service sends it, with overrides. */
export function wireNode(overrides: Partial<WireNode> & Record<string, unknown> = {}): WireNode {
  return {
    id: "ND-123-456-789",
    name: "My Ethereum archive node",
    network: "NW-123-456-7",
    organization: "RG-123-456",
    type: "dedicated",
    role: "peer",
    provider: "gcloud",
    region: "asia-southeast1",
    status: "running",
    configuration: { archive: true },
    details: {
      mode: "archive",
      version: "1.9.9",
      api_namespaces: ["net", "eth", "web3", "txpool", "debug"],
      graphql_endpoint: "https://nd-123-456-789.p2pify.com/graphql",
      https_endpoint: "https://nd-123-456-789.p2pify.com",
      wss_endpoint: "wss://ws-nd-123-456-789.p2pify.com",
      beacon_endpoint: "https://beacon-nd-123-456-789.p2pify.com",
      auth_username: "user-name",
      auth_password: "pass-word-pass-word-pass-word",
      auth_key: "3c6e0b8a9c15224a8228b9a98ca1531d",
    },
    created_at: "2020-06-15T07:38:00.747Z",
    creator: {
      id: "UR-111-111-111",
      email: "john.smith@example.com",
      first_name: "John",
      last_name: "Smith",
      organization: { id: "RG-123-456", name: "My organization" },
    },
    ...overrides,
  } as WireNode;
}

export function wireNetwork(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "NW-123-456-7",
    name: "Mainnet",
    project: "PR-123-456",
    protocol: "ethereum",
    configuration: { network: "ethereum-mainnet" },
    details: {},
    status: "ok",
    nodes: [wireNode()],
    created_at: "2020-06-15T07:38:00.747Z",
    creator: wireNode().creator,
    ...overrides,
  };
}

export interface Call {
  url: string;
  init: FetchInitLike;
}

/** A scripted answer of a fake fetch: a response, a rejection (`error`), or no answer until aborted (`hang`). */
export interface FakeAnswer {
  status?: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
  error?: Error;
  hang?: true;
}

/** A rejection of fetch with a system error `code`, as node-fetch gives it. */
export function systemError(code: string): Error {
  return Object.assign(new Error(`request to https://api.example.com/ failed, reason: ${code}`), { code });
}

/** A fake fetch that records every call and answers with `answer(url, call index)`. */
export function recordingFetch(
  answer: (url: string, index: number, init: FetchInitLike) => FakeAnswer = () => ({
    status: 200,
    body: {},
  }),
): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const a = answer(url, calls.length - 1, init);
    if (a.error) throw a.error;
    if (a.hang) {
      return new Promise<never>((_resolve, reject) =>
        init.signal.addEventListener("abort", () => reject(new Error("The user aborted a request."))),
      );
    }
    const text = a.text ?? (a.body === undefined ? "" : JSON.stringify(a.body));
    const headers = new Headers({ "content-type": "application/json" });
    for (const [k, v] of Object.entries(a.headers ?? {})) headers.set(k, v);
    const response: FetchResponseLike = { status: a.status ?? 200, headers, text: async () => text };
    return response;
  };
  return { fetch, calls };
}

export type Script =
  | { status: number; body?: unknown; text?: string; headers?: Record<string, string> }
  | { hang: true }
  | { drop: true }
  | ((req: http.IncomingMessage, res: http.ServerResponse, body: string) => void);

export interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The client's port: requests with one port came on one connection. */
  port: number;
}

/** A raw HTTP server on 127.0.0.1, port 0, answering each request with the next script. */
export interface ScriptedServer {
  url: string;
  hits: Hit[];
  /** Replaces the queue of scripts; when it runs out, `fallback` answers. */
  script(...scripts: Script[]): void;
  fallback: Script;
  /** Answers every request with `script` from now on: the queue emptied, the hits cleared. */
  always(script: Script): void;
  /**
   * Resolves once no request has arrived for `quietMs`: the requests a test's client left in
   * flight (pages fetched ahead by a listing that failed or ran out of time) have landed, so none
   * of them takes a script of the next test.
   */
  settled(quietMs: number): Promise<void>;
  close(): Promise<void>;
}

const NO_SCRIPT: Script = { status: 500, body: { error: { code: "no_script", message: "no script left" } } };

export async function startScriptedServer(): Promise<ScriptedServer> {
  let queue: Script[] = [];
  const hits: Hit[] = [];
  let lastArrival = 0;
  const state: ScriptedServer = {
    url: "",
    hits,
    fallback: NO_SCRIPT,
    script(...scripts) {
      queue = [...scripts];
      hits.length = 0;
    },
    always(script) {
      state.script();
      state.fallback = script;
    },
    async settled(quietMs) {
      for (let quiet = Date.now() - lastArrival; quiet < quietMs; quiet = Date.now() - lastArrival) {
        await new Promise((resolve) => setTimeout(resolve, quietMs - quiet));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    lastArrival = Date.now();
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const port = req.socket.remotePort ?? 0;
      hits.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, port });
      const s = queue.length > 0 ? queue.shift()! : state.fallback;
      if (typeof s === "function") return s(req, res, body);
      if ("hang" in s) return;
      if ("drop" in s) {
        req.socket.destroy();
        return;
      }
      const text = s.text ?? (s.body === undefined ? "" : JSON.stringify(s.body));
      res.writeHead(s.status, {
        ...(s.body !== undefined ? { "content-type": "application/json" } : {}),
        ...(s.headers ?? {}),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** Awaits a promise that must reject, and returns the rejection. */
export async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<Error> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** A client for tests: no rate limit, near-instant retries, any option overridable. */
export function testClient(
  apiUrl: string,
  apiKey: string,
  options: Partial<NodeServiceClientOptions> = {},
): NodeServiceClient {
  return new NodeServiceClient({
    apiUrl,
    apiKey,
    maxRequestsPerSecond: 0,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

/** Returns `fails(promise)`: awaits a rejection, keeps the error in `errors` (for the key audit), returns it. */
export function failureRecorder(errors: unknown[]): (promise: Promise<unknown>) => Promise<ApiError> {
  return async (promise) => {
    const error = await rejection(promise);
    errors.push(error);
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  };
}

/** Every way an error is shown: message, stack, string, JSON, inspection. */
export function renderings(error: unknown): string[] {
  const e = error as Error;
  return [e.message, e.stack ?? "", String(e), JSON.stringify(e), util.inspect(e, { depth: 10 })];
}

/**
 * A {@link ScriptedServer} for the tests of the enclosing block (its fallback reset before each, the
 * requests a listing left in flight landed after each), a client of it with `apiKey`, and `fails`,
 * whose errors are audited after all for the key in every rendering.
 */
export function withScriptedServer(apiKey: string): {
  server: ScriptedServer;
  client: (options?: Partial<NodeServiceClientOptions>) => NodeServiceClient;
  fails: (promise: Promise<unknown>) => Promise<ApiError>;
  /** Every error `fails` returned. */
  errors: unknown[];
} {
  let running: ScriptedServer | undefined;
  const errors: unknown[] = [];
  const current = (): ScriptedServer => {
    if (!running) throw new Error("no scripted server: use it inside a test or a hook");
    return running;
  };
  beforeAll(async () => void (running = await startScriptedServer()));
  beforeEach(() => void (current().fallback = NO_SCRIPT));
  afterEach(() => current().settled(150));
  afterAll(async () => {
    await current().close();
    for (const e of errors) expect(renderings(e).join("\n")).not.toContain(apiKey);
  });
  const server = new Proxy({} as ScriptedServer, {
    get: (_target, name) => Reflect.get(current(), name),
    set: (_target, name, value) => Reflect.set(current(), name, value),
  });
  return {
    server,
    client: (options = {}) => testClient(current().url, apiKey, options),
    fails: failureRecorder(errors),
    errors,
  };
}
