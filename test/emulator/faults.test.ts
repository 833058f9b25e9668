import { startEmulator } from "../../src/emulator";
import type { FaultOptions, RunningEmulator } from "../../src/emulator";
import { call, drip, usingEmulator, withEmulator } from "../helpers/emulator";

const FAUCET = "/v1/faucet/goerli";
/** The request record as `status fault, ...`. */
const record = (e: RunningEmulator) =>
  Array.from(e.requests(), (r) => [r.status, r.fault].filter(Boolean).join(" ")).join(", ");
/** The fault of each recorded request (of `method` only, when given). */
const faultsOf = (e: RunningEmulator, method?: string) =>
  e.requests().flatMap((r) => (method && r.method !== method ? [] : [r.fault]));

describe("one-shot and random faults", () => {
  const emulator = withEmulator({ seed: 13, faucetDailyLimit: 1000 }, { each: true });
  const nodes = (key?: string | null) => call(emulator(), "/v1/nodes/", { key });
  const network = () => `/v1/networks/${emulator().fixtures.emptyNetwork}/`;
  const rename = (name: string) => call(emulator(), network(), { method: "PATCH", body: { name } });
  const sent = () => emulator().faucetSendCount(emulator().fixtures.faucetAddress);
  const networkName = () => emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)?.name;

  test("a 429 with Retry-After once (before authentication), then normal service; an HTTP date is sent verbatim, no retryAfter no header", async () => {
    const date = "Wed, 21 Oct 2015 07:28:00 GMT";
    emulator().enqueueFaults([
      { status: 429, retryAfter: "2" },
      { status: 503, retryAfter: date },
      { status: 503 },
    ]);
    const a = await nodes(null);
    expect([a.status, a.headers.get("retry-after"), a.json.error.code]).toEqual([429, "2", "throttled"]);
    expect((await nodes()).headers.get("retry-after")).toBe(date);
    const c = await nodes();
    expect(c).toMatchObject({ status: 503, json: { error: { code: "service_unavailable" } } });
    expect(c.headers.get("retry-after")).toBeNull();
    expect((await nodes(null)).status).toBe(401);
    expect(record(emulator())).toBe("429 429, 503 503, 503 503, 401");
  });

  test("custom bodies: an HTML proxy page, truncated JSON, a content type; default 502/504 are HTML", async () => {
    emulator().enqueueFaults([
      { status: 502, body: "<html><body>Bad gateway</body></html>" },
      { status: 500, body: '{"error": {"code": "ser' },
      { status: 504 },
      { status: 500, body: "oops", contentType: "text/plain" },
    ]);
    const seen = [];
    for (let i = 0; i < 4; i++) {
      const a = await nodes();
      seen.push([a.status, a.headers.get("content-type"), a.text.includes("504 Gateway Time-out") || a.text]);
    }
    expect(seen).toEqual([
      [502, "text/html", "<html><body>Bad gateway</body></html>"],
      [500, "application/json", '{"error": {"code": "ser'],
      [504, "text/html", true],
      [500, "text/plain", "oops"],
    ]);
  });

  test("an injected error or drop never processes the request; a drop is recorded with status 0", async () => {
    emulator().enqueueFaults([
      { status: 429 },
      { status: 503 },
      { status: 500 },
      { drop: true },
      { status: 503 },
    ]);
    for (const status of [429, 503, 500]) expect((await drip(emulator())).status).toBe(status);
    await expect(drip(emulator())).rejects.toThrow();
    const dropped = { method: "POST", route: FAUCET, status: 0, fault: "drop" };
    expect(emulator().requests()[3]).toMatchObject(dropped);
    expect((await rename("not applied")).status).toBe(503);
    expect([sent(), networkName()]).toEqual([0, "Staging sandbox"]);
  });

  test("match by method and path prefix; faults apply in order; delayMs waits, then serves", async () => {
    emulator().enqueueFaults([
      { status: 503, match: { method: "post" } },
      { status: 502, match: { path: "/v1/networks/" } },
      { status: 504 },
      { delayMs: 120 },
    ]);
    expect((await rename("x")).status).toBe(502);
    expect([(await nodes()).status, (await nodes()).status]).toEqual([504, 200]);
    expect([(await drip(emulator())).status, (await drip(emulator())).status]).toEqual([503, 200]);
    expect(faultsOf(emulator())).toEqual(["502", "504", "delay", "503", undefined]);
  });

  test("malformed after processing: each send recorded, each 200 unreadable; the faucet kinds wait for a faucet send", async () => {
    emulator().enqueueFaults([
      { malformed: "missing-transaction" },
      { malformed: "non-integer-amount" },
      { malformed: "html" },
      { malformed: "truncated-json", match: { method: "PATCH" } },
    ]);
    const list = await nodes();
    expect([list.status, list.headers.get("content-type")]).toEqual([200, "text/html"]);
    expect(list.text).toMatch(/^<!DOCTYPE html>/);
    const renamed = await rename("applied");
    expect([renamed.status, renamed.json, networkName()]).toEqual([200, undefined, "applied"]);
    expect(renamed.text).toMatch(/^\{"id":/);
    expect((await drip(emulator())).json).toEqual({ amountSent: 500000000000000000 });
    const amount = await drip(emulator());
    expect(amount.json).toEqual({ amountSent: 0.5, transaction: emulator().faucetSends()[1].transaction });
    expect(sent()).toBe(2);
    const kinds = ["html", "truncated-json", "missing-transaction", "non-integer-amount"];
    expect(faultsOf(emulator())).toEqual(kinds.map((k) => `malformed-${k}`));
  });

  test("a failed request is answered as is and uses a malformed fault up", async () => {
    emulator().enqueueFaults([{ malformed: "html" }]);
    const a = await call(emulator(), FAUCET, { method: "POST", body: { address: "0x1234" } });
    expect([a.status, a.json.error.code]).toEqual([400, "validation_error"]);
    expect(emulator().requests()[0].fault).toBe("malformed-html-not-applied");
    expect((await drip(emulator())).headers.get("content-type")).toBe("application/json");
  });

  test.each([504, 502] as const)(
    "%d after processing: a gateway's HTML page; the send is recorded",
    async (status) => {
      emulator().enqueueFaults([{ status, after: "processing" }]);
      const a = await drip(emulator());
      expect([a.status, a.headers.get("content-type"), sent()]).toEqual([status, "text/html", 1]);
      expect(a.text).toContain(status === 504 ? "504 Gateway Time-out" : "502 Bad Gateway");
      emulator().enqueueFaults([
        { status: 504, after: "processing", body: "<html>upstream timed out</html>" },
      ]);
      expect((await rename("applied before the 504")).text).toBe("<html>upstream timed out</html>");
      expect(networkName()).toBe("applied before the 504");
      expect(faultsOf(emulator())).toEqual([`${status}-after-processing`, "504-after-processing"]);
    },
  );

  test("drop after processing: the faucet sends, the client never hears back, a blind retry meets the daily limit", () =>
    usingEmulator({ seed: 13 }, async (strict) => {
      strict.enqueueFaults([{ drop: true, after: "processing" }]);
      await expect(drip(strict)).rejects.toThrow();
      expect(strict.faucetSends()).toHaveLength(1);
      const dropped = { method: "POST", route: FAUCET, status: 0, fault: "drop-after-processing" };
      expect(strict.requests()[0]).toMatchObject(dropped);
      expect((await drip(strict)).status).toBe(429);
    }));

  test("rate429 with retryAfterSeconds (null: no header), dropRate, latencyMs fixed and as a range; match limits them to some requests", async () => {
    emulator().setFaults({ rate429: 1, retryAfterSeconds: 3, latencyMs: 60 });
    const retryAfter = async () => nodes().then((a) => [a.status, a.headers.get("retry-after")]);
    expect(await retryAfter()).toEqual([429, "3"]);
    emulator().setFaults({ rate429: 1, retryAfterSeconds: null, latencyMs: [20, 40] });
    expect(await retryAfter()).toEqual([429, null]);
    emulator().setFaults({ dropRate: 1 });
    await expect(nodes()).rejects.toThrow();
    emulator().setFaults({});
    expect((await nodes()).status).toBe(200);
    expect(faultsOf(emulator())).toEqual(["latency+429", "latency+429", "drop", undefined]);
    const matched = { rate429: 1, match: { method: "POST", path: "/v1/faucet/" } };
    emulator().setFaults(matched);
    expect([(await nodes()).status, (await drip(emulator())).status]).toEqual([200, 429]);
    expect(emulator().faults()).toEqual(matched);
  });

  test("rate5xx mixes 503 (with Retry-After), 502 and 504; rate5xxAfterProcessing 502 and 504 HTML, every send recorded", async () => {
    emulator().setFaults({ rate5xx: 1, retryAfterSeconds: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const a = await nodes();
      statuses.add(a.status);
      expect(a.headers.get("retry-after")).toBe(a.status === 503 ? "1" : null);
    }
    expect(statuses).toEqual(new Set([502, 503, 504]));
    emulator().setFaults({ rate5xxAfterProcessing: 1 });
    const after = new Set<string>();
    for (let i = 0; i < 20; i++)
      after.add(await drip(emulator()).then((a) => `${a.status} ${a.headers.get("content-type")}`));
    expect(after).toEqual(new Set(["502 text/html", "504 text/html"]));
    emulator().setFaults({ dropAfterProcessingRate: 1 });
    await expect(drip(emulator())).rejects.toThrow();
    expect(sent()).toBe(21);
  });

  test("random malformedRate: all four kinds on the faucet, only html and truncated-json elsewhere", async () => {
    emulator().setFaults({ malformedRate: 1 });
    for (let i = 0; i < 40; i++) await drip(emulator());
    for (let i = 0; i < 10; i++) await nodes();
    const kinds = (method: string) => new Set(faultsOf(emulator(), method));
    const generic = ["malformed-html", "malformed-truncated-json"];
    const faucetOnly = ["malformed-non-integer-amount", "malformed-missing-transaction"];
    expect([kinds("POST"), kinds("GET")]).toEqual([new Set([...generic, ...faucetOnly]), new Set(generic)]);
    expect(sent()).toBe(40);
  });

  test.each([
    [{ rate429: 2 }],
    [{ malformedRate: 1.5 }],
    [{ dropAfterProcessingRate: NaN }],
    [{ rate5xxAfterProcessing: -1 }],
    [{ latencyMs: [50, 10] }],
    [{ retryAfterSeconds: -1 }],
    [{ match: { path: "v1/" } }],
  ])("random faults %j are refused, at start too", async (faults) => {
    expect(() => emulator().setFaults(faults as FaultOptions)).toThrow(RangeError);
    await expect(startEmulator({ faults: faults as FaultOptions })).rejects.toThrow(RangeError);
    expect(emulator().faults()).toEqual({});
  });

  test("malformed one-shot faults are refused, none queued; the queue counts and clears", () => {
    const bad = [
      { status: 404 },
      { delayMs: -1 },
      {},
      { malformed: "xml" },
      { status: 504, after: "later" },
      { status: 504, match: { method: 1 } },
    ];
    for (const fault of bad)
      expect(() => emulator().enqueueFaults([{ status: 503 }, fault as never])).toThrow(RangeError);
    expect(emulator().queuedFaults()).toBe(0);
    emulator().enqueueFaults([{ status: 503 }, { malformed: "html" }]);
    expect(emulator().queuedFaults()).toBe(2);
    emulator().clearQueuedFaults();
    expect(emulator().queuedFaults()).toBe(0);
  });

  test("seeded: the same seed, from the start or set later, gives the same faults, sends and answers", async () => {
    const faults: FaultOptions = {
      dropRate: 0.1,
      rate5xx: 0.1,
      dropAfterProcessingRate: 0.15,
      rate5xxAfterProcessing: 0.15,
      malformedRate: 0.2,
      latencyMs: [0, 2],
      match: { method: "POST" },
    };
    const run = async (e: RunningEmulator) => {
      const out: string[] = [];
      const dropped = () => "dropped";
      for (let i = 0; i < 40; i++) out.push(await drip(e).then((a) => `${a.status}:${a.text}`, dropped));
      return { out, faults: faultsOf(e), counts: e.faucetSendCounts() };
    };
    await usingEmulator({ seed: 13, faucetDailyLimit: 1000, faults }, async (twin) => {
      emulator().setFaults(faults);
      const [x, y] = [await run(emulator()), await run(twin)];
      expect(x).toEqual(y);
      const kind = (f?: string) =>
        f
          ?.replace(/^latency\+/, "")
          .replace(/^(malformed)-.*$/, "$1")
          .replace(/^50[234]$/, "5xx");
      expect(new Set(x.faults.map(kind)).size).toBeGreaterThanOrEqual(4);
      expect(x.counts.total).toBeGreaterThan(0);
      expect(x.counts.total).toBeLessThan(40);
    });
  });

  describe("rateLimit: requests per second per API key over a sliding 1 s window", () => {
    let clock = 0;
    const limited = withEmulator({ seed: 13, rateLimit: 3, now: () => new Date(clock) }, { each: true });
    const at = async (ms: number, key?: string) => {
      clock = ms;
      return call(limited(), "/v1/nodes/", { key });
    };

    test("past the limit: 429 throttled with Retry-After in seconds, until the oldest request leaves the window", async () => {
      for (const ms of [0, 500, 500]) expect((await at(ms)).status).toBe(200);
      const throttled = await at(999);
      expect([throttled.status, throttled.json.error.code]).toEqual([429, "throttled"]);
      expect(throttled.headers.get("retry-after")).toBe("1");
      expect((await at(1000)).status).toBe(200); // t=0 left; t=500 twice and t=1000 remain
      expect((await at(1200)).status).toBe(429);
      expect((await at(1500)).status).toBe(200);
      expect(record(limited())).toBe("200, 200, 200, 429 rate-limit, 200, 429 rate-limit, 200");
    });

    test("each key has its own window; an unknown key is answered 401; a throttled request is not processed; admin is never throttled", async () => {
      for (let i = 0; i < 3; i++) expect((await at(0)).status).toBe(200);
      expect((await at(0, limited().keys[limited().fixtures.otherOrganization])).status).toBe(200);
      expect((await at(0, "not-a-key")).status).toBe(401);
      const network = limited().fixtures.emptyNetwork;
      const rename = await call(limited(), `/v1/networks/${network}/`, {
        method: "PATCH",
        body: { name: "late" },
      });
      expect([rename.status, limited().admin.getNetwork(network)?.name]).toEqual([429, "Staging sandbox"]);
      expect((await call(limited(), "/_emulator/requests", { key: limited().adminKey })).status).toBe(200);
    });

    test.each([0, 2.5, -1])("rateLimit %d is refused", (rateLimit) =>
      expect(startEmulator({ rateLimit })).rejects.toThrow(/rateLimit/),
    );
  });
});

describe("route delays", () => {
  test("faucetMs from the start holds the send before processing, nothing else; networkUpdateMs set at runtime holds PATCH only, and lifts; bad delays are refused", async () => {
    await usingEmulator({ routeDelays: { faucetMs: 1500 } }, async (emulator) => {
      const pending = drip(emulator);
      expect((await call(emulator, "/v1/nodes/")).status).toBe(200);
      expect(emulator.faucetSendCounts().total).toBe(0); // held, not processed yet
      expect([(await pending).status, emulator.faucetSendCounts().total]).toEqual([200, 1]);
      const path = `/v1/networks/${emulator.fixtures.emptyNetwork}/`;
      emulator.setRouteDelays({ networkUpdateMs: 300 });
      await call(emulator, path, { method: "PATCH", body: { name: "slow" } });
      await drip(emulator);
      emulator.setRouteDelays({});
      await call(emulator, path, { method: "PATCH", body: {} });
      const seen = emulator.requests().map((r) => `${r.method} ${r.fault ?? ""}`);
      expect(seen).toEqual(["GET ", "POST route-delay", "PATCH route-delay", "POST ", "PATCH "]);
      expect(() => emulator.setRouteDelays({ faucetMs: -1 })).toThrow(RangeError);
      expect(() => emulator.setRouteDelays({ faucetMS: 5 } as never)).toThrow(/faucetMS/);
    });
    await expect(startEmulator({ routeDelays: { networkUpdateMs: Infinity } })).rejects.toThrow(RangeError);
  });

  test.each([
    ["latency", { faults: { latencyMs: 600_000 } }],
    ["a route delay", { routeDelays: { faucetMs: 600_000 } }],
  ])(
    "close() ends a request held by %s (longer than any test's timeout); nothing is processed",
    async (_label, options) => {
      const emulator = await startEmulator(options);
      const pending = drip(emulator).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 50));
      await emulator.close();
      expect(String(await pending)).toMatch(/fetch failed/);
      expect(emulator.faucetSendCounts().total).toBe(0);
    },
  );
});
