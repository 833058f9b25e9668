/**
 * Section 3: hostile responses no test covers, from a server on 127.0.0.1: bodies of 1 GB and
 * compression bombs (peak memory measured), trickling and stalled bodies, broken HTTP, odd
 * statuses and shapes, endless listings under the default listing deadline.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { Readable, pipeline } from "stream";
import { buffer } from "stream/consumers";
import { setTimeout as sleep } from "timers/promises";
import * as zlib from "zlib";
import { ApiError, NodeServiceClient } from "../../src/api";
import { startEmulator } from "../../src/emulator";
import { pool, say, seconds, table, withRss, zero, type Figure } from "../harness";
import { addSecret, causeOf, deriveSeed, keep, rngFor, sayProblems, scrub } from "./common";

type Op =
  "getNode" | "readNetwork" | "updateNetwork" | "deleteNetwork" | "requestTestTokens" | "listAllNodes";
type ListOp = "listAllNodes" | "listNodes";
const NETWORK_OPS: Op[] = ["readNetwork", "updateNetwork", "deleteNetwork"];
const SINGLE_OPS: Op[] = ["getNode", ...NETWORK_OPS, "requestTestTokens", "listAllNodes"];

/** What the handler knows about a request: the case's hits so far, its base URL, the path below it. */
type Ctx = { hits: number; base: string; path: string; method: string };
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx) => void;

const CLIENT = {
  ...{ timeoutMs: 1000, deadlineMs: 3000, maxRequestsPerSecond: 0 },
  retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 },
};
const [LIST_DEADLINE_MS, GRACE_MS, GIB] = [4000, 1000, 1024 * 1024 * 1024];

function send(res: http.ServerResponse, status: number, body: string | Buffer, headers = {}): void {
  const length = String(Buffer.byteLength(body));
  if (!res.destroyed)
    res
      .writeHead(status, { "Content-Type": "application/json", "Content-Length": length, ...headers })
      .end(body);
}

/** `head`, `count` times `chunk`, then `tail`, read with backpressure. */
const repeated = (chunk: Buffer, count: number, head: string | Buffer = "", tail = "") =>
  Readable.from(
    (function* () {
      if (head.length > 0) yield Buffer.from(head);
      for (let i = 0; i < count; i++) yield chunk;
      if (tail) yield Buffer.from(tail);
    })(),
  );

/** A 200 whose body is `body`, streamed until it ends or the client goes. */
const stream = (res: http.ServerResponse, headers: object, body: Readable) =>
  pipeline(body, res.writeHead(200, { "Content-Type": "application/json", ...headers }), () => undefined);

/** Raw bytes on the socket (no HTTP framing by Node), then close. */
const raw = (req: http.IncomingMessage, text: string): void =>
  void req.socket.write(text, () => req.socket.end());

export async function runHostile(seed: number): Promise<Figure[]> {
  const started = performance.now();
  const key = `hk_${rngFor(seed, "hostile").hex(40)}`;
  addSecret(key, "API key of the hostile-server client");

  // A realistic node and network (with endpoints and credentials) from an emulator of the same seed.
  const emulator = await startEmulator({ port: 0, seed: deriveSeed(seed, "hostile/data") });
  const node = emulator.admin.getNode(emulator.fixtures.beaconNode)!;
  const network = emulator.admin.getNetwork(emulator.fixtures.networkWithNodes)!;
  await emulator.close();
  const faucet = `{"amountSent":1000000000000000000,"transaction":"https://goerli.etherscan.io/tx/0x${"ab".repeat(32)}"}`;
  const goodBody = (ctx: Ctx): string => {
    if (ctx.method === "GET" && ctx.path === "/v1/nodes/")
      return JSON.stringify({ count: 1, next: null, previous: null, results: [node] });
    if (ctx.method === "GET") return JSON.stringify(node);
    if (ctx.method === "PATCH") return JSON.stringify(network);
    return ctx.method === "POST" ? faucet : JSON.stringify({ status: "deleted" });
  };
  const always =
    (status: number, body: string | Buffer, headers = {}): Handler =>
    (_q, res) =>
      send(res, status, body, headers);
  const mini = (i: number) => ({
    ...node,
    id: `ND-900-${String(i % 1000).padStart(3, "0")}-${i}`,
    details: {},
  });
  const page = (res: http.ServerResponse, next: unknown, results: unknown[]) =>
    send(res, 200, JSON.stringify({ next, previous: null, results }));

  // Compression bombs, made once (a few hundred KB each).
  const spacesMiB = Buffer.alloc(1024 * 1024, 0x20);
  const gzipMember = zlib.gzipSync(spacesMiB, { level: 9 });
  const deflateBomb = await buffer(
    repeated(spacesMiB, 256, '{"id":"').pipe(zlib.createDeflate({ level: 9 })),
  );
  const brotliParams = { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 };
  const brotliBomb = await buffer(
    repeated(spacesMiB, 64).pipe(zlib.createBrotliCompress({ params: brotliParams })),
  );
  const filler = Buffer.alloc(64 * 1024, 0x61);
  const [gzip, gzipHead] = [{ "Content-Encoding": "gzip" }, zlib.gzipSync('{"results":[')];
  const bomb = (body: Buffer, encoding: string) => always(200, body, { "Content-Encoding": encoding });

  async function* byteEvery100ms(text: string) {
    for (const byte of text) yield await sleep(100, byte);
  }
  const trickle: Handler = (_q, res, ctx) => stream(res, {}, Readable.from(byteEvery100ms(goodBody(ctx))));
  const stall: Handler = (_q, res, ctx) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.write(goodBody(ctx).slice(0, 10));
  };
  const framed =
    (head: string): Handler =>
    (req, _q, ctx) =>
      raw(
        req,
        `${head}\r\nContent-Length: ${Buffer.byteLength(goodBody(ctx))}\r\nConnection: close\r\n\r\n${goodBody(ctx)}`,
      );
  // Two slow 503s and a slow 404 use most of the deadline; the "is it gone?" probe gets none of its own.
  const slow404: Handler = (_q, res, ctx) => {
    if (!ctx.path.startsWith("/v1/networks/")) return;
    const [status, code] = ctx.hits < 3 ? [503, "unavailable"] : [404, "not_found"];
    const t = setTimeout(() => send(res, status, JSON.stringify({ error: { code, message: "." } })), 900);
    res.on("close", () => clearTimeout(t));
  };
  const polluting: Handler = (_q, res, ctx) => {
    const body = goodBody(ctx);
    const evil = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},';
    send(res, 200, body.startsWith("{") ? evil + body.slice(1) : body);
  };
  const LISTS: ListOp[] = ["listAllNodes", "listNodes"];
  // Pages of two fresh nodes, each linking to a page never seen before.
  const forever =
    (pad: string): Handler =>
    (_q, res, ctx) =>
      page(res, `${ctx.base}/v1/nodes/?page=${ctx.hits + 1}${pad}`, [
        mini(2 * ctx.hits),
        mini(2 * ctx.hits + 1),
      ]);
  const NO_DELETE = SINGLE_OPS.filter((o) => o !== "deleteNetwork");

  // Per group: name, operations, handler, and "any" where a success is a fair answer too.
  const byGroup: Record<string, Array<[string, Array<Op | ListOp>, Handler, "any"?]>> = {
    "huge body": [
      [
        "1 GB JSON-ish body, no Content-Length",
        ["getNode", "listAllNodes", "requestTestTokens"],
        (_q, res) =>
          stream(res, {}, repeated(filler, GIB / filler.length, '{"id":"ND-1-2-3","name":"', '"}')),
      ],
    ],
    "compression bomb": [
      [
        "gzip bomb: 1 GB of spaces in 1 MB",
        ["getNode", "listAllNodes"],
        (_q, res) => stream(res, gzip, repeated(gzipMember, 1024, gzipHead)),
      ],
      ["deflate bomb: 256 MB in one stream", ["getNode", "readNetwork"], bomb(deflateBomb, "deflate")],
      ["brotli bomb: 64 MB", ["getNode"], bomb(brotliBomb, "br")],
      [
        "gzip header, corrupt body",
        ["getNode", "requestTestTokens"],
        bomb(Buffer.concat([gzipMember.subarray(0, 20), Buffer.alloc(200, 0x41)]), "gzip"),
      ],
      [
        "Content-Encoding gzip on a plain body",
        ["getNode"],
        (_q, res, ctx) => send(res, 200, goodBody(ctx), { "Content-Encoding": "gzip" }),
      ],
    ],
    slow: [
      ["body at a byte per 100 ms", SINGLE_OPS, trickle],
      ["headers, then the body stalls", SINGLE_OPS, stall],
    ],
    "broken HTTP": [
      ["not HTTP at all", SINGLE_OPS, (req) => raw(req, "garbage\r\n\r\n")],
      ["status 999", SINGLE_OPS, framed("HTTP/1.1 999 Weird")],
      [
        "two different Content-Lengths",
        ["getNode", "requestTestTokens"],
        framed("HTTP/1.1 200 OK\r\nContent-Length: 5"),
      ],
      ["headers cut off", SINGLE_OPS, (req) => raw(req, "HTTP/1.1 200 OK\r\nContent-Type: appli")],
      ["102 Processing, then close", SINGLE_OPS, (req) => raw(req, "HTTP/1.1 102 Processing\r\n\r\n")],
    ],
    "odd status": [
      ["status 202", SINGLE_OPS, always(202, ""), "any"],
      ...[451, 499, 599].map((status): [string, Op[], Handler] => [
        `status ${status}`,
        SINGLE_OPS,
        always(status, "{}"),
      ]),
    ],
    "odd shape": [
      [
        "deep nesting (1e6 levels)",
        NO_DELETE,
        always(200, `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`),
      ],
      [
        "numbers out of range",
        ["getNode", "readNetwork", "updateNetwork", "listAllNodes"],
        always(200, '{"count":1e400,"next":null,"results":[],"id":1e400}'),
      ],
      ["prototype pollution keys", SINGLE_OPS, polluting, "any"],
    ],
    "proxy 404": [
      ["slow 503, 503, then 404 not_found; the list probe never answers", NETWORK_OPS, slow404, "any"],
    ],
    "endless pages": [
      ["full pages forever, no count", LISTS, forever("")],
      ["next a number", LISTS, (_q, res) => page(res, 2, [mini(1)])],
      [
        "next javascript:",
        LISTS,
        (_q, res, ctx) => page(res, ctx.hits > 1 ? null : "javascript:alert(1)", [mini(ctx.hits)]),
        "any",
      ],
      ["next of 100 KB", LISTS, forever(`&pad=${"x".repeat(100_000)}`), "any"],
    ],
  };
  // One client per scenario and operation, each case under its own path prefix (its index).
  const cases = Object.entries(byGroup).flatMap(([group, rows]) =>
    rows.flatMap(([name, ops, handle, expect = "reject"]) =>
      ops.map((op) => ({ name, group, op, handle, expect, hits: 0 })),
    ),
  );
  let base = "";
  const server = http.createServer((req, res) => {
    const m = /^\/h\/(\d+)(\/[^?]*)/.exec(req.url ?? "");
    const c = m ? cases[Number(m[1])] : undefined;
    if (!m || !c) return send(res, 404, '{"error":{"code":"not_found","message":"unknown case"}}');
    c.hits++;
    req.resume();
    const ctx = { hits: c.hits, base: `${base}/h/${m[1]}`, path: m[2], method: req.method ?? "GET" };
    try {
      c.handle(req, res, ctx);
    } catch {
      req.socket.destroy();
    }
  });
  server.on("clientError", (_e, socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const calls: Record<Op | ListOp, (c: NodeServiceClient) => Promise<unknown>> = {
    getNode: (c) => c.getNode("ND-100-000-001"),
    readNetwork: (c) => c.readNetwork("NW-100-000-1"),
    updateNetwork: (c) => c.updateNetwork("NW-100-000-1", { name: "renamed" }),
    deleteNetwork: (c) => c.deleteNetwork("NW-100-000-2"),
    requestTestTokens: (c) => c.requestTestTokens("0x52908400098527886E0F7030069857D2E4169EE7"),
    listAllNodes: (c) =>
      c.listAllNodes({}, { limit: 5000, deadlineMs: LIST_DEADLINE_MS } as { limit: number }),
    listNodes: async (c) => {
      let n = 0;
      for await (const _ of c.listNodes()) n++;
      return n;
    },
  };
  type Outcome = (typeof cases)[number] & {
    status: "resolved" | "rejected" | "pending";
    ms: number;
    deadline: number;
    error?: unknown;
    detail?: string;
  };
  const run = async (c: (typeof cases)[number]): Promise<Outcome> => {
    const client = new NodeServiceClient({ ...CLIENT, apiUrl: `${base}/h/${cases.indexOf(c)}`, apiKey: key });
    const deadline = c.op === "listAllNodes" ? LIST_DEADLINE_MS : CLIENT.deadlineMs;
    const o: Outcome = { ...c, status: "pending", ms: 0, deadline };
    // Waited for at most a watchdog's time: a call still pending keeps running.
    const start = performance.now();
    const watchdog = sleep(c.op === "listNodes" ? 90_000 : deadline + 15_000, undefined, { ref: false });
    await Promise.race([
      calls[c.op](client).then(
        (value) => Object.assign(o, { status: "resolved", detail: JSON.stringify(value)?.slice(0, 80) }),
        (error: unknown) => {
          keep("3 hostile", `${c.name} / ${c.op}`, error);
          Object.assign(o, { status: "rejected", error });
        },
      ),
      watchdog,
    ]);
    return Object.assign(o, { ms: performance.now() - start });
  };

  // Memory: each heavy case alone, RSS above the baseline sampled every 5 ms.
  // Deep nesting too: its parses would hold up the timers of the cases running beside it.
  const heavy = cases.filter((c) => /huge body|compression bomb/.test(c.group) || /nesting/.test(c.name));
  const memory: Array<{ outcome: Outcome; peakMb: number }> = [];
  for (const c of heavy) {
    const { result: outcome, peakGrowth } = await withRss(() => run(c));
    memory.push({ outcome, peakMb: peakGrowth / (1024 * 1024) });
  }
  const light = cases.filter((c) => !heavy.includes(c));
  const outcomes = [...memory.map((m) => m.outcome), ...(await pool(light, 16, run))];
  server.closeAllConnections();
  server.close();

  const polluted = ({} as Record<string, unknown>).polluted !== undefined;
  // Per group, then in total: cases, untyped errors, hostile answers taken, hangs; the slowest.
  const groups = new Map<string, number[]>();
  const problems: string[] = [];
  for (const o of [...outcomes, ...outcomes.map((o) => ({ ...o, group: "total" }))]) {
    const g = groups.get(o.group) ?? [0, 0, 0, 0, 0];
    groups.set(o.group, g);
    const where = `${o.name} / ${o.op}`;
    const hang = o.status === "pending" || o.ms > o.deadline + GRACE_MS;
    const untyped = o.status === "rejected" && !(o.error instanceof ApiError);
    const accepted = o.status === "resolved" && o.expect === "reject";
    [1, +untyped, +accepted, +hang].forEach((v, i) => (g[i] += v));
    g[4] = Math.max(g[4], o.ms);
    if (o.group === "total") continue;
    if (hang)
      problems.push(`hang: ${where}: ${o.status} after ${seconds(o.ms)} (deadline ${seconds(o.deadline)})`);
    if (untyped)
      problems.push(
        `untyped: ${where}: ${o.error instanceof Error ? `${o.error.name}: ${scrub(o.error.message.split("\n")[0]).slice(0, 120)}` : typeof o.error}`,
      );
    if (accepted) problems.push(`accepted: ${where} resolved with ${scrub(o.detail ?? "")}`);
  }
  const [, untyped, accepted, hangs] = groups.get("total")!;
  const rows = [...groups].map(([name, g]) => [name, ...g.slice(0, 4), seconds(g[4])]);
  table(
    `3. Hostile responses (${outcomes.length} cases from ${Object.values(byGroup).flat().length} scenarios, ${seconds(performance.now() - started)})`,
    ["group", "cases", "untyped", "hostile answer taken", "hangs", "slowest"],
    rows,
  );
  say(
    `  client: timeoutMs ${CLIENT.timeoutMs}, deadlineMs ${CLIENT.deadlineMs}, ${CLIENT.retry.maxRetries} retries; listAllNodes deadline ${LIST_DEADLINE_MS} ms; listNodes: the client's deadlineMs; hang = later than deadline + ${GRACE_MS} ms`,
  );
  table(
    "3b. Peak memory of the cases run alone (RSS above the baseline)",
    ["body / operation", "peak MB", "outcome", "time"],
    memory.map(({ outcome: o, peakMb }) => [
      `${o.name} / ${o.op}`,
      peakMb.toFixed(1),
      o.error !== undefined ? scrub(causeOf(o.error)) : o.status,
      seconds(o.ms),
    ]),
  );
  say(`  prototype polluted: ${polluted ? "YES" : "no"}`);
  sayProblems(problems);

  const rss = (figure: string, mb?: number): Figure => {
    const value = mb === undefined ? "not measured" : `${mb.toFixed(1)} MB`;
    return { figure, value, goal: "< 256 MB", met: mb !== undefined && mb < 256 };
  };
  const gb = memory.find((m) => m.outcome.name.startsWith("1 GB") && m.outcome.op === "getNode");
  const peak = Math.max(...memory.map((m) => m.peakMb));
  return [
    zero(`untyped errors (of ${outcomes.length} hostile cases)`, untyped),
    zero("hangs past deadline + 1 s", hangs),
    zero("hostile answers taken as success, or the prototype polluted", accepted + +polluted),
    rss("peak RSS for a 1 GB body", gb?.peakMb),
    rss("peak RSS, any case run alone", peak),
  ];
}
