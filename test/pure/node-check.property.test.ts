/**
 * The endpoint check at its edges, over generated endpoints, credentials, rpc paths and answers:
 * credentials go only to the listed endpoint's exact origin; what a node answers reaches a
 * message capped and cleaned; one bound on checks in flight for the whole process.
 */
import fc from "fast-check";
import http from "http";
import https from "https";
import type { AddressInfo } from "net";
import { abortEveryRequest } from "../../src/api/options";
import {
  EndpointCheckError,
  MAX_CHECKS_IN_FLIGHT,
  MAX_QUOTE_CHARS,
  quoteFromNode,
  readChainHead,
} from "../../src/api/node-check";
import type { ChainFamily, NodeAccess } from "../../src/model";
import {
  credentialForms as credentialsOf,
  errorOf as settle,
  holds,
  holdsAsync,
  joined,
  runs,
  serviceKey,
} from "../helpers/arbitraries";

const SEED = 20240901;
const FAMILIES: ChainFamily[] = ["evm", "bitcoin", "near", "starknet", "tezos"];

const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** A server of this test on 127.0.0.1, port 0. */
async function serve(handler: http.RequestListener): Promise<{ url: string; port: number }> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port };
}

describe("credentials go only to the listed endpoint's origin", () => {
  /** Pieces of hostile URLs: protocol-relative paths, backslashes, dot segments, encodings, user-info. */
  const SLASHES_AND_DOTS = ["/", "//", "/\\", "\\", "\\\\", "..", "../", "/./"];
  const ENCODED = ["%2f", "%2F%2F", "%5c", "%2e%2e", "%00"];
  const HOSTS = ["@", ":", ":8080", "other.example", "other.example:8443", "u:p@other.example"];
  const HOSTILE = [...SLASHES_AND_DOTS, ...ENCODED, ...HOSTS, "?", "#", "é", "\u3002", " ", "ext/bc/C/rpc"];
  const piece = joined(
    fc.oneof(
      fc.constantFrom(...HOSTILE),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: "grapheme", maxLength: 3 }),
    ),
    { maxLength: 8 },
  );
  /** Hosts: names, addresses, and characters URL parsers read differently (`;`, `{`, `|`...). */
  const host = fc.oneof(
    { arbitrary: fc.domain(), weight: 4 },
    { arbitrary: fc.ipV4(), weight: 1 },
    { arbitrary: fc.ipV6().map((h) => `[${h}]`), weight: 1 },
    {
      arbitrary: fc.constantFrom("localhost", "127.0.0.1", "node.example", "other.example;node.example"),
      weight: 2,
    },
    {
      arbitrary: fc.string({
        unit: fc.constantFrom(..."abz09.-_~!$&'()*+,;={}|^`é"),
        minLength: 1,
        maxLength: 12,
      }),
      weight: 1,
    },
  );
  const endpoint = fc
    .record({
      scheme: fc.constantFrom("https", "https", "https", "http"),
      userinfo: fc.oneof(
        { arbitrary: fc.constant(""), weight: 4 },
        { arbitrary: piece.map((p) => `${p}@`), weight: 1 },
      ),
      host,
      port: fc.option(
        fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`),
        { nil: "" },
      ),
      path: fc.oneof({ arbitrary: piece.map((p) => `/${p}`), weight: 4 }, { arbitrary: piece, weight: 1 }),
    })
    .map(({ scheme, userinfo, host, port, path }) => `${scheme}://${userinfo}${host}${port}${path}`);
  const credential = fc.option(fc.oneof(piece, fc.string({ minLength: 1 })), { nil: undefined });
  const access = fc.record({ url: endpoint, key: credential, username: credential, password: credential });
  const rpcPath = fc.option(fc.oneof(fc.constant("/ext/bc/C/rpc"), piece), { nil: undefined });
  /** What the node answers, request by request: refusals make the check try its other forms and paths. */
  const answers = fc.array(fc.constantFrom(200, 302, 401, 403, 404, 500), { minLength: 1, maxLength: 8 });

  /** Every request node-fetch opens, by the options it hands to http(s).request, and where it would connect. */
  const opened: { origin: string; path: string; authorization?: string }[] = [];
  let script: number[] = [];
  let trapPort = 0;

  beforeAll(async () => {
    let n = 0;
    ({ port: trapPort } = await serve((req, res) => {
      const status = script[n++ % script.length];
      if (status === 302) res.writeHead(302, { Location: "http://other.example/elsewhere" });
      else res.writeHead(status, { "Content-Type": "application/json" });
      res.end(status === 200 ? JSON.stringify({ jsonrpc: "2.0", id: 1, result: "0x1" }) : "{}");
    }));
    const real = http.request;
    // The one place a connection is made: recorded as asked, then sent to this test's server.
    const trap = ((options: http.RequestOptions & { auth?: string }, callback?: () => void) => {
      opened.push({
        origin: `${options.protocol}//${options.host}`,
        path: String(options.path),
        authorization: (options.headers as Record<string, string>)?.Authorization,
      });
      const local = {
        ...options,
        protocol: "http:",
        host: "127.0.0.1",
        hostname: "127.0.0.1",
        port: trapPort,
      };
      return real(local, callback);
    }) as typeof http.request;
    jest.spyOn(http, "request").mockImplementation(trap);
    jest.spyOn(https, "request").mockImplementation(trap);
  });
  afterAll(() => jest.restoreAllMocks());

  test("every request, with whatever credentials, connects to the exact origin listed, or none is made", async () => {
    let withCredentials = 0;
    let severalRequests = 0;
    await holdsAsync(
      runs(SEED, 1000),
      fc.constantFrom(...FAMILIES),
      access,
      rpcPath,
      answers,
      async (family, node, path, statuses) => {
        script = statuses;
        opened.length = 0;
        const error = await settle(readChainHead(family, node, 5000, path));
        let origin: string | undefined;
        try {
          origin = new URL(node.url).origin;
        } catch {
          expect(error).toBeInstanceOf(EndpointCheckError);
        }
        for (const request of opened) expect(request.origin).toBe(origin);
        if (error !== undefined) expect(error).toBeInstanceOf(EndpointCheckError);
        const carried = opened.filter(
          (r) => r.authorization || (node.key && r.path.includes(encodeURIComponent(node.key))),
        );
        if (carried.length > 0) withCredentials++;
        if (opened.length > 1) severalRequests++;
      },
    );
    // The property held over runs that did send credentials, several requests each.
    expect(withCredentials).toBeGreaterThan(300);
    expect(severalRequests).toBeGreaterThan(300);
  });

  test("an endpoint whose host node-fetch reads differently from the URL standard is refused, nothing sent", async () => {
    opened.length = 0;
    script = [200];
    const error = await settle(
      readChainHead("evm", { url: "https://other.example;node.example/rpc", key: "k3y-0123456789" }, 5000),
    );
    expect(error).toBeInstanceOf(EndpointCheckError);
    expect((error as EndpointCheckError).kind).toBe("unsupported");
    expect(opened).toEqual([]);
  });
});

describe("quoteFromNode: capped, cleaned whole-token", () => {
  /** Secrets of any length, punctuation and spaces included; never `*`, which `***` holds. */
  const secret = fc.string({ unit: fc.constantFrom(..."abcy0:./-_ @%\"'é"), minLength: 1, maxLength: 8 });
  const access = fc.record({ key: secret, username: secret, password: secret }, { requiredKeys: [] });
  const text = (a: NodeAccess) =>
    joined(
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 12 }),
        fc.constantFrom(
          ...credentialsOf(a),
          " ",
          "\n",
          "://",
          "https://node.example/x",
          '"',
          "type",
          "[",
          "…",
        ),
      ),
      { maxLength: 30 },
    );
  const tokens = (t: string) => t.replace(/[\p{C}\s]+/gu, " ").split(/[\s"'`,;()[\]{}<>]+/u);

  test("holds no credential, host or URL, at most MAX_QUOTE_CHARS, each token whole or ***", () => {
    const accessAndText = access.chain((a) =>
      fc.tuple(fc.constant({ url: "https://node.example/rpc", ...a }), text(a)),
    );
    holds(runs(SEED, 1000), accessAndText, ([a, t]) => {
      const out = quoteFromNode(t, a);
      expect(out.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS);
      for (const c of [...credentialsOf(a), "node.example", "://"]) expect(out).not.toContain(c);
      expect(out).not.toMatch(/[\p{Cc}]/u);
      const given = new Set(tokens(t));
      const shown = tokens(out.replace(/…$/, ""));
      if (out.endsWith("…")) shown.pop(); // the last one may be cut
      for (const token of shown) if (token !== "***") expect(given).toContain(token);
    });
  });
});

describe("what a node answers reaches a message capped and cleaned", () => {
  /** An answer's parts: `$…` are filled in by the server from the request it answers. */
  const ECHOES = ["$KEY", "$USER", "$PASS", "$BASIC", "$AUTH", "$PATH", "$URL", "$HOST"];
  const text = joined(
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 16 }),
      fc.constantFrom(...ECHOES, " ", "\n", "\u0000", "\u001b[2J", "://", "type"),
    ),
    { maxLength: 12 },
  );
  const value = fc.oneof(
    text,
    fc.integer(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant("$DEEP"), // 20,000 levels of objects, written as raw JSON by the server
    fc.integer({ min: 1000, max: 300_000 }).map((n) => "9".repeat(n)),
  );
  const body = fc.oneof(
    fc.record({ code: value, message: value }).map((error) => ({ jsonrpc: "2.0", id: 1, error })),
    value.map((result) => ({ jsonrpc: "2.0", id: 1, result })),
    value,
    text.map((t) => ({ raw: t })),
    fc.uint8Array({ maxLength: 3000 }).map((bytes) => ({ bytes })),
  );
  const contentType = fc.option(
    joined(fc.constantFrom("text/html", "application/json", ";", " ", ...ECHOES, "x".repeat(300)), {
      maxLength: 6,
    }),
    { nil: undefined },
  );
  const answer = fc.record({
    status: fc.constantFrom(200, 200, 200, 400, 401, 403, 404, 429, 500, 503, 302),
    contentType,
    body,
  });
  /** Credentials as the service gives them: long enough to be told apart from the messages' own words. */
  const credential = serviceKey(/^[A-Za-z0-9!$%+._~-]{8,32}$/);
  const node = fc.record(
    { key: credential, username: credential, password: credential },
    { requiredKeys: [] },
  );

  test("every message is at most 200 characters, with no credential of its node and no URL", async () => {
    let current: { status: number; contentType?: string; body: unknown } = { status: 200, body: {} };
    let access: NodeAccess = {};
    const { port, url } = await serve((req, res) => {
      const fill = (t: string, json: boolean) =>
        t.replace(/\$[A-Z]+/g, (m) => {
          const value =
            {
              $KEY: access.key,
              $USER: access.username,
              $PASS: access.password,
              $BASIC: credentialsOf(access)[4],
              $AUTH: req.headers.authorization,
              $PATH: req.url,
              $URL: `${url}${req.url}`,
              $HOST: `127.0.0.1:${port}`,
            }[m] ?? m;
          return json ? JSON.stringify(value).slice(1, -1) : value;
        });
      const { status, contentType, body } = current;
      const headers: Record<string, string> = {};
      if (status === 302) headers.Location = fill("$URL/elsewhere", false);
      if (contentType !== undefined) headers["Content-Type"] = fill(contentType, false);
      const b = body as { raw?: string; bytes?: Uint8Array };
      const sent =
        b && typeof b === "object" && "bytes" in b
          ? Buffer.from(b.bytes!)
          : b && typeof b === "object" && "raw" in b
            ? fill(b.raw!, false)
            : fill(JSON.stringify(body), true).replace(
                /"\$DEEP"/g,
                `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`,
              );
      res.writeHead(status, headers).end(sent);
    });
    let failures = 0;
    await holdsAsync(
      runs(SEED, 300),
      fc.constantFrom(...FAMILIES),
      node,
      fc.option(fc.constant("/ext/bc/C/rpc"), { nil: undefined }),
      answer,
      async (family, credentials, rpcPath, given) => {
        current = given;
        access = { url: `${url}/n`, ...credentials };
        const error = await settle(readChainHead(family, access, 5000, rpcPath));
        if (error === undefined) return;
        failures++;
        expect(error).toBeInstanceOf(EndpointCheckError);
        const { message } = error as EndpointCheckError;
        expect(message.length).toBeLessThanOrEqual(200);
        for (const c of credentialsOf(access)) expect(message).not.toContain(c);
        expect(message).not.toMatch(/:\/\/|127\.0\.0\.1|[\p{Cc}]/u);
      },
    );
    expect(failures).toBeGreaterThan(200);
  });

  test("an error nested 10,000 levels deep is an answer, shown by its kind", async () => {
    const { url } = await serve((_req, res) =>
      res.end(`{"error":{"code":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)},"message":"too deep"}}`),
    );
    const error = (await settle(readChainHead("near", { url }, 5000))) as EndpointCheckError;
    expect(error).toBeInstanceOf(EndpointCheckError);
    expect(error.kind).toBe("answer");
    expect(error.message).toMatch(/\{…\}.*too deep/);
  });
});

describe("each form of the credentials, with each path", () => {
  const evm = (body: string) => {
    const { method } = JSON.parse(body) as { method: string };
    const result =
      method === "eth_chainId"
        ? "0xa86a"
        : { number: "0x10", timestamp: `0x${Math.floor(Date.now() / 1000).toString(16)}` };
    return JSON.stringify({ jsonrpc: "2.0", id: 1, result });
  };
  const credentials = { key: "k3y-0123456789", username: "user-42", password: "pa55-word" };
  const basic = `Basic ${Buffer.from("user-42:pa55-word").toString("base64")}`;

  test("a key path unknown to the node, then basic auth at Avalanche's C-Chain path: passes", async () => {
    const seen: string[] = [];
    const { url } = await serve((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization === basic ? "basic" : "-"}`);
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        if (req.url !== "/ext/bc/C/rpc") res.writeHead(404).end("Not Found");
        else if (req.headers.authorization !== basic) res.writeHead(401).end();
        else res.end(evm(body));
      });
    });
    const head = await readChainHead("evm", { url, ...credentials }, 5000, "/ext/bc/C/rpc");
    expect(head.chainId).toBe("43114");
    expect(seen).toContain("/ext/bc/C/rpc basic");
  });

  test.each([
    ["the key alone", { key: credentials.key }, () => 404, "answer", "(HTTP 404)"],
    ["key and basic auth", credentials, () => 404, "answer", "(HTTP 404)"],
    [
      "key refused, basic auth's path unknown",
      credentials,
      (req: http.IncomingMessage) => (req.headers.authorization ? 404 : 401),
      "credentials",
      "(HTTP 401)",
    ],
  ] as const)("%s answered 404: told truthfully", async (_name, access, status, kind, token) => {
    const { url } = await serve((req, res) => res.writeHead(status(req)).end());
    const error = (await settle(
      readChainHead("evm", { url, ...access }, 5000, "/ext/bc/C/rpc"),
    )) as EndpointCheckError;
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(token);
  });
});

describe("one bound for the process", () => {
  /** A NEAR node: one request per check, answered after `delayMs`; counts the checks in flight by their key. */
  async function slowNode(delayMs: (key: string) => number) {
    const stats = { inFlight: 0, most: 0, requests: 0 };
    const { url } = await serve((req, res) => {
      stats.requests++;
      stats.most = Math.max(stats.most, ++stats.inFlight);
      const key = req.url!.slice(1);
      const answer = () => {
        stats.inFlight--; // before the answer leaves: the next check may start at once
        const sync = { latest_block_height: 7, latest_block_time: new Date().toISOString() };
        res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { chain_id: "mainnet", sync_info: sync } }));
      };
      const ms = delayMs(key);
      if (ms >= 0) setTimeout(answer, ms);
    });
    return { url, stats };
  }

  test(`${MAX_CHECKS_IN_FLIGHT} checks in flight at most, across 40 separate calls; all complete`, async () => {
    const { url, stats } = await slowNode(() => 50);
    const heads = await Promise.all(
      Array.from({ length: 40 }, (_, i) => readChainHead("near", { url, key: `check-${i}` }, 10_000)),
    );
    expect(heads.map((h) => h.chainId)).toEqual(Array(40).fill("mainnet"));
    expect(stats.requests).toBe(40);
    expect(stats.most).toBeLessThanOrEqual(MAX_CHECKS_IN_FLIGHT);
    expect(stats.most).toBeGreaterThan(1);
  });

  test("a check's timeout counts from when it starts, not while it waits for a slot", async () => {
    const { url } = await slowNode((key) => (key.startsWith("slow") ? 600 : 0));
    const slow = Array.from({ length: MAX_CHECKS_IN_FLIGHT }, (_, i) =>
      readChainHead("near", { url, key: `slow-${i}` }, 10_000),
    );
    const waiting = readChainHead("near", { url, key: "quick" }, 300);
    await expect(waiting).resolves.toMatchObject({ chainId: "mainnet" });
    await Promise.all(slow);
  });

  // Last: the abort of every request is for good, for this file's module registry.
  test("an abort of every request ends the checks in flight and those waiting, which send nothing", async () => {
    const { url, stats } = await slowNode(() => -1); // never answers
    const opened = jest.spyOn(http, "request"); // node-fetch opens each request with it
    const checks = Array.from({ length: MAX_CHECKS_IN_FLIGHT + 3 }, (_, i) =>
      settle(readChainHead("near", { url, key: `held-${i}` }, 60_000)),
    );
    while (stats.requests < MAX_CHECKS_IN_FLIGHT) await new Promise((r) => setImmediate(r));
    const reason = new Error("the engine stopped");
    abortEveryRequest(reason);
    expect(await Promise.all(checks)).toEqual(Array(MAX_CHECKS_IN_FLIGHT + 3).fill(reason));
    expect(opened).toHaveBeenCalledTimes(MAX_CHECKS_IN_FLIGHT);
    opened.mockRestore();
  });
});
