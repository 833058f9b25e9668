import { startEmulator } from "../../src/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

const faultsOf = (e: RunningEmulator) => e.requests().map((r) => r.fault);
/** The request record as `status fault, ...`. */
const record = (e: RunningEmulator) =>
  e
    .requests()
    .map((r) => [r.status, r.fault].filter(Boolean).join(" "))
    .join(", ");

describe("faults before processing", () => {
  const emulator = withEmulator({ seed: 13 }, { each: true });
  const drip = () =>
    call(emulator(), "/v1/faucet/goerli", {
      method: "POST",
      body: { address: emulator().fixtures.faucetAddress },
    });
  const nodes = (key?: string | null) => call(emulator(), "/v1/nodes/", { key });

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
    expect([c.status, c.headers.get("retry-after"), c.json.error.code]).toEqual([
      503,
      null,
      "service_unavailable",
    ]);
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
      seen.push([
        a.status,
        a.headers.get("content-type"),
        a.text.includes("504 Gateway Time-out") ? "gateway" : a.text,
      ]);
    }
    expect(seen).toEqual([
      [502, "text/html", "<html><body>Bad gateway</body></html>"],
      [500, "application/json", '{"error": {"code": "ser'],
      [504, "text/html", "gateway"],
      [500, "text/plain", "oops"],
    ]);
  });

  test("an injected error or drop never processes the request; a drop is logged with status 0", async () => {
    emulator().enqueueFaults([{ status: 429 }, { status: 503 }, { status: 500 }, { drop: true }]);
    for (const status of [429, 503, 500]) expect((await drip()).status).toBe(status);
    await expect(drip()).rejects.toThrow();
    expect(emulator().faucetSends()).toEqual([]);
    expect(emulator().requests()[3]).toMatchObject({
      method: "POST",
      route: "/v1/faucet/goerli",
      status: 0,
      fault: "drop",
    });
    const network = emulator().fixtures.emptyNetwork;
    emulator().enqueueFaults([{ status: 503 }]);
    expect((await call(emulator(), `/v1/networks/${network}/`, { method: "DELETE" })).status).toBe(503);
    expect(emulator().admin.getNetwork(network)).toBeDefined();
    expect((await nodes()).status).toBe(200);
  });

  test("match by method and path prefix; faults apply in order; delayMs waits, then serves", async () => {
    emulator().enqueueFaults([
      { status: 503, match: { method: "post" } },
      { status: 502, match: { path: "/v1/networks/" } },
      { status: 504 },
      { delayMs: 120 },
    ]);
    const network = `/v1/networks/${emulator().fixtures.emptyNetwork}/`;
    expect((await call(emulator(), network, { method: "PATCH" })).status).toBe(502);
    expect((await nodes()).status).toBe(504);
    expect((await nodes()).status).toBe(200);
    expect((await drip()).status).toBe(503);
    expect((await drip()).status).toBe(200);
    expect(faultsOf(emulator())).toEqual(["502", "504", "delay", "503", undefined]);
  });

  test("malformed queued faults are refused", () => {
    for (const fault of [{ status: 404 }, { delayMs: -1 }, {}]) {
      expect(() => emulator().enqueueFaults([fault as never])).toThrow(RangeError);
    }
  });

  test("rate429 with retryAfterSeconds; null sends no Retry-After; dropRate closes the connection", async () => {
    emulator().setFaults({ rate429: 1, retryAfterSeconds: 3 });
    const retryAfter = async () => nodes().then((a) => [a.status, a.headers.get("retry-after")]);
    expect(await retryAfter()).toEqual([429, "3"]);
    emulator().setFaults({ rate429: 1, retryAfterSeconds: null });
    expect(await retryAfter()).toEqual([429, null]);
    emulator().setFaults({ dropRate: 1 });
    await expect(nodes()).rejects.toThrow();
    emulator().setFaults({});
    expect((await nodes()).status).toBe(200);
  });

  test("rate5xx mixes 503 (with Retry-After), 502 and 504", async () => {
    emulator().setFaults({ rate5xx: 1, retryAfterSeconds: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const a = await nodes();
      statuses.add(a.status);
      expect(a.headers.get("retry-after")).toBe(a.status === 503 ? "1" : null);
    }
    expect(statuses).toEqual(new Set([502, 503, 504]));
  });

  test("latencyMs, fixed and as a range, is recorded", async () => {
    emulator().setFaults({ latencyMs: 60 });
    await nodes();
    emulator().setFaults({ latencyMs: [20, 40], rate429: 1 });
    await nodes();
    expect(faultsOf(emulator())).toEqual(["latency", "latency+429"]);
  });

  test("the same seed fails the same requests; faults given at start apply", async () => {
    const faults = { rate429: 0.3, rate5xx: 0.3 };
    const twin = await startEmulator({ seed: 13, faults });
    try {
      emulator().setFaults(faults);
      const sequence = async (e: RunningEmulator) => {
        const out: number[] = [];
        for (let i = 0; i < 20; i++) out.push((await call(e, "/v1/nodes/")).status);
        return out;
      };
      const [x, y] = [await sequence(emulator()), await sequence(twin)];
      expect(x).toEqual(y);
      expect(new Set(x).size).toBeGreaterThan(1);
    } finally {
      await twin.close();
    }
  });

  test("invalid random fault settings are refused", async () => {
    for (const faults of [{ rate429: 2 }, { latencyMs: [50, 10] as const }, { retryAfterSeconds: -1 }]) {
      expect(() => emulator().setFaults(faults)).toThrow(RangeError);
    }
    await expect(startEmulator({ faults: { dropRate: -0.1 } })).rejects.toThrow(RangeError);
  });

  test("close() ends a request held by latency (longer than any test's timeout)", async () => {
    const slow = await startEmulator({ faults: { latencyMs: 600_000 } });
    const pending = call(slow, "/v1/nodes/").catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await slow.close();
    expect(String(await pending)).toMatch(/fetch failed/);
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
      expect(throttled.json.error.message).toBe("Request was throttled. Expected available in 1 second.");
      expect((await at(1000)).status).toBe(200); // t=0 left; t=500 twice and t=1000 remain
      expect((await at(1200)).status).toBe(429);
      expect((await at(1500)).status).toBe(200);
      expect(record(limited())).toBe("200, 200, 200, 429 rate-limit, 200, 429 rate-limit, 200");
    });

    test("each key has its own window; an unknown key is answered 401; a throttled request is not processed", async () => {
      for (let i = 0; i < 3; i++) expect((await at(0)).status).toBe(200);
      expect((await at(0, limited().keys[limited().fixtures.otherOrganization])).status).toBe(200);
      expect((await at(0, "not-a-key")).status).toBe(401);
      const network = limited().fixtures.emptyNetwork;
      const rename = await call(limited(), `/v1/networks/${network}/`, {
        method: "PATCH",
        body: { name: "late" },
      });
      expect(rename.status).toBe(429);
      expect(limited().admin.getNetwork(network)?.name).not.toBe("late");
      expect((await call(limited(), "/_emulator/requests", { key: limited().adminKey })).status).toBe(200);
    });

    test("a rate limit that is not a whole number of at least 1 is refused", async () => {
      for (const rateLimit of [0, 2.5, -1]) {
        await expect(startEmulator({ rateLimit })).rejects.toThrow(/rateLimit must be an integer from 1/);
      }
    });
  });
});

describe("route delays", () => {
  const FAUCET = "/v1/faucet/goerli";

  test("faucetMs from the start holds the send before processing; other requests are not held", async () => {
    const emulator = await startEmulator({ routeDelays: { faucetMs: 1500 } });
    try {
      const address = emulator.fixtures.faucetAddress;
      const pending = call(emulator, FAUCET, { method: "POST", body: { address } });
      expect((await call(emulator, "/v1/nodes/")).status).toBe(200);
      expect(emulator.faucetSendCount(address)).toBe(0); // held, not processed yet
      expect((await pending).status).toBe(200);
      expect(emulator.faucetSendCount(address)).toBe(1);
      expect(emulator.requests().map((r) => [r.method, r.fault])).toEqual([
        ["GET", undefined],
        ["POST", "route-delay"],
      ]);
    } finally {
      await emulator.close();
    }
  });

  test("networkUpdateMs set at runtime applies to PATCH only, and can be lifted; bad delays are refused", async () => {
    const emulator = await startEmulator();
    try {
      const path = `/v1/networks/${emulator.fixtures.emptyNetwork}/`;
      emulator.setRouteDelays({ networkUpdateMs: 300 });
      expect(emulator.routeDelays()).toEqual({ networkUpdateMs: 300 });
      await call(emulator, path, { method: "PATCH", body: { name: "slow" } });
      await call(emulator, "/v1/nodes/");
      emulator.setRouteDelays({});
      await call(emulator, path, { method: "PATCH", body: {} });
      expect(faultsOf(emulator)).toEqual(["route-delay", undefined, undefined]);
      expect(() => emulator.setRouteDelays({ faucetMs: -1 })).toThrow(RangeError);
      expect(() => emulator.setRouteDelays({ faucetMS: 5 } as never)).toThrow(/unknown route delay/);
    } finally {
      await emulator.close();
    }
    await expect(startEmulator({ routeDelays: { networkUpdateMs: Infinity } })).rejects.toThrow(RangeError);
  });

  test("close() ends a held request (longer than any test's timeout); nothing is processed", async () => {
    const emulator = await startEmulator({ routeDelays: { faucetMs: 600_000 } });
    const body = { address: emulator.fixtures.faucetAddress };
    const pending = call(emulator, FAUCET, { method: "POST", body }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await emulator.close();
    expect(String(await pending)).toMatch(/fetch failed/);
    expect(emulator.faucetSendCounts().total).toBe(0);
  });
});
