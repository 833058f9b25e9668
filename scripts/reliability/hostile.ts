/**
 * Section 4: hostile responses. A small HTTP server on 127.0.0.1 (port 0) answers the client
 * with what a broken proxy, a captive portal or a malicious host might send: non-JSON bodies,
 * truncated JSON, wrong shapes, proxy 404s, endless pages, 1 GB bodies (streamed lazily, never
 * buffered), compression bombs, a body at a byte per 100 ms, redirects to another host, junk
 * `Retry-After` headers, and secrets echoed back (the API key, and the credentials of a node the
 * client has just read from the same server; apart, those of a node it never read). Each scenario
 * has its own path prefix, used as the client's API URL. A second server stands for "another
 * host": nothing may reach it.
 */
import * as http from "http";
import type { AddressInfo, Socket } from "net";
import * as zlib from "zlib";
import { ApiError, DEFAULT_LIST_DEADLINE_MS, NodeServiceClient } from "../../src/api";
import { NETWORK_WITH_NODES_NODE_IDS, startEmulator } from "../../src/emulator";
import type { WireNetwork, WireNode } from "../../src/model";
import {
  Goal,
  Rng,
  addEmulatorSecrets,
  addSecret,
  causeOf,
  deriveSeed,
  keep,
  pool,
  say,
  sayProblems,
  scrub,
  seconds,
  settle,
  table,
  zeroGoal,
} from "./common";

const SECTION = "4 hostile";

type Op =
  | "getNode"
  | "readNetwork"
  | "updateNetwork"
  | "deleteNetwork"
  | "requestTestTokens"
  | "listAllNodes"
  | "listNodes";

const SINGLE_OPS: Op[] = [
  "getNode",
  "readNetwork",
  "updateNetwork",
  "deleteNetwork",
  "requestTestTokens",
  "listAllNodes",
];
const NETWORK_OPS: Op[] = ["readNetwork", "updateNetwork", "deleteNetwork"];
const LIST_OPS: Op[] = ["listAllNodes", "listNodes"];

/** What the handler knows about a request. */
interface Ctx {
  /** Requests this case has received so far (1 for the first). */
  hits: number;
  /** The case's base URL (the client's apiUrl), e.g. `http://127.0.0.1:4000/h/12`. */
  base: string;
  /** Path below the base, e.g. `/v1/nodes/`. */
  path: string;
  query: URLSearchParams;
  method: string;
  /** The Authorization header as received (to echo it back, like a careless proxy). */
  authorization: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, ctx: Ctx) => void;

interface Scenario {
  name: string;
  group: string;
  ops: Op[];
  /** `reject`: the call must fail; `any`: success is acceptable too. */
  expect: "reject" | "any";
  handle: Handler;
  /**
   * The client first reads the node whose credentials the server then echoes, with this call
   * (the handler answers the case's first request with the node): what a real client has done
   * before a server can echo a node's credentials back to it.
   */
  readFirst?: "getNode" | "listNodes";
  /** Credentials the server echoes that this client never read (the leak scan counts them apart). */
  unread?: ReadonlySet<string>;
}

const CLIENT = { timeoutMs: 1000, deadlineMs: 3000, retries: 2 };
const LIST_DEADLINE_MS = 4000;
const GRACE_MS = 1000;
const GIB = 1024 * 1024 * 1024;

function send(
  res: http.ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, JSON.stringify(value), headers);
}

/** Streams `total` bytes of `head` + filler + `tail` with backpressure; nothing is buffered. */
function streamFiller(
  res: http.ServerResponse,
  total: number,
  head: string,
  tail: string,
  headers: Record<string, string> = {},
): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  let stopped = false;
  res.on("close", () => {
    stopped = true;
  });
  res.writeHead(200, { "Content-Type": "application/json", ...headers });
  res.write(head);
  const pump = () => {
    while (!stopped && sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!stopped) res.end(tail);
  };
  pump();
}

/** Streams pre-made chunks (compressed members) `repeat` times, with backpressure. */
function streamChunks(
  res: http.ServerResponse,
  first: Buffer,
  member: Buffer,
  repeat: number,
  headers: Record<string, string>,
): void {
  let i = 0;
  let stopped = false;
  res.on("close", () => {
    stopped = true;
  });
  res.writeHead(200, headers);
  res.write(first);
  const pump = () => {
    while (!stopped && i < repeat) {
      i++;
      if (!res.write(member)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!stopped) res.end();
  };
  pump();
}

/**
 * What a compression stream makes of `head` (if any) then `count` times `chunk`, written as the
 * stream drains.
 */
function compressRepeated(
  stream: zlib.Deflate | zlib.BrotliCompress,
  chunk: Buffer,
  count: number,
  head?: string,
): Promise<Buffer> {
  return new Promise<Buffer>((resolve) => {
    const out: Buffer[] = [];
    stream.on("data", (b: Buffer) => out.push(b));
    stream.on("end", () => resolve(Buffer.concat(out)));
    if (head !== undefined) stream.write(head);
    let n = 0;
    const feed = () => {
      while (n < count) {
        n++;
        if (!stream.write(chunk)) return void stream.once("drain", feed);
      }
      stream.end();
    };
    feed();
  });
}

/** Sends a body one byte every `everyMs`, until the client goes away (at most `max` bytes). */
function trickle(
  res: http.ServerResponse,
  body: string,
  everyMs: number,
  headers: Record<string, string> = {},
): void {
  res.writeHead(200, { "Content-Type": "application/json", ...headers });
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed || i >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body[i++]);
  }, everyMs);
  res.on("close", () => clearInterval(timer));
}

/** Writes raw bytes on the socket (no HTTP framing by Node) and closes it. */
function raw(req: http.IncomingMessage, text: string | Buffer): void {
  const socket = req.socket;
  socket.write(text, () => socket.end());
}

export interface HostileOptions {
  seed: number;
  quick: boolean;
}

interface Case {
  id: string;
  scenario: Scenario;
  op: Op;
  hits: number;
  /** With `readFirst`: `ok` once the client has read the node, or why it could not. */
  read?: string;
}

interface Outcome {
  c: Case;
  status: "resolved" | "rejected" | "pending";
  ms: number;
  deadline: number;
  error?: unknown;
  detail?: string;
}

/** Runs section 4 and prints its table; returns its goals. */
export async function runHostile(options: HostileOptions): Promise<Goal[]> {
  const started = performance.now();
  const rng = new Rng(deriveSeed(options.seed, "hostile"));
  const key = `hk_${rng.hex(40)}`;
  addSecret(key, "API key of the hostile-server client");

  // Realistic bodies (with endpoints and credentials) from an emulator of the same seed.
  const emulator = await startEmulator({ port: 0, seed: deriveSeed(options.seed, "hostile/data") });
  addEmulatorSecrets(emulator);
  const node: WireNode = emulator.admin.getNode(emulator.fixtures.beaconNode)!;
  const network: WireNetwork = emulator.admin.getNetwork(emulator.fixtures.networkWithNodes)!;
  // A node no client of the "never read" echo cases is ever sent: its credentials are unknown to them.
  const unreadNode = emulator.admin.getNode(
    NETWORK_WITH_NODES_NODE_IDS.find((id) => id !== node.id) ?? NETWORK_WITH_NODES_NODE_IDS[1],
  );
  await emulator.close();
  const credentialsOf = (n: WireNode): string[] => {
    const d = n.details;
    return [
      d.https_endpoint,
      d.wss_endpoint,
      d.graphql_endpoint,
      d.beacon_endpoint,
      d.auth_username,
      d.auth_password,
      d.auth_key,
    ].filter((v): v is string => typeof v === "string" && v !== "");
  };
  if (!unreadNode || unreadNode.id === node.id || !unreadNode.details.auth_password) {
    throw new Error("the hostile data emulator has no second node with credentials");
  }
  const unreadCredentials: ReadonlySet<string> = new Set(credentialsOf(unreadNode));
  const nodeJson = JSON.stringify(node);
  const faucetJson = `{"amountSent":1000000000000000000,"transaction":"https://goerli.etherscan.io/tx/0x${"ab".repeat(32)}"}`;

  /** The answer the service would give, for the parts a scenario does not break. */
  const serviceAnswer = (res: http.ServerResponse, ctx: Ctx) => {
    if (ctx.method === "GET" && ctx.path === "/v1/nodes/") {
      return sendJson(res, 200, { count: 1, next: null, previous: null, results: [node] });
    }
    if (ctx.method === "GET" && ctx.path.startsWith("/v1/nodes/")) return send(res, 200, nodeJson);
    if (ctx.method === "PATCH") return sendJson(res, 200, network);
    if (ctx.method === "DELETE") {
      res.writeHead(204);
      return res.end();
    }
    if (ctx.method === "POST") return send(res, 200, faucetJson);
    sendJson(res, 404, { error: { code: "not_found", message: "Not found." } });
  };
  /** The body a successful answer to this request would have. */
  const goodBody = (ctx: Ctx): string => {
    if (ctx.method === "GET" && ctx.path === "/v1/nodes/") {
      return JSON.stringify({ count: 1, next: null, previous: null, results: [node] });
    }
    if (ctx.method === "GET") return nodeJson;
    if (ctx.method === "PATCH") return JSON.stringify(network);
    if (ctx.method === "POST") return faucetJson;
    return JSON.stringify({ status: "deleted" });
  };
  const always =
    (status: number, body: string, type: string, headers: Record<string, string> = {}): Handler =>
    (_req, res) =>
      send(res, status, body, { "Content-Type": type, ...headers });
  const nodePage = (count: unknown, next: string | null | unknown, results: unknown[]) => ({
    count,
    next,
    previous: null,
    results,
  });
  const pageUrl = (ctx: Ctx, page: number | string) => `${ctx.base}/v1/nodes/?page=${page}`;
  const mini = (i: number): WireNode => ({
    ...node,
    id: `ND-900-${String(i % 1000).padStart(3, "0")}-${i}`,
    details: {},
  });
  /** Pages of two fresh nodes with `count`, each with a next link to a page never seen before. */
  const fullPagesForever =
    (count: unknown): Handler =>
    (_q, res, ctx) =>
      sendJson(
        res,
        200,
        nodePage(count, pageUrl(ctx, ctx.hits + 1), [mini(2 * ctx.hits), mini(2 * ctx.hits + 1)]),
      );

  // Compression bombs, made once, lazily (a few hundred KB each).
  const spacesMiB = Buffer.alloc(1024 * 1024, 0x20);
  const gzipHead = zlib.gzipSync(Buffer.from('{"results":['));
  const gzipMember = zlib.gzipSync(spacesMiB, { level: 9 });
  const deflateBomb = await compressRepeated(zlib.createDeflate({ level: 9 }), spacesMiB, 256, '{"id":"');
  const brotliBomb = await compressRepeated(
    zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }),
    spacesMiB,
    64,
  );

  // "Another host": a redirect or a next link must never bring the request (and key) here.
  let evilRequests = 0;
  let evilSawKey = 0;
  const evil = http.createServer((req, res) => {
    evilRequests++;
    if ((req.headers.authorization ?? "").includes(key)) evilSawKey++;
    send(res, 200, nodeJson);
  });
  await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
  const evilBase = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;

  const junkRetryAfter = [
    "-1",
    "abc",
    "1e309",
    "Infinity",
    "NaN",
    "99999999999999999999",
    "Fri, 31 Dec 9999 23:59:59 GMT",
    "Thu, 01 Jan 1970 00:00:00 GMT",
    "0x10",
    "",
    "1, 2",
    "  5  ",
    "3600",
    "Wed, 99 Foo 2024 25:61:61 GMT",
  ];
  const truncatedAt = [0.1, 0.5, 0.97].map((f) => f + (rng.next() - 0.5) * 0.05);

  /** Errors echoing the key and a node's credentials, as a careless proxy or server would send them. */
  const echoes: Array<[string, (res: http.ServerResponse, ctx: Ctx, n: WireNode) => void]> = [
    [
      "400 fields echoing the key and an endpoint",
      (res, ctx, n) =>
        sendJson(res, 400, {
          error: {
            code: "validation_error",
            message: `bad request for ${n.details.https_endpoint}`,
            fields: {
              [ctx.authorization.replace(/^Bearer /, "")]: [
                `key ${ctx.authorization} is not allowed`,
                `use ${n.details.wss_endpoint} with ${n.details.auth_password}`,
              ],
            },
          },
        }),
    ],
    [
      "401 HTML page quoting the key",
      (res, ctx, n) =>
        send(
          res,
          401,
          `<html><body>Invalid token ${ctx.authorization.replace(/^Bearer /, "")} for user ${n.details.auth_username}</body></html>`,
          { "Content-Type": "text/html" },
        ),
    ],
    [
      "503 plain text with credentials",
      (res, ctx, n) =>
        send(
          res,
          503,
          `upstream ${n.details.https_endpoint} down; auth_key=${n.details.auth_key}; ${ctx.authorization}`,
          { "Content-Type": "text/plain" },
        ),
    ],
  ];
  const echoScenarios = (): Scenario[] =>
    echoes.flatMap(([name, echo]): Scenario[] => [
      ...(["getNode", "listNodes"] as const).map((read): Scenario => ({
        name: `${name} (node read first by ${read})`,
        group: "echoed secrets",
        ops: SINGLE_OPS,
        expect: "reject",
        readFirst: read,
        // The first request is the read: the node as the service would send it; then the echoes.
        handle: (_q, res, ctx) => (ctx.hits === 1 ? serviceAnswer(res, ctx) : echo(res, ctx, node)),
      })),
      {
        name: `${name} (a node the client never read)`,
        group: "echoed secrets, never read",
        ops: SINGLE_OPS,
        expect: "reject",
        unread: unreadCredentials,
        handle: (_q, res, ctx) => echo(res, ctx, unreadNode),
      },
    ]);

  const scenarios: Scenario[] = [
    // Non-JSON and garbage 200s.
    {
      name: "HTML page with 200",
      group: "non-JSON body",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: always(
        200,
        "<!DOCTYPE html><html><body><h1>Checking your browser</h1></body></html>",
        "text/html",
      ),
    },
    {
      name: "plain text 200",
      group: "non-JSON body",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: always(200, "OK", "text/plain"),
    },
    {
      name: "empty 200",
      group: "non-JSON body",
      ops: SINGLE_OPS.filter((o) => o !== "deleteNetwork"),
      expect: "reject",
      handle: always(200, "", "application/json"),
    },
    {
      name: "binary garbage 200",
      group: "non-JSON body",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (_q, res) =>
        send(res, 200, Buffer.from(Array.from({ length: 2048 }, () => rng.int(0, 255))), {
          "Content-Type": "application/octet-stream",
        }),
    },
    {
      name: "invalid UTF-8 inside JSON",
      group: "non-JSON body",
      ops: SINGLE_OPS,
      expect: "any",
      handle: (_q, res, ctx) =>
        send(
          res,
          200,
          Buffer.concat([
            Buffer.from(goodBody(ctx).slice(0, -2)),
            Buffer.from([0xff, 0xfe, 0xc3]),
            Buffer.from('"}'),
          ]),
        ),
    },
    {
      name: "NUL bytes in JSON",
      group: "non-JSON body",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => send(res, 200, `${goodBody(ctx)}\u0000\u0000`),
    },
    {
      name: "JSON labelled text/html",
      group: "non-JSON body",
      ops: ["getNode"],
      expect: "any",
      handle: (_q, res, ctx) => send(res, 200, goodBody(ctx), { "Content-Type": "text/html" }),
    },
    // Truncated JSON (with endpoints and credentials inside: error previews must not show them).
    ...truncatedAt.map((f, i): Scenario => ({
      name: `truncated JSON at ${Math.round(f * 100)}% (#${i})`,
      group: "truncated JSON",
      ops: SINGLE_OPS.filter((o) => o !== "deleteNetwork"),
      expect: "reject",
      handle: (_q, res, ctx) => {
        const body = goodBody(ctx);
        send(res, 200, body.slice(0, Math.max(1, Math.floor(body.length * f))));
      },
    })),
    // Wrong shapes.
    ...(
      [
        ["an array", "[]"],
        ["null", "null"],
        ["a string", '"ok"'],
        ["a number", "123"],
        ["an empty object", "{}"],
        ["results a string", '{"count":1,"next":null,"results":"x"}'],
        ["results of numbers", '{"count":3,"next":null,"results":[1,2,3]}'],
        [
          "fields of the wrong types",
          JSON.stringify({
            ...node,
            id: 5,
            name: [],
            status: {},
            details: "x",
            created_at: 1,
            count: "a",
            results: [{ id: 5 }],
            amountSent: "lots",
            transaction: 7,
            nodes: "x",
          }),
        ],
        ["deep nesting (1e6 levels)", `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`],
        [
          "numbers out of range",
          '{"count":1e400,"next":null,"results":[],"amountSent":1e400,"transaction":"x","id":1e400}',
        ],
      ] as Array<[string, string]>
    ).map(([what, body]): Scenario => ({
      name: `wrong shape: ${what}`,
      group: "wrong shape",
      // The faucet's amounts have their own cases below.
      ops: SINGLE_OPS.filter(
        (o) => o !== "deleteNetwork" && !(what === "numbers out of range" && o === "requestTestTokens"),
      ),
      expect: "reject",
      handle: always(200, body, "application/json"),
    })),
    {
      name: "prototype pollution keys",
      group: "wrong shape",
      ops: SINGLE_OPS,
      expect: "any",
      handle: (_q, res, ctx) => {
        const body = goodBody(ctx);
        send(
          res,
          200,
          body.startsWith("{")
            ? `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},${body.slice(1)}`
            : body,
        );
      },
    },
    // 1e3 and 1e400 are integers written with an exponent, and the client reads amounts given as
    // strings on purpose (api/mapping.ts): an exact decimal string is a fair answer to those.
    ...(["-1", "0.5", '"1e3"', "0x10", "1e3", "1e400", "-0", "true"] as const).map((amount): Scenario => ({
      name: `faucet amountSent ${amount}`,
      group: "wrong shape",
      ops: ["requestTestTokens"],
      expect: amount === "1e3" || amount === "1e400" || amount === '"1e3"' ? "any" : "reject",
      handle: always(
        200,
        `{"amountSent":${amount},"transaction":"https://goerli.etherscan.io/tx/0x${"cd".repeat(32)}"}`,
        "application/json",
      ),
    })),
    // 404s that are not the service's "does not exist".
    {
      name: "404 HTML page of a proxy",
      group: "proxy 404",
      ops: [...NETWORK_OPS, "getNode"],
      expect: "reject",
      handle: always(
        404,
        "<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>",
        "text/html",
      ),
    },
    {
      name: "404 JSON of another framework",
      group: "proxy 404",
      ops: [...NETWORK_OPS, "getNode"],
      expect: "reject",
      handle: always(404, '{"detail":"Not found."}', "application/json"),
    },
    {
      name: "404 route_not_found",
      group: "proxy 404",
      ops: [...NETWORK_OPS, "getNode"],
      expect: "reject",
      handle: always(404, '{"error":{"code":"route_not_found","message":"No route."}}', "application/json"),
    },
    {
      name: "404 plain text",
      group: "proxy 404",
      ops: [...NETWORK_OPS, "getNode"],
      expect: "reject",
      handle: always(404, "Not Found", "text/plain"),
    },
    {
      name: "404 not_found, and the list probe is a proxy page too",
      group: "proxy 404",
      ops: NETWORK_OPS,
      expect: "reject",
      handle: (_q, res, ctx) =>
        ctx.path.startsWith("/v1/networks/")
          ? sendJson(res, 404, { error: { code: "not_found", message: "Not found." } })
          : send(res, 404, "<html>404</html>", { "Content-Type": "text/html" }),
    },
    {
      // Two slow 503s and a slow 404 use most of the call's deadline; the "is it gone?" probe that
      // follows must not get a deadline of its own.
      name: "slow 503, 503, then 404 not_found; the list probe never answers",
      group: "proxy 404",
      ops: NETWORK_OPS,
      expect: "any",
      handle: (_q, res, ctx) => {
        if (ctx.path.startsWith("/v1/networks/")) {
          const t = setTimeout(
            () =>
              ctx.hits < 3
                ? sendJson(res, 503, { error: { code: "unavailable", message: "Later." } })
                : sendJson(res, 404, { error: { code: "not_found", message: "Not found." } }),
            900,
          );
          res.on("close", () => clearTimeout(t));
        }
        // The probe (GET /v1/nodes/) is left without an answer.
      },
    },
    // Endless pages.
    {
      name: "empty pages, each with a fresh next",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => sendJson(res, 200, nodePage(undefined, pageUrl(ctx, ctx.hits + 1), [])),
    },
    {
      name: "empty pages with count 0 and a fresh next",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => sendJson(res, 200, nodePage(0, pageUrl(ctx, ctx.hits + 1), [])),
    },
    {
      name: "full pages forever, no count",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: fullPagesForever(undefined),
    },
    {
      name: "full pages forever, count 1e9",
      group: "endless pages",
      ops: ["listAllNodes"],
      expect: "reject",
      handle: fullPagesForever(1e9),
    },
    {
      name: "count 4, pages keep coming",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: fullPagesForever(4),
    },
    {
      name: "next points back to page 1",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => sendJson(res, 200, nodePage(10, pageUrl(ctx, 1), [mini(ctx.hits)])),
    },
    {
      name: "two pages pointing at each other",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => {
        const page = ctx.query.get("page") === "2" ? 2 : 1;
        sendJson(res, 200, nodePage(10, pageUrl(ctx, page === 1 ? 2 : 1), [mini(page)]));
      },
    },
    {
      name: "next on another host, forever",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      // The same path on the other host: the client must keep using its own origin.
      handle: (_q, res, ctx) =>
        sendJson(
          res,
          200,
          nodePage(6, `${evilBase}${new URL(ctx.base).pathname}/v1/nodes/?page=${ctx.hits + 1}`, [
            mini(ctx.hits),
          ]),
        ),
    },
    {
      name: "next a number",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: (_q, res) => sendJson(res, 200, nodePage(3, 2, [mini(1)])),
    },
    {
      name: "next javascript:",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "any",
      handle: (_q, res, ctx) =>
        ctx.hits > 1
          ? sendJson(res, 200, nodePage(2, null, [mini(2)]))
          : sendJson(res, 200, nodePage(2, "javascript:alert(1)", [mini(1)])),
    },
    {
      name: "relative next, fresh forever",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "reject",
      handle: (_q, res, ctx) =>
        sendJson(res, 200, nodePage(undefined, `?page=${ctx.hits + 1}`, [mini(ctx.hits)])),
    },
    {
      name: "next of 100 KB",
      group: "endless pages",
      ops: LIST_OPS,
      expect: "any",
      handle: (_q, res, ctx) =>
        sendJson(
          res,
          200,
          nodePage(undefined, `${pageUrl(ctx, ctx.hits + 1)}&pad=${"x".repeat(100_000)}`, [mini(ctx.hits)]),
        ),
    },
    // Huge bodies, streamed lazily.
    {
      name: "1 GB JSON-ish body, no Content-Length",
      group: "huge body",
      ops: ["getNode", "listAllNodes", "requestTestTokens"],
      expect: "reject",
      handle: (_q, res) => streamFiller(res, GIB, '{"id":"ND-1-2-3","name":"', '"}'),
    },
    {
      name: "Content-Length of 1 GB",
      group: "huge body",
      ops: ["getNode", "readNetwork"],
      expect: "reject",
      handle: (_q, res) => streamFiller(res, GIB, '{"name":"', '"}', { "Content-Length": String(GIB + 11) }),
    },
    {
      name: "40 MB body (just over the default cap)",
      group: "huge body",
      ops: ["getNode"],
      expect: "reject",
      handle: (_q, res) => streamFiller(res, 40 * 1024 * 1024, '{"name":"', '"}'),
    },
    // Compression bombs.
    {
      name: "gzip bomb: 1 GB of spaces in 1 MB",
      group: "compression bomb",
      ops: ["getNode", "listAllNodes"],
      expect: "reject",
      handle: (_q, res) =>
        streamChunks(res, gzipHead, gzipMember, 1024, {
          "Content-Type": "application/json",
          "Content-Encoding": "gzip",
        }),
    },
    {
      name: "deflate bomb: 256 MB in one stream",
      group: "compression bomb",
      ops: ["getNode", "readNetwork"],
      expect: "reject",
      handle: (_q, res) => send(res, 200, deflateBomb, { "Content-Encoding": "deflate" }),
    },
    {
      name: "brotli bomb: 64 MB",
      group: "compression bomb",
      ops: ["getNode"],
      expect: "reject",
      handle: (_q, res) => send(res, 200, brotliBomb, { "Content-Encoding": "br" }),
    },
    {
      name: "gzip header, corrupt body",
      group: "compression bomb",
      ops: ["getNode", "requestTestTokens"],
      expect: "reject",
      handle: (_q, res) =>
        send(res, 200, Buffer.concat([gzipMember.subarray(0, 20), Buffer.alloc(200, 0x41)]), {
          "Content-Encoding": "gzip",
        }),
    },
    {
      name: "Content-Encoding gzip on a plain body",
      group: "compression bomb",
      ops: ["getNode"],
      expect: "reject",
      handle: (_q, res, ctx) => send(res, 200, goodBody(ctx), { "Content-Encoding": "gzip" }),
    },
    // Slow and stalled answers.
    {
      name: "body at a byte per 100 ms",
      group: "slow",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => trickle(res, goodBody(ctx), 100),
    },
    { name: "headers never sent", group: "slow", ops: SINGLE_OPS, expect: "reject", handle: () => undefined },
    {
      name: "headers, then the body stalls",
      group: "slow",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.write(goodBody(ctx).slice(0, 10));
      },
    },
    {
      name: "Content-Length 1000, 10 bytes, then close",
      group: "slow",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (req, res, ctx) => {
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "1000" });
        res.write(goodBody(ctx).slice(0, 10), () => req.socket.destroy());
      },
    },
    // Redirects to other hosts.
    ...([301, 302, 303, 307, 308] as const).map((status): Scenario => ({
      name: `${status} redirect to another host`,
      group: "redirect",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (_q, res, ctx) => send(res, status, "", { Location: `${evilBase}/h/x${ctx.path}` }),
    })),
    {
      name: "302 to https on another host",
      group: "redirect",
      ops: ["getNode"],
      expect: "reject",
      handle: (_q, res) => send(res, 302, "", { Location: "https://evil.example.invalid/v1/nodes/" }),
    },
    {
      name: "redirect loop to itself",
      group: "redirect",
      ops: ["getNode", "listAllNodes"],
      expect: "reject",
      handle: (_q, res, ctx) => send(res, 307, "", { Location: `${ctx.base}${ctx.path}` }),
    },
    // Junk Retry-After, on every attempt.
    ...junkRetryAfter.flatMap((value): Scenario[] => [
      {
        name: `429 Retry-After ${JSON.stringify(value)}`,
        group: "junk Retry-After",
        ops: ["getNode", "requestTestTokens"],
        expect: "reject",
        handle: always(429, '{"error":{"code":"throttled","message":"Slow down."}}', "application/json", {
          "Retry-After": value,
        }),
      },
      {
        name: `503 Retry-After ${JSON.stringify(value)}`,
        group: "junk Retry-After",
        ops: ["readNetwork"],
        expect: "reject",
        handle: always(503, '{"error":{"code":"unavailable","message":"Later."}}', "application/json", {
          "Retry-After": value,
        }),
      },
      {
        // Once, then the real answer: the call may succeed, but never wait past its deadline.
        name: `503 Retry-After ${JSON.stringify(value)} once, then the answer`,
        group: "junk Retry-After",
        ops: ["getNode", "updateNetwork"],
        expect: "any",
        handle: (_q, res, ctx) =>
          ctx.hits === 1
            ? send(res, 503, '{"error":{"code":"unavailable","message":"Later."}}', { "Retry-After": value })
            : serviceAnswer(res, ctx),
      },
    ]),
    // Secrets echoed back by a careless server. The API key is always known to the client and must
    // never show. A node's credentials can only be recognised once read: in the realistic
    // sequence the server first answers a read of the node (getNode, or listNodes), then echoes
    // that node's credentials in its errors. The same echoes of a node the client never read are
    // run apart ("never read"): no client can tell an unseen bare password from a word, and the
    // leak scan counts those hits for information only (the key in them still counts).
    {
      name: "500 echoing the Authorization header",
      group: "echoed secrets",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (_q, res, ctx) =>
        sendJson(res, 500, {
          error: {
            code: "server_error",
            message: `Upstream refused request with Authorization: ${ctx.authorization} (key ${ctx.authorization.replace(/^Bearer /, "")})`,
          },
        }),
    },
    ...echoScenarios(),
    // Broken HTTP.
    {
      name: "not HTTP at all",
      group: "broken HTTP",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (req) => raw(req, "garbage\r\n\r\n"),
    },
    {
      name: "status 999",
      group: "broken HTTP",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (req, _res, ctx) =>
        raw(
          req,
          `HTTP/1.1 999 Weird\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(goodBody(ctx))}\r\nConnection: close\r\n\r\n${goodBody(ctx)}`,
        ),
    },
    {
      name: "two different Content-Lengths",
      group: "broken HTTP",
      ops: ["getNode", "requestTestTokens"],
      expect: "reject",
      handle: (req, _res, ctx) =>
        raw(
          req,
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: ${Buffer.byteLength(goodBody(ctx))}\r\nConnection: close\r\n\r\n${goodBody(ctx)}`,
        ),
    },
    {
      name: "headers cut off",
      group: "broken HTTP",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (req) => raw(req, "HTTP/1.1 200 OK\r\nContent-Type: appli"),
    },
    {
      name: "102 Processing, then close",
      group: "broken HTTP",
      ops: SINGLE_OPS,
      expect: "reject",
      handle: (req) => raw(req, "HTTP/1.1 102 Processing\r\n\r\n"),
    },
    // Odd statuses.
    ...([204, 202, 418, 451, 499, 599] as const).map((status): Scenario => ({
      name: `status ${status}`,
      group: "odd status",
      ops: SINGLE_OPS,
      expect: status === 204 || status === 202 ? "any" : "reject",
      handle: (_q, res) =>
        status === 204
          ? (res.writeHead(204), res.end())
          : send(res, status, status === 202 ? "" : '{"message":"odd"}'),
    })),
  ];

  // Cases: one client per scenario and operation, each with its own path prefix.
  const cases: Case[] = [];
  scenarios.forEach((s, si) =>
    s.ops
      .filter((op) => !(options.quick && op === "listNodes"))
      .forEach((op) => cases.push({ id: `${si}-${op}`, scenario: s, op, hits: 0 })),
  );
  const byId = new Map(cases.map((c) => [c.id, c]));

  const sockets = new Set<Socket>();
  let base = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const m = /^\/h\/([^/]+)(\/.*)$/.exec(url.pathname);
    const c = m ? byId.get(m[1]) : undefined;
    if (!m || !c) return send(res, 404, '{"error":{"code":"not_found","message":"unknown case"}}');
    c.hits++;
    const ctx: Ctx = {
      hits: c.hits,
      base: `${base}/h/${c.id}`,
      path: m[2],
      query: url.searchParams,
      method: (req.method ?? "GET").toUpperCase(),
      authorization: String(req.headers.authorization ?? ""),
    };
    req.resume();
    try {
      c.scenario.handle(req, res, ctx);
    } catch {
      req.socket.destroy();
    }
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("clientError", (_e, socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const address = "0x52908400098527886E0F7030069857D2E4169EE7";
  const deadlineOf = (op: Op) =>
    op === "listAllNodes"
      ? LIST_DEADLINE_MS
      : op === "listNodes"
        ? DEFAULT_LIST_DEADLINE_MS
        : CLIENT.deadlineMs;
  const call = (c: Case): (() => Promise<unknown>) => {
    const client = new NodeServiceClient({
      apiUrl: `${base}/h/${c.id}`,
      apiKey: key,
      timeoutMs: CLIENT.timeoutMs,
      deadlineMs: CLIENT.deadlineMs,
      retry: { maxRetries: CLIENT.retries, baseDelayMs: 10, maxDelayMs: 50 },
      maxRequestsPerSecond: 0,
    });
    const operation = callOf(client, c.op);
    const read = c.scenario.readFirst;
    if (!read) return operation;
    return async () => {
      try {
        const nodes =
          read === "getNode" ? [await client.getNode(node.id)] : await collect(client.listNodes());
        const password = node.details.auth_password;
        c.read = nodes.some((n) => n.id === node.id && n.details.authPassword === password)
          ? "ok"
          : `the ${read} answer did not hold the node's credentials`;
      } catch (error) {
        c.read = `${read} failed: ${causeOf(error)}`;
        throw error;
      }
      return operation();
    };
  };
  const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
    const out: T[] = [];
    for await (const item of items) out.push(item);
    return out;
  };
  const callOf = (client: NodeServiceClient, op: Op): (() => Promise<unknown>) => {
    switch (op) {
      case "getNode":
        return () => client.getNode("ND-100-000-001");
      case "readNetwork":
        return () => client.readNetwork("NW-100-000-1");
      case "updateNetwork":
        return () => client.updateNetwork("NW-100-000-1", { name: "renamed" });
      case "deleteNetwork":
        return () => client.deleteNetwork("NW-100-000-2");
      case "requestTestTokens":
        return () => client.requestTestTokens(address);
      case "listAllNodes":
        // The client's type has only `limit`; its listing honours `deadlineMs` too (see api/nodes.ts).
        return () =>
          client.listAllNodes({}, { limit: 5000, deadlineMs: LIST_DEADLINE_MS } as { limit: number });
      case "listNodes":
        return async () => {
          let n = 0;
          for await (const _ of client.listNodes()) n++;
          return n;
        };
    }
  };
  const watchdog = (op: Op) => (op === "listNodes" ? 90_000 : deadlineOf(op) + 15_000);
  const run = async (c: Case): Promise<Outcome> => {
    const r = await settle(call(c), watchdog(c.op));
    const outcome: Outcome = { c, status: r.status, ms: r.ms, deadline: deadlineOf(c.op) };
    if (r.status === "rejected") {
      outcome.error = r.error;
      keep(SECTION, `${c.scenario.name} / ${c.op}`, r.error, c.scenario.unread);
    }
    if (r.status === "resolved") outcome.detail = JSON.stringify(r.value)?.slice(0, 80);
    return outcome;
  };

  // The memory figure: one 1 GB body, alone, RSS sampled every 5 ms.
  const measure = async (c: Case) => {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 50));
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    const outcome = await run(c);
    peak = Math.max(peak, process.memoryUsage.rss());
    clearInterval(timer);
    return { outcome, peakMb: (peak - baseline) / (1024 * 1024) };
  };
  const heavy = cases.filter(
    (c) => c.scenario.group === "huge body" || c.scenario.group === "compression bomb",
  );
  const memory: Array<{ name: string; peakMb: number; outcome: Outcome }> = [];
  for (const c of heavy) {
    const m = await measure(c);
    memory.push({ name: `${c.scenario.name} / ${c.op}`, ...m });
  }
  const light = cases.filter((c) => !heavy.includes(c));
  const outcomes = [...memory.map((m) => m.outcome), ...(await pool(light, 16, run))];

  // Make sure nothing keeps running: close both servers and every connection.
  for (const s of sockets) s.destroy();
  server.close();
  evil.close();
  evil.closeAllConnections();

  // Tally.
  const polluted = ({} as Record<string, unknown>).polluted !== undefined;
  const groups = new Map<
    string,
    { cases: number; typed: number; untyped: number; accepted: number; hangs: number; maxMs: number }
  >();
  let untyped = 0;
  let hangs = 0;
  let accepted = 0;
  // Echo cases whose client could not read the node first (their echoes would not be realistic).
  let notReadFirst = 0;
  const problems: string[] = [];
  for (const o of outcomes) {
    const g = groups.get(o.c.scenario.group) ?? {
      cases: 0,
      typed: 0,
      untyped: 0,
      accepted: 0,
      hangs: 0,
      maxMs: 0,
    };
    groups.set(o.c.scenario.group, g);
    g.cases++;
    g.maxMs = Math.max(g.maxMs, o.ms);
    const where = `${o.c.scenario.name} / ${o.c.op}`;
    if (o.c.scenario.readFirst && o.c.read !== "ok") {
      notReadFirst++;
      problems.push(`no read first: ${where}: ${o.c.read ?? "the read did not settle"}`);
    }
    const late = o.status === "pending" || o.ms > o.deadline + GRACE_MS;
    if (late) {
      g.hangs++;
      hangs++;
      problems.push(
        `hang: ${where}: ${o.status === "pending" ? `still pending after ${seconds(o.ms)}` : `settled after ${seconds(o.ms)}`} (deadline ${seconds(o.deadline)} + ${seconds(GRACE_MS)} grace)${o.error !== undefined ? `, ${scrub(causeOf(o.error))}` : ""}`,
      );
    }
    if (o.status === "rejected") {
      if (o.error instanceof ApiError) g.typed++;
      else {
        g.untyped++;
        untyped++;
        problems.push(
          `untyped: ${where}: ${o.error instanceof Error ? `${o.error.name}: ${scrub(o.error.message.split("\n")[0]).slice(0, 120)}` : typeof o.error}`,
        );
      }
    } else if (o.status === "resolved") {
      if (o.c.scenario.expect === "reject") {
        g.accepted++;
        accepted++;
        problems.push(`accepted: ${where} resolved with ${scrub(o.detail ?? "")}`);
      } else {
        g.typed++;
      }
    }
  }
  const rows = [...groups].map(([name, g]) => [
    name,
    g.cases,
    g.typed,
    g.untyped,
    g.accepted,
    g.hangs,
    seconds(g.maxMs),
  ]);
  rows.push([
    "total",
    outcomes.length,
    [...groups.values()].reduce((n, g) => n + g.typed, 0),
    untyped,
    accepted,
    hangs,
    seconds(Math.max(...outcomes.map((o) => o.ms))),
  ]);
  table(
    `4. Hostile responses (${outcomes.length} cases from ${scenarios.length} scenarios, ${seconds(performance.now() - started)})`,
    ["group", "cases", "typed error or ok", "untyped", "hostile answer taken", "hangs", "slowest"],
    rows,
  );
  say(
    `  client: timeoutMs ${CLIENT.timeoutMs}, deadlineMs ${CLIENT.deadlineMs}, ${CLIENT.retries} retries; listAllNodes deadline ${LIST_DEADLINE_MS} ms; listNodes has no deadline option (documented listing deadline ${DEFAULT_LIST_DEADLINE_MS} ms); hang = settled later than deadline + ${GRACE_MS} ms`,
  );
  table(
    "4b. Peak memory during huge and compressed bodies (RSS above the baseline, sampled every 5 ms)",
    ["body / operation", "peak MB", "outcome", "time"],
    memory.map((m) => [
      m.name,
      m.peakMb.toFixed(1),
      m.outcome.error !== undefined ? scrub(causeOf(m.outcome.error)) : m.outcome.status,
      seconds(m.outcome.ms),
    ]),
  );
  const listNodesRows = outcomes
    .filter((o) => o.c.op === "listNodes")
    .map((o) => [
      o.c.scenario.name,
      o.c.hits,
      o.error !== undefined ? scrub(causeOf(o.error)) : `${o.status} ${o.detail ?? ""}`,
      seconds(o.ms),
    ]);
  table(
    "4c. listNodes (no caller bound) against endless pages",
    ["scenario", "pages fetched", "ended with", "time"],
    listNodesRows,
  );
  say(
    `  requests that reached "another host": ${evilRequests} (with the API key: ${evilSawKey}); prototype polluted: ${polluted ? "YES" : "no"}`,
  );
  sayProblems(problems);

  const gb = memory.find((m) => m.name.startsWith("1 GB JSON-ish body, no Content-Length / getNode"));
  const peak = Math.max(...memory.map((m) => m.peakMb));
  return [
    zeroGoal("4 hostile", `untyped errors (of ${outcomes.length} hostile cases)`, untyped),
    zeroGoal("4 hostile", "hangs past deadline + 1 s", hangs),
    {
      section: "4 hostile",
      figure: "peak RSS for a 1 GB body",
      value: gb ? `${gb.peakMb.toFixed(1)} MB` : "not measured",
      goal: "< 256 MB",
      met: gb !== undefined && gb.peakMb < 256,
    },
    {
      section: "4 hostile",
      figure: "peak RSS, any huge or compressed body",
      value: `${peak.toFixed(1)} MB`,
      goal: "< 256 MB",
      met: peak < 256,
    },
    zeroGoal("4 hostile", "hostile answers taken as success", accepted),
    zeroGoal("4 hostile", "echo cases where the client could not read the node first", notReadFirst),
    {
      section: "4 hostile",
      figure: "requests that reached another host",
      value: String(evilRequests),
      goal: "0",
      met: evilRequests === 0 && !polluted,
    },
  ];
}
