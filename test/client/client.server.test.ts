import net from "node:net";
import util from "node:util";
import {
  ApiError,
  ConflictError,
  ForbiddenError,
  NetworkError,
  NodeServiceClient,
  NodeServiceClientOptions,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
} from "../../src/api";
import {
  ScriptedServer,
  failureRecorder,
  startScriptedServer,
  testClient,
  wireNode,
} from "../helpers/client";
import type { RetryWait } from "../../src/api";

const API_KEY = "raw-server-key-Zx81Qp0Lm7Vb3Nc5";
const NODE_ID = "ND-123-456-789";
const NETWORK_ID = "NW-123-456-7";
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";
const FAUCET_OK = {
  status: 200,
  text: '{"amountSent": 500000000000000000, "transaction": "https://x.example/tx/0x1"}',
};

let server: ScriptedServer;
const errors: unknown[] = [];

beforeAll(async () => {
  server = await startScriptedServer();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.fallback = { status: 500, body: errorBody("no_script", "no script left") };
});

function client(options: Partial<NodeServiceClientOptions> = {}): NodeServiceClient {
  return testClient(server.url, API_KEY, options);
}

/** Awaits a rejection, keeps the error for the key audit, and returns it. */
const fails = failureRecorder(errors);

function errorBody(code: string, message: string, extra: object = {}) {
  return { error: { code, message, ...extra } };
}

describe("each error status is mapped", () => {
  it("400 with fields → ValidationError with fields", async () => {
    server.script({
      status: 400,
      body: errorBody("validation_error", "Invalid input.", {
        fields: { name: ["This field may not be blank."] },
      }),
    });
    const e = await fails(client().updateNetwork(NETWORK_ID, { name: "x" }));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toMatchObject({
      kind: "validation",
      status: 400,
      code: "validation_error",
      operation: "updateNetwork",
    });
    expect(e.resourceId).toBe(NETWORK_ID);
    expect(e.fields).toEqual({ name: ["This field may not be blank."] });
    expect(e.message).toBe(
      `updateNetwork ${NETWORK_ID}: 400 validation_error: Invalid input.\n  name: This field may not be blank.`,
    );
    expect(server.hits).toHaveLength(1);
  });

  it("401 → UnauthorizedError with a hint; a key echoed by the server is redacted", async () => {
    server.script({ status: 401, body: errorBody("not_authenticated", `Invalid token ${API_KEY}.`) });
    const e = await fails(client().getNode(NODE_ID));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e.message).toMatch(/^getNode ND-123-456-789: 401 not_authenticated: Invalid token \[REDACTED\]\./);
    expect(e.message).toMatch(/\nThe API key is missing, wrong or revoked\./);
    expect(server.hits[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("403 → ForbiddenError", async () => {
    server.script({ status: 403, body: errorBody("permission_denied", "No.") });
    const e = await fails(client().deleteNetwork(NETWORK_ID));
    expect(e).toBeInstanceOf(ForbiddenError);
    expect(e.status).toBe(403);
  });

  it("404 → NotFoundError (getNode), once the same base answers a node listing", async () => {
    server.script(
      { status: 404, body: errorBody("not_found", "Not found.") },
      { status: 200, body: { count: 0, next: null, previous: null, results: [] } },
    );
    const e = await fails(client().getNode(NODE_ID));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.code).toBe("not_found");
  });

  it("404 on delete → alreadyGone, once the same base answers a node listing", async () => {
    server.script(
      { status: 404, body: errorBody("not_found", "Not found.") },
      { status: 200, body: { count: 0, next: null, previous: null, results: [] } },
    );
    expect(await client().deleteNetwork(NETWORK_ID)).toEqual({ status: "alreadyGone" });
  });

  it("409 → ConflictError", async () => {
    server.script({ status: 409, body: errorBody("conflict", "Delete all nodes of the network first.") });
    const e = await fails(client().deleteNetwork(NETWORK_ID));
    expect(e).toBeInstanceOf(ConflictError);
    expect(e.message).toMatch(/409 conflict: Delete all nodes of the network first\./);
  });

  it("429 with Retry-After is retried after the server's wait", async () => {
    server.script(
      { status: 429, body: errorBody("throttled", "Slow down."), headers: { "retry-after": "0" } },
      { status: 200, body: wireNode() },
    );
    expect((await client().getNode(NODE_ID)).id).toBe(NODE_ID);
    expect(server.hits).toHaveLength(2);
  });

  it("each wait before a retry is reported once, as it starts, with the reason and the attempt", async () => {
    const events: RetryWait[] = [];
    server.script(
      { status: 429, body: errorBody("throttled", "Slow down."), headers: { "retry-after": "1" } },
      { status: 503, body: errorBody("unavailable", "Try later.") },
      { status: 200, body: wireNode() },
    );
    const c = client({
      onWait: (e) => events.push(e),
      retry: { baseDelayMs: 1, maxDelayMs: 2, jitter: false },
    });
    expect((await c.getNode(NODE_ID)).id).toBe(NODE_ID);
    expect(events.map((e) => e.message)).toEqual([
      `getNode ${NODE_ID}: the service answered 429; waiting 1 s before attempt 2 of 5`,
      `getNode ${NODE_ID}: the service answered 503; waiting 2 ms before attempt 3 of 5`,
    ]);
    expect(events[0]).toMatchObject({ status: 429, delayMs: 1000, nextAttempt: 2, maxAttempts: 5 });
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it("429 without Retry-After is retried with backoff, then fails with attempts", async () => {
    const throttled = { status: 429, body: errorBody("throttled", "Slow down.") };
    server.script(throttled, throttled, throttled);
    const e = await fails(client({ retry: { maxRetries: 2, baseDelayMs: 1 } }).getNode(NODE_ID));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.attempts).toBe(3);
    expect(e.message).toMatch(/Gave up after 3 attempts/);
    expect(server.hits).toHaveLength(3);
  });

  it("429 with a Retry-After beyond the cap gives up at once, saying when", async () => {
    server.script({
      status: 429,
      body: errorBody("throttled", "Slow down."),
      headers: { "retry-after": "120" },
    });
    const e = await fails(client().getNode(NODE_ID));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.retryAfterMs).toBe(120_000);
    expect(e.message).toMatch(/wait 2 min \(until \d{4}-\d\d-\d\dT/);
    expect(e.message).toMatch(/longer than maxRetryAfterMs/);
    expect(server.hits).toHaveLength(1);
  });

  it("500 → UnavailableError, not retried", async () => {
    server.script({ status: 500, body: errorBody("server_error", "Boom.") });
    const e = await fails(client().getNode(NODE_ID));
    expect(e).toBeInstanceOf(UnavailableError);
    expect(e.attempts).toBe(1);
    expect(server.hits).toHaveLength(1);
  });

  it.each([502, 503, 504])("%i is retried, then succeeds", async (status) => {
    server.script(
      { status, body: errorBody("unavailable", "Try later.") },
      { status: 200, body: wireNode() },
    );
    expect((await client().getNode(NODE_ID)).id).toBe(NODE_ID);
    expect(server.hits).toHaveLength(2);
  });

  it.each([502, 503, 504])("%i on every attempt → UnavailableError after all retries", async (status) => {
    server.fallback = { status, body: errorBody("unavailable", "Try later.") };
    server.script();
    const e = await fails(client({ retry: { maxRetries: 3, baseDelayMs: 1 } }).readNetwork(NETWORK_ID));
    expect(e).toBeInstanceOf(UnavailableError);
    expect(e.status).toBe(status);
    expect(e.attempts).toBe(4);
    expect(server.hits).toHaveLength(4);
  });
});

describe("unexpected bodies", () => {
  it("an HTML page from a proxy: says what came back, redacted", async () => {
    const html = `<html><body><h1>502 Bad Gateway</h1><p>upstream said Authorization: Bearer ${API_KEY}</p></body></html>`;
    server.script({ status: 502, text: html, headers: { "content-type": "text/html" } });
    const e = await fails(client({ retry: false }).getNode(NODE_ID));
    expect(e).toBeInstanceOf(UnavailableError);
    expect(e.code).toBe("non_json_body");
    expect(e.message).toMatch(
      /502 non_json_body: .*a non-JSON body \(text\/html, \d+ characters\): "<html><body><h1>502 Bad Gateway/,
    );
    expect(e.message).not.toContain(API_KEY);
  });

  it("truncated JSON on success → invalid_response, not retried", async () => {
    server.script({
      status: 200,
      text: '{"id": "ND-123-456-789", "name": "tru',
      headers: { "content-type": "application/json" },
    });
    const e = await fails(client().getNode(NODE_ID));
    expect(e.kind).toBe("invalid_response");
    expect(e.message).toMatch(
      /invalid or truncated JSON \(application\/json, \d+ characters\): "\{\\"id\\": \\"ND-123-456-789\\", \\"name\\": \\"tru"/,
    );
    expect(server.hits).toHaveLength(1);
  });

  it("truncated JSON on an error status keeps the status kind", async () => {
    server.script({
      status: 409,
      text: '{"error": {"code": "confl',
      headers: { "content-type": "application/json" },
    });
    const e = await fails(client().deleteNetwork(NETWORK_ID));
    expect(e).toBeInstanceOf(ConflictError);
    expect(e.message).toMatch(/invalid or truncated JSON/);
  });

  it("a 404 that is not the service's error object is not a NotFoundError: the API URL looks wrong", async () => {
    server.script({
      status: 404,
      text: '{"error": {"code": "not_fo',
      headers: { "content-type": "application/json" },
    });
    const e = await fails(client().getNode(NODE_ID));
    expect(e).not.toBeInstanceOf(NotFoundError);
    expect(e.kind).toBe("invalid_response");
    expect(e.code).toBe("unexpected_not_found");
    expect(e.message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/nodes\/ND-123-456-789\/ answered 404/);
    expect(e.message).toMatch(/The API URL \(.*\) looks wrong/);
  });
});

describe("timeouts and connections", () => {
  it("a server that never answers → TimeoutError after the per-attempt timeout", async () => {
    server.script({ hang: true });
    const t0 = Date.now();
    const e = await fails(client({ timeoutMs: 100, retry: false }).getNode(NODE_ID));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.code).toBe("timeout");
    expect(e.message).toMatch(/no answer within the per-attempt timeout of 100 ms/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(95);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it("a timed-out GET is retried", async () => {
    server.script({ hang: true }, { status: 200, body: wireNode() });
    expect((await client({ timeoutMs: 100 }).getNode(NODE_ID)).id).toBe(NODE_ID);
    expect(server.hits).toHaveLength(2);
  });

  it("the overall deadline bounds all attempts", async () => {
    server.fallback = { hang: true };
    server.script();
    const t0 = Date.now();
    const e = await fails(
      client({ timeoutMs: 100, deadlineMs: 250, retry: { maxRetries: 10, baseDelayMs: 1 } }).getNode(NODE_ID),
    );
    const took = Date.now() - t0;
    expect(e).toBeInstanceOf(TimeoutError);
    expect(took).toBeLessThan(1500);
    expect(e.message).toMatch(/deadline of 250 ms/);
    expect(server.hits.length).toBeLessThanOrEqual(3);
  });

  it("a dropped connection on GET is retried", async () => {
    server.script({ drop: true }, { status: 200, body: wireNode() });
    expect((await client().getNode(NODE_ID)).id).toBe(NODE_ID);
    expect(server.hits).toHaveLength(2);
  });

  it("a refused connection → NetworkError after retries", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const c = new NodeServiceClient({
      apiUrl: `http://127.0.0.1:${port}`,
      apiKey: API_KEY,
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const e = await fails(c.getNode(NODE_ID));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.code).toBe("ECONNREFUSED");
    expect(e.attempts).toBe(2);
  });
});

describe("the faucet POST is not idempotent", () => {
  it("not retried after a timeout: may have been processed", async () => {
    server.fallback = { hang: true };
    server.script();
    const e = await fails(client({ timeoutMs: 100 }).requestTestTokens(ADDRESS));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.mayHaveBeenProcessed).toBe(true);
    expect(e.message).toMatch(/may have been processed/);
    expect(e.message).toMatch(/not repeated automatically/i);
    expect(server.hits).toHaveLength(1);
  });

  it("not retried after a dropped connection", async () => {
    server.fallback = { drop: true };
    server.script();
    const e = await fails(client().requestTestTokens(ADDRESS));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.mayHaveBeenProcessed).toBe(true);
    expect(server.hits).toHaveLength(1);
  });

  it("retried after 429", async () => {
    server.script({ status: 429, body: errorBody("throttled", "Slow down.") }, FAUCET_OK);
    expect(await client().requestTestTokens(ADDRESS)).toEqual({
      amountSent: "500000000000000000",
      transaction: "https://x.example/tx/0x1",
    });
    expect(server.hits).toHaveLength(2);
    expect(JSON.parse(server.hits[1].body)).toEqual({ address: ADDRESS });
  });

  it("retried after 503 with Retry-After", async () => {
    server.script(
      { status: 503, body: errorBody("unavailable", "Later."), headers: { "retry-after": "0" } },
      FAUCET_OK,
    );
    expect((await client().requestTestTokens(ADDRESS)).amountSent).toBe("500000000000000000");
    expect(server.hits).toHaveLength(2);
  });

  it("not retried after 503 without Retry-After, nor after 502: both may have been processed", async () => {
    server.script({ status: 503, body: errorBody("unavailable", "Later.") }, FAUCET_OK);
    const e = await fails(client().requestTestTokens(ADDRESS));
    expect(e).toBeInstanceOf(UnavailableError);
    expect(e.mayHaveBeenProcessed).toBe(true);
    expect(server.hits).toHaveLength(1);
    server.script({ status: 502, text: "bad gateway", headers: { "content-type": "text/plain" } }, FAUCET_OK);
    const e2 = await fails(client().requestTestTokens(ADDRESS));
    expect(e2.mayHaveBeenProcessed).toBe(true);
    expect(server.hits).toHaveLength(1);
  });

  it("429 with a distant nextFaucetAvailable fails at once, saying when", async () => {
    const next = new Date(Date.now() + 24 * 3600_000).toISOString();
    server.script({
      status: 429,
      body: { ...errorBody("faucet_limit", "Try again tomorrow."), nextFaucetAvailable: next },
    });
    const e = await fails(client().requestTestTokens(ADDRESS));
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.nextFaucetAvailable).toBe(next);
    expect(e.message).toContain(`The faucet can be used again at ${next}`);
    expect(server.hits).toHaveLength(1);
  });

  it("the faucet amount beyond 2^53 stays exact over HTTP", async () => {
    server.script({ status: 200, text: '{"amountSent":123456789012345678901,"transaction":"t"}' });
    expect((await client().requestTestTokens(ADDRESS)).amountSent).toBe("123456789012345678901");
  });
});

describe("the API key never leaks", () => {
  it("is absent from every error's message, stack, JSON and inspection", () => {
    if (process.env.SHOW_API_ERRORS) for (const e of errors) console.log(util.inspect(e));
    expect(errors.length).toBeGreaterThan(20);
    for (const error of errors) {
      const e = error as ApiError;
      for (const text of [
        e.message,
        e.stack ?? "",
        JSON.stringify(e),
        util.inspect(e, { depth: 10, showHidden: true }),
        String(e),
      ]) {
        expect(text).not.toContain(API_KEY);
      }
      expect(JSON.parse(JSON.stringify(e)).message).toBe(e.message);
    }
  });
});
