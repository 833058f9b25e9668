/** The emulator in tests: started for a block of tests by {@link withEmulator}, spoken to over HTTP. */
import * as diagnostics from "diagnostics_channel";
import * as http from "http";
import type { WireNode } from "../../src/model";
import { startEmulator } from "../../src/emulator";
import type { EmulatorOptions, RunningEmulator } from "../../src/emulator";

/**
 * Starts an emulator with `options` (port 0 unless given) for the tests of the enclosing block
 * (`each`: a fresh one for every test) and closes it after them. Returns its accessor, for tests
 * and for hooks registered after this call (jest runs a block's hooks in registration order).
 */
export function withEmulator(
  options: EmulatorOptions = {},
  lifecycle: { each?: boolean } = {},
): () => RunningEmulator {
  let running: RunningEmulator | undefined;
  const start = async () => void (running = await startEmulator(options));
  const stop = async (): Promise<void> => {
    const emulator = running;
    running = undefined;
    await emulator?.close();
  };
  if (lifecycle.each) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  return () => {
    if (!running) throw new Error("no emulator running: use withEmulator's accessor inside a test or a hook");
    return running;
  };
}

/** A response read completely. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Options of {@link call}. */
export interface CallOptions {
  method?: string;
  /** API key; `null` sends no Authorization header; default the primary key. */
  key?: string | null;
  /** JSON body (serialized, with Content-Type: application/json). */
  body?: unknown;
  /** Raw body, sent as is. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the emulator with global fetch and reads the whole answer. */
export async function call(
  emulator: RunningEmulator,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? emulator.apiKey : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  return fetchAnswer(`${emulator.url}${path}`, { method: options.method ?? "GET", headers, body });
}

/** Fetches `url` with global fetch and reads the whole answer; `json` when the text parses. */
export async function fetchAnswer(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Starts an emulator with `options`, runs `use` with it and closes it, whether `use` passed or threw. */
export async function usingEmulator<T>(
  options: EmulatorOptions,
  use: (emulator: RunningEmulator) => Promise<T>,
): Promise<T> {
  const emulator = await startEmulator(options);
  try {
    return await use(emulator);
  } finally {
    await emulator.close();
  }
}

/** Asks the goerli faucet for test tokens for `address`, by default the fixtures' faucet address. */
export const drip = (emulator: RunningEmulator, address: unknown = emulator.fixtures.faucetAddress) =>
  call(emulator, "/v1/faucet/goerli", { method: "POST", body: { address } });

/** Sends a raw request with node's http module (no URL normalization, any Host header). */
export function rawRequest(
  emulator: RunningEmulator,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { hostname: host, port } = new URL(emulator.url);
  const headers = { Authorization: `Bearer ${emulator.apiKey}`, ...options.headers };
  return new Promise((resolve, reject) => {
    const request = { host, port, path, method: options.method ?? "GET", headers, agent: false };
    const req = http.request(request, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject).end();
  });
}

/** The secrets of `emulator` (keys, endpoints, credentials) that any of `texts` shows. */
export const leaked = (emulator: RunningEmulator, texts: string[]): string[] =>
  emulator.secrets().filter((secret) => texts.some((text) => text.includes(secret)));

/** Every node of a list query, following `next` links; checks that no page is skipped or repeated. */
export async function listAll(emulator: RunningEmulator, query = "", key?: string): Promise<WireNode[]> {
  const nodes: WireNode[] = [];
  let path: string | null = `/v1/nodes/${query ? `?${query}` : ""}`;
  let count: number | undefined;
  while (path) {
    const answer = await call(emulator, path, { key });
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text}`);
    count ??= answer.json.count;
    nodes.push(...answer.json.results);
    const next: string | null = answer.json.next;
    path = next ? next.slice(emulator.url.length) : null;
  }
  if (nodes.length !== count) throw new Error(`collected ${nodes.length} nodes, count says ${count}`);
  return nodes;
}

/** A request as it reached an emulator's server in this process. */
export interface Arrival {
  method: string;
  /** The path, without the query. */
  path: string;
  /** Whether its whole body has been read. */
  complete(): boolean;
  /** When its connection closed. */
  closedAt?: number;
}

/**
 * Records the requests that reach `emulator()`'s server in this process (node's
 * `http.server.request.start` channel) during each test of the enclosing block; cleared after each.
 */
export function recordArrivals(emulator: () => RunningEmulator): () => Arrival[] {
  let arrivals: Arrival[] = [];
  const onRequest = (message: unknown) => {
    const { request, server } = message as { request: http.IncomingMessage; server: http.Server };
    const address = server.address();
    if (typeof address !== "object" || address?.port !== Number(new URL(emulator().url).port)) return;
    const path = (request.url ?? "").split("?")[0];
    const arrival: Arrival = { method: request.method ?? "", path, complete: () => request.complete };
    request.socket.once("close", () => (arrival.closedAt = Date.now()));
    arrivals.push(arrival);
  };
  beforeAll(() => diagnostics.subscribe("http.server.request.start", onRequest));
  afterEach(() => void (arrivals = []));
  afterAll(() => diagnostics.unsubscribe("http.server.request.start", onRequest));
  return () => arrivals;
}
