/** The retry rules one by one on a fake fetch: what is retried after what wait, and why a call stops. */
import { ApiError, NodeServiceClient, NodeServiceClientOptions, RetryWait } from "../../src/api";
import { withSettingHints } from "../../src/settings";
import { FakeAnswer, recordingFetch, rejection, systemError, wireNetwork, wireNode } from "../helpers/client";

const NODE = "ND-123-456-789";
const ADDRESS = "0x52908400098527886e0f7030069857d2e4169ee7";
const FAUCET_OK: FakeAnswer = {
  status: 200,
  text: '{"amountSent": 5, "transaction": "https://x.example/tx/0x1"}',
};
const OK: FakeAnswer = { status: 200, body: wireNode() };
const err = (status: number, headers: Record<string, string> = {}, extra: object = {}): FakeAnswer => ({
  status,
  headers,
  body: { error: { code: `e${status}`, message: "no" }, ...extra },
});
const HANG: FakeAnswer = { hang: true };
const DROPPED: FakeAnswer = { error: systemError("ECONNRESET") };
const REFUSED: FakeAnswer = { error: systemError("ECONNREFUSED") };
const DNS: FakeAnswer = { error: systemError("ENOTFOUND") };

/** A client whose fetch answers `answers` in turn (the last one again once they run out). */
function scripted(answers: FakeAnswer[], options: Partial<NodeServiceClientOptions> = {}) {
  const waits: RetryWait[] = [];
  const { fetch, calls } = recordingFetch((_url, i) => answers[Math.min(i, answers.length - 1)]);
  const client = new NodeServiceClient({
    apiUrl: "https://api.example.com",
    apiKey: "retry-test-key-0123456789",
    fetch,
    maxRequestsPerSecond: 0,
    timeoutMs: 50,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    onWait: (w) => waits.push(w),
    ...options,
  });
  return { client, calls, waits };
}

const failure = async (promise: Promise<unknown>) => (await rejection(promise)) as ApiError;

describe("the rules, in order: the first that matches decides", () => {
  test.each([
    ["429", err(429)],
    ["503 with Retry-After", err(503, { "retry-after": "0" })],
    ["a refused connection", REFUSED],
  ])("a POST the service did not process is retried: %s", async (_what, first) => {
    const { client, calls } = scripted([first, FAUCET_OK]);
    expect((await client.requestTestTokens(ADDRESS)).amountSent).toBe("5");
    expect(calls).toHaveLength(2);
  });

  test.each([
    ...[502, 503, 500].map((status) => [String(status), err(status)] as const),
    ["a timeout", HANG] as const,
    ["a dropped connection", DROPPED] as const,
    ["an unreadable 200", { status: 200, text: '{"amountSent": 5' }] as const,
  ])("any other failed POST is sent once, and may have been processed: %s", async (_what, first) => {
    const { client, calls } = scripted([first, FAUCET_OK]);
    const e = await failure(client.requestTestTokens(ADDRESS));
    expect(e.mayHaveBeenProcessed).toBe(true);
    expect(calls).toHaveLength(1);
  });

  test.each([
    [[err(400)], false, 1],
    [[REFUSED], false, 3],
    [[REFUSED, err(400)], false, 2],
    [[err(429), err(502)], true, 2],
  ])(
    "a POST is not processed only when every attempt was refused or never sent (%#)",
    async (answers, may, n) => {
      const { client, calls } = scripted(answers, { retry: { maxRetries: 2, baseDelayMs: 1 } });
      expect((await failure(client.requestTestTokens(ADDRESS))).mayHaveBeenProcessed).toBe(may);
      expect(calls).toHaveLength(n);
    },
  );

  test.each([
    ...[429, 502, 503, 504].map((status) => [String(status), err(status)] as const),
    ["a timeout", HANG] as const,
    ["a dropped connection", DROPPED] as const,
    ["a refused connection", REFUSED] as const,
  ])("%s is retried for GET, PATCH and DELETE", async (_what, first) => {
    const cases: [(c: NodeServiceClient) => Promise<unknown>, FakeAnswer][] = [
      [(c) => c.getNode(NODE), OK],
      [(c) => c.readNetwork("NW-1-2-3"), { status: 200, body: wireNetwork() }],
      [(c) => c.deleteNetwork("NW-1-2-3"), { status: 204 }],
    ];
    for (const [call, success] of cases) {
      const { client, calls } = scripted([first, success]);
      await call(client);
      expect(calls).toHaveLength(2);
    }
  });

  test.each([
    ...[400, 401, 403, 409, 422, 500, 501].map((status) => [String(status), err(status)] as const),
    ["a DNS failure", DNS] as const,
  ])("anything else is not retried: %s", async (_what, first) => {
    const { client, calls } = scripted([first, OK]);
    const e = await failure(client.getNode(NODE));
    expect(e.attempts).toBe(1);
    expect(e.limit).toBeUndefined();
    expect(calls).toHaveLength(1);
  });
});

describe("the wait before a retry", () => {
  beforeEach(() =>
    jest.useFakeTimers({
      doNotFake: ["nextTick", "setImmediate", "queueMicrotask"],
      now: Date.parse("2024-01-01T00:00:00Z"),
    }),
  );
  afterEach(() => jest.useRealTimers());

  /** Runs `call` to its end with the clock moved on, and returns the waits reported. */
  async function waitsOf(
    answers: FakeAnswer[],
    call: (c: NodeServiceClient) => Promise<unknown> = (c) => c.getNode(NODE),
    options = {},
  ) {
    const s = scripted(answers, options);
    const done = call(s.client).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(120_000);
    await done;
    return s.waits.map((w) => w.delayMs);
  }

  test.each([
    ["delay seconds", "1.5", 1500],
    ["zero, padded", " 0 ", 0],
    ["an HTTP date", () => new Date(Date.now() + 30_000).toUTCString(), 30_000],
    ["a date in the past", "Sun, 31 Dec 2023 23:00:00 GMT", 0],
  ])("the server's Retry-After beats the local backoff: %s", async (_what, header, expected) => {
    const value = typeof header === "function" ? header() : header;
    const [delay] = await waitsOf([err(429, { "retry-after": value }), OK], undefined, {
      retry: { baseDelayMs: 5000 },
    });
    expect(delay).toBe(expected);
  });

  test("the faucet's nextFaucetAvailable is a server wait too", async () => {
    const next = new Date(Date.now() + 10_000).toISOString();
    const [delay] = await waitsOf([err(429, {}, { nextFaucetAvailable: next }), FAUCET_OK], (c) =>
      c.requestTestTokens(ADDRESS),
    );
    expect(delay).toBe(10_000);
  });

  test.each(["soon", "-5", ""])("an unreadable Retry-After (%p) leaves the local backoff", async (value) => {
    const [delay] = await waitsOf([err(503, { "retry-after": value }), OK], undefined, {
      retry: { baseDelayMs: 100 },
    });
    expect(delay).toBeGreaterThanOrEqual(50);
    expect(delay).toBeLessThanOrEqual(100);
  });

  test("the local backoff doubles from baseDelayMs up to maxDelayMs, each drawn from [half, full]", async () => {
    const delays = await waitsOf([err(503)], undefined, {
      retry: { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 300 },
    });
    const full = [100, 200, 300, 300];
    expect(delays).toHaveLength(4);
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(full[i] / 2);
      expect(d).toBeLessThanOrEqual(full[i]);
    });
  });
});

describe("when a call stops, its error says why and names the limit that ran out", () => {
  test("retries ran out: maxRetries, and the settings' hint names where to raise it", async () => {
    const { client, calls } = scripted([err(503)], { retry: { maxRetries: 2, baseDelayMs: 1 } });
    const e = await failure(client.getNode(NODE, { operation: "getNodeOutput" }));
    expect(calls).toHaveLength(3);
    expect(e.limit).toBe("maxRetries");
    expect(e.message.match(/raise maxRetries/gi)).toHaveLength(1);
    const hinted = withSettingHints(e, { apiUrl: "stack config", apiKey: "stack config" }) as Error;
    expect(hinted.message).toContain("blockchain:maxRetries 8");
    expect(hinted.message).toContain("BLOCKCHAIN_MAX_RETRIES=8");
    expect(hinted.message).not.toContain("deadlineMs");
  });

  test("a retry whose wait would pass the call's deadline is not made: deadlineMs", async () => {
    const { client, calls, waits } = scripted([err(503, { "retry-after": "2" }), OK], { deadlineMs: 1000 });
    const e = await failure(client.getNode(NODE));
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(e.limit).toBe("deadlineMs");
    expect(e.message.match(/raise deadlineMs/gi)).toHaveLength(1);
    const hinted = withSettingHints(e, { apiUrl: "stack config", apiKey: "stack config" }) as Error;
    expect(hinted).toBe(e);
    expect(hinted.message).toContain("pulumi config set blockchain:deadlineMs 120000");
    expect(hinted.message).toContain("BLOCKCHAIN_DEADLINE_MS=120000");
  });

  test("the call's deadline cuts an attempt short: deadlineMs; a per-call deadlineMs wins", async () => {
    const { client } = scripted([HANG], { timeoutMs: 10_000, deadlineMs: 10_000 });
    const e = await failure(client.getNode(NODE, { deadlineMs: 300 }));
    expect(e).toMatchObject({ kind: "timeout", code: "deadline_exceeded", limit: "deadlineMs" });
    expect(e.message).toContain("300 ms");
  });

  test("a POST that timed out is not retried: timeoutMs", async () => {
    const e = await failure(scripted([HANG]).client.requestTestTokens(ADDRESS));
    expect(e).toMatchObject({ code: "timeout", limit: "timeoutMs" });
    expect(e.message.match(/raise timeoutMs/gi)).toHaveLength(1);
  });

  test("a wait longer than 60 s is not waited: the call fails at once, saying when", async () => {
    const { client, calls } = scripted([err(429, { "retry-after": "120" }), OK]);
    const e = await failure(client.getNode(NODE));
    expect(calls).toHaveLength(1);
    expect(e.retryAfterMs).toBe(120_000);
    expect(e.message).toMatch(/\b2 min\b.*\d{4}-\d\d-\d\dT/);
    expect(e.message).toContain("60 s");
  });
});

describe("wait lines and errors name the call the program made", () => {
  test("each wait is reported as it starts, named by the caller's operation, or by the method", async () => {
    const { client, waits } = scripted(
      [
        err(429, { "retry-after": "0" }),
        err(503),
        { status: 200, body: { count: 0, next: null, results: [] } },
      ],
      { retry: { baseDelayMs: 1, maxDelayMs: 1 } },
    );
    await client.listAllNodes(undefined, { limit: 10, operation: "getNodesOutput" });
    expect(waits).toMatchObject([
      { operation: "getNodesOutput", status: 429, delayMs: 0, nextAttempt: 2, maxAttempts: 5 },
      { operation: "getNodesOutput", status: 503, nextAttempt: 3, maxAttempts: 5 },
    ]);
    for (const w of waits) expect(w.message).toMatch(new RegExp(`^getNodesOutput: .*\\b${w.status}\\b`));
    const other = scripted([HANG, OK]);
    await other.client.getNode(NODE);
    expect(other.waits).toMatchObject([{ operation: "getNode", resourceId: NODE, nextAttempt: 2 }]);
    expect(other.waits[0].message).toMatch(/^getNode ND-123-456-789: .*\b50 ms\b/);
  });

  test("errors name it too, and a wrong operation is refused before anything is sent", async () => {
    const { client, calls } = scripted([err(409)]);
    const e = await failure(client.deleteNetwork("NW-1-2-3", { operation: "Network main" }));
    expect(e.message).toMatch(/^Network main NW-1-2-3: 409 e409: no/);
    expect(e.operation).toBe("Network main");
    const refused = await failure(client.getNode(NODE, { operation: "" }));
    expect(refused.fields).toHaveProperty("operation");
    expect(calls).toHaveLength(1);
  });

  test("a listener that throws does not fail the call", async () => {
    const onWait = () => {
      throw new Error("log down");
    };
    const { client } = scripted([err(503), OK], { onWait });
    expect((await client.getNode(NODE)).id).toBe(NODE);
  });
});

describe("what a retry's definite answer says of an earlier attempt", () => {
  test("a DELETE whose first attempt lost its connection, then answered 409, fails with the 409, outcome known", async () => {
    const { client, calls } = scripted([DROPPED, err(409)]);
    const e = await failure(client.deleteNetwork("NW-1-2-3"));
    expect(e).toMatchObject({ kind: "conflict", status: 409 });
    expect(e.mayHaveBeenProcessed).toBeUndefined();
    expect(calls.filter((c) => c.init.method === "DELETE")).toHaveLength(2);
  });

  test("a DELETE whose first attempt lost its connection, then answered the service's 404: already gone", async () => {
    const { client } = scripted([
      DROPPED,
      err(404),
      { status: 200, body: { count: 0, next: null, previous: null, results: [] } },
    ]);
    expect(await client.deleteNetwork("NW-1-2-3")).toEqual({ status: "alreadyGone" });
  });

  test("a DELETE whose retry gets a 503 after a lost connection: still of unknown outcome", async () => {
    const { client } = scripted([DROPPED, err(503)], { retry: { maxRetries: 1, baseDelayMs: 1 } });
    const e = await failure(client.deleteNetwork("NW-1-2-3"));
    expect(e).toMatchObject({ kind: "unavailable", mayHaveBeenProcessed: true });
    expect(e.limit).toBeUndefined();
  });

  test("a 404 whose check of the API URL gets no answer is the service's 404, not a wrong URL", async () => {
    const { client, calls } = scripted([err(404), HANG], { retry: { maxRetries: 1, baseDelayMs: 1 } });
    const e = await failure(client.getNode(NODE));
    expect(e).toMatchObject({ kind: "not_found", status: 404, resourceId: NODE });
    expect(calls.length).toBeGreaterThan(1); // the follow-up was tried
  });
});
