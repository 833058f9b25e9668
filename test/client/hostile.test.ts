/** The client against hostile servers: proxies' 404s, unreadable faucet answers, endless listings, huge bodies. */
import zlib from "node:zlib";
import { ApiError, NodeServiceClient, NotFoundError } from "../../src/api";
import { MAX_REDACTED_CHARS } from "../../src/api/redact";
import { readNetwork as providerRead, deleteNetwork as providerDelete } from "../../src/provider/network";
import {
  ScriptedServer,
  collect,
  rejection,
  renderings,
  startScriptedServer,
  testClient,
  wireNode,
  withScriptedServer,
} from "../helpers/client";
import { withEmulator } from "../helpers/emulator";

const API_KEY = "hostile-test-key-Qw81Lm0Zx7Vb3Nc5";
const NETWORK_ID = "NW-100-000-2";
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";
const [HTML, PLAIN] = [{ "content-type": "text/html" }, { "content-type": "text/plain" }];
const JSON_TYPE = { "content-type": "application/json" };

const { server, client, fails } = withScriptedServer(API_KEY);

/** The Network provider (both hosts') neither reads nor deletes: unexpected_not_found, never gone. */
async function providerRefuses(apiUrl: string, apiKey: string): Promise<void> {
  const props = { networkId: NETWORK_ID, apiUrl, apiKey, forceDestroy: true } as never;
  for (const [method, call] of [
    ["PATCH", providerRead],
    ["DELETE", providerDelete],
  ] as const) {
    const { message } = await rejection(call(NETWORK_ID, props));
    expect(message).toMatch(/\bunexpected_not_found\b/);
    for (const token of [method, "404", new URL(apiUrl).host]) expect(message).toContain(token);
  }
}

describe("only the service's own 404 means gone", () => {
  const emulator = withEmulator({ quiet: true });
  const key = () => emulator().apiKey;

  it.each(["/api", "/v2", "/v1/v1"])(
    "a wrong base path (%s) is an error that names the path, never gone; the Network provider neither drops nor forgets the network",
    async (suffix) => {
      const c = testClient(`${emulator().url}${suffix}`, key());
      for (const call of [() => c.readNetwork(NETWORK_ID), () => c.deleteNetwork(NETWORK_ID)]) {
        const e = await fails(call());
        expect(e).not.toBeInstanceOf(NotFoundError);
        expect(e.kind).toBe("invalid_response");
        expect(e.code).toBe("unexpected_not_found");
        expect(e.message).toContain(`/v1/networks/${NETWORK_ID}/`);
      }
      await providerRefuses(`${emulator().url}${suffix}`, key());
      expect((await testClient(emulator().url, key()).readNetwork(NETWORK_ID)).id).toBe(NETWORK_ID);
    },
  );

  it.each([
    ["an HTML page", { status: 404, text: "<html><body>Not Found</body></html>", headers: HTML }],
    ["a Go mux's text", { status: 404, text: "404 page not found", headers: PLAIN }],
    ["an API gateway's JSON", { status: 404, body: { message: "Not Found" } }],
    ["a web framework's JSON", { status: 404, body: { detail: "Not found." } }],
    ["an error object without a message", { status: 404, body: { error: { code: "not_found" } } }],
    ["an empty body", { status: 404, text: "" }],
    ["truncated JSON", { status: 404, text: '{"error": {"code": "not_fo', headers: JSON_TYPE }],
  ])(
    "a 404 with %s is never gone: read and delete fail naming the API URL, in both hosts' provider",
    async (_what, answer) => {
      // The node list answers (the fallback): only the body of the 404 can tell.
      server.fallback = { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
      server.script(answer, answer, answer, answer);
      const e = await fails(client().deleteNetwork(NETWORK_ID));
      expect(e.kind).toBe("invalid_response");
      expect(e.code).toBe("unexpected_not_found");
      for (const token of [`DELETE ${server.url}/v1/networks/${NETWORK_ID}/`, "404"])
        expect(e.message).toContain(token);
      const r = await fails(client().readNetwork(NETWORK_ID));
      expect(r.code).toBe("unexpected_not_found");
      await providerRefuses(server.url, API_KEY);
      expect(server.hits.map((h) => h.method)).toEqual(["DELETE", "PATCH", "PATCH", "DELETE"]);
    },
  );

  it("the service's 404 on a base that cannot list nodes is not taken as gone", async () => {
    server.script(
      { status: 404, body: { error: { code: "not_found", message: "Not found." } } },
      { status: 404, body: { error: { code: "not_found", message: "Not found." } } },
    );
    const e = await fails(client().deleteNetwork(NETWORK_ID));
    expect(e.code).toBe("unexpected_not_found");
    expect(server.hits.map((h) => `${h.method} ${h.url}`)).toEqual([
      `DELETE /v1/networks/${NETWORK_ID}/`,
      "GET /v1/nodes/",
    ]);
  });
});

describe("a faucet answer that cannot be read may have been processed", () => {
  const nextFaucetAvailable = new Date(Date.now() + 86_400_000).toISOString();
  const limit = { error: { code: "limit", message: "Daily limit." }, nextFaucetAvailable };
  const cases: [string, boolean, Parameters<ScriptedServer["script"]>[0]][] = [
    ["a 200 HTML page", true, { status: 200, text: "<html>ok</html>", headers: HTML }],
    [
      "a 200 whose amountSent is not an integer",
      true,
      { status: 200, text: '{"amountSent": 1.5, "transaction": "https://x/tx/0x1"}' },
    ],
    ["a 200 without transaction", true, { status: 200, text: '{"amountSent": 5}' }],
    ["a 504 gateway page", true, { status: 504, text: "<html>Gateway Timeout</html>", headers: HTML }],
    ["a 502 gateway page", true, { status: 502, text: "Bad Gateway", headers: PLAIN }],
    ["a 429 with the service's error body, a clear refusal", false, { status: 429, body: limit }],
  ];
  it.each(cases)("%s: mayHaveBeenProcessed %s, sent once", async (_what, processed, answer) => {
    server.script(answer);
    const e = await fails(client().requestTestTokens(ADDRESS));
    expect(e.mayHaveBeenProcessed).toBe(processed);
    expect(server.hits.filter((h) => h.method === "POST")).toHaveLength(1);
  });

  it("a refused connection sent nothing: retried, and not 'may have been processed' when it stays refused", async () => {
    const closed = await startScriptedServer();
    await closed.close();
    const e = await fails(testClient(closed.url, API_KEY).requestTestTokens(ADDRESS));
    expect(e).toMatchObject({ kind: "network", code: "ECONNREFUSED", mayHaveBeenProcessed: false });
    expect(e.attempts).toBeGreaterThan(1);
  });
});

describe("listings always end", () => {
  const node = (i: number) => wireNode({ id: `ND-100-000-${i}` });
  /** Every request answered, after `delayMs`, with page n (counted from 1) of a listing that never ends. */
  const endless = (page: (n: number) => object, delayMs = 0) => {
    let n = 0;
    server.always((_req, res) => {
      const body = JSON.stringify({ next: `/v1/nodes/?page=${++n + 1}`, previous: null, ...page(n) });
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(body), delayMs);
    });
  };

  it("empty pages each with a fresh next: a typed error after two requests", async () => {
    endless(() => ({ count: 0, results: [] }));
    const e = await fails(collect(client().listNodes()));
    expect(e.code).toBe("pagination_stalled");
    expect(server.hits.length).toBeLessThanOrEqual(2);
  });

  it("full pages forever: stopped by what the first page's count promised", async () => {
    endless((n) => ({ count: 4, results: [node(2 * n), node(2 * n + 1)] }));
    const e = await fails(collect(client().listNodes()));
    expect(e.code).toBe("pagination_overrun");
    expect(e.message).toMatch(/count \(4\) promised 2 pages/);
    expect(server.hits.length).toBeLessThanOrEqual(2 + 5);
  });

  it("a listing past its call's deadline is a timeout error", async () => {
    endless((n) => ({ results: [node(n)] }), 40);
    const e = await fails(client().listAllNodes(undefined, { limit: 1_000_000, deadlineMs: 300 }));
    expect(e).toMatchObject({ kind: "timeout", code: "deadline_exceeded", limit: "deadlineMs" });
  });
});

describe("response bodies are capped", () => {
  it("a body above the 32 MiB cap is refused as soon as it passes it", async () => {
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let written = 0;
    let closed = false;
    server.script((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const pump = () => {
        while (!closed && written < 200 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (closed = true));
      pump();
    });
    const e = await fails(client().getNode("ND-123-456-789"));
    expect(e.kind).toBe("invalid_response");
    expect(e.code).toBe("response_too_large");
    // The connection was closed long before the 200 MB on offer were written.
    await server.settled(50);
    expect(written).toBeLessThan(100 * 1024 * 1024);
  });

  it("a Content-Length above the cap is refused without reading", async () => {
    server.script((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(500 * 1024 * 1024) });
      res.write("{");
    });
    const e = await fails(client().getNode("ND-123-456-789"));
    expect(e.code).toBe("response_too_large");
    expect(e.message).toMatch(/declares 524288000 bytes/);
  });

  it("a small gzip body that inflates past the cap is stopped while inflating", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, " "));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    server.script((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(bomb);
    });
    const e = await fails(client().getNode("ND-123-456-789"));
    expect(e.code).toBe("response_too_large");
  });
});

it("deadlines hold end to end: 40 concurrent calls queued by the rate limiter settle by their deadline", async () => {
  server.always({ status: 200, body: wireNode() });
  const c = testClient(server.url, API_KEY, { maxRequestsPerSecond: 10, deadlineMs: 500 });
  const settled = await Promise.allSettled(Array.from({ length: 40 }, () => c.getNode("ND-123-456-789")));
  const rejected = settled.filter((s) => s.status === "rejected") as PromiseRejectedResult[];
  expect(rejected.length).toBeGreaterThan(20);
  for (const r of rejected)
    expect([r.reason instanceof ApiError, r.reason.code]).toEqual([true, "deadline_exceeded"]);
});

describe("careless inputs, and the key given as input, are typed errors sent nowhere", () => {
  const cases: [string, (c: NodeServiceClient) => Promise<unknown>][] = [
    ["the key as a node id", (c) => c.getNode(API_KEY)],
    ["the key as a network id", (c) => c.readNetwork(API_KEY)],
    ["the key as a network id to delete", (c) => c.deleteNetwork(API_KEY)],
    ["the key as an address", (c) => c.requestTestTokens(API_KEY)],
    ["the key as a filter value", (c) => collect(c.listNodes({ protocol: API_KEY } as never))],
    ["the key in a network name", (c) => c.updateNetwork("NW-123-456-7", { name: `x${API_KEY}`.repeat(20) })],
    ["BigInt filters", (c) => collect(c.listNodes(10n as never))],
    ["a BigInt update value", (c) => c.updateNetwork("NW-123-456-7", { foo: 10n } as never)],
    ["an update that is a number", (c) => c.updateNetwork("NW-123-456-7", 5 as never)],
    ["an update that is an array", (c) => c.updateNetwork("NW-123-456-7", [] as never)],
    [
      "an update of __proto__",
      (c) => c.updateNetwork("NW-123-456-7", JSON.parse('{"__proto__": {"name": "x"}}')),
    ],
  ];
  it.each(cases)("%s: refused before sending, never shown (audited after all)", async (_what, call) => {
    server.script();
    const e = await fails((async () => call(client()))());
    expect(e).toMatchObject({ kind: "invalid_input", attempts: 0 });
    expect(server.hits).toHaveLength(0);
  });

  it("a huge Retry-After is a typed rate-limited error", async () => {
    const headers = { "retry-after": "99999999999999999999" };
    server.script({ status: 429, body: { error: { code: "limit", message: "Slow." } }, headers });
    const e = await fails(client().getNode("ND-123-456-789"));
    expect(e.kind).toBe("rate_limited");
  });
});

describe("server text is capped and escaped in messages, kept longer on serverMessage", () => {
  /** The error of an update the server refuses with 400 and `error`. */
  const refusedWith = (error: object) => {
    server.script({ status: 400, body: { error } });
    return fails(client().updateNetwork("NW-123-456-7", { name: "n" }));
  };

  it("a 1 MB error message becomes a short message; serverMessage keeps its first 16,384 characters", async () => {
    const long = "x".repeat(1024 * 1024);
    const e = await refusedWith({ code: "validation_error", message: long });
    expect(e.message.length).toBeLessThan(4_000);
    expect(e.serverMessage).toBe(`${long.slice(0, MAX_REDACTED_CHARS)}…`);
    expect(JSON.stringify(e).length).toBeLessThan(8_000);
  });

  it("escape and carriage-return sequences cannot reach a terminal or a log", async () => {
    const hostile = "ok\u001b[2J\u001b]0;pwned\u0007\rFAKE LOG LINE\nsecond\u009b";
    const e = await refusedWith({ code: "bad\u001b[31m", message: hostile, fields: { "na\rme": [hostile] } });
    // eslint-disable-next-line no-control-regex
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    expect(e.message).not.toMatch(controls);
    expect(e.code).not.toMatch(controls);
    for (const [field, messages] of Object.entries(e.fields ?? {})) {
      expect(field).not.toMatch(controls);
      for (const m of messages) expect(m).not.toMatch(controls);
    }
    expect(e.message).toContain("FAKE LOG LINE");
  });

  it("fields that are objects are shown as JSON, never [object Object]", async () => {
    const fields = { name: [{ code: "blank" }], project: { x: 1 } };
    const e = await refusedWith({ code: "validation_error", message: "Invalid.", fields });
    expect(e.message).not.toContain("[object Object]");
    expect(e.fields?.name).toEqual(['{"code":"blank"}']);
  });

  it("a key in a long server message is redacted before the message is cut", async () => {
    for (const at of [990, 995, 999, 1000, 1003]) {
      const message = `${"m".repeat(at)}${API_KEY}${"n".repeat(50)}`;
      const e = await refusedWith({ code: "validation_error", message });
      expect(e.message).not.toContain(API_KEY.slice(0, 6));
      expect(e.serverMessage).not.toContain(API_KEY);
    }
  });
});

it("credentials the client has read are never echoed by a later error: a server that quotes a node's password, user name and endpoint in an error", async () => {
  const node = wireNode();
  const d = node.details as Record<string, string>;
  const quoted = `use ${d.wss_endpoint} with ${d.auth_password}`;
  const fields = { user: [`${d.auth_username}:${d.auth_password}@host`] };
  const html = `<html>Invalid for user ${d.auth_username}, try ${d.https_endpoint}</html>`;
  server.script(
    { status: 200, body: node },
    { status: 400, body: { error: { code: "validation_error", message: quoted, fields } } },
    { status: 401, text: html, headers: HTML },
  );
  const c = client();
  await c.getNode("ND-123-456-789");
  const e1 = await fails(c.updateNetwork("NW-123-456-7", { name: "n" }));
  const e2 = await fails(c.getNode("ND-123-456-789"));
  for (const e of [e1, e2]) {
    const text = [...renderings(e), e.serverMessage ?? ""].join("\n");
    for (const secret of [d.auth_password, d.auth_username, d.wss_endpoint, d.https_endpoint])
      expect(text).not.toContain(secret);
  }
});
