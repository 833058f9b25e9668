import { startEmulator } from "../../src/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

describe("fault injection", () => {
  const emulator = withEmulator({ seed: 13 }, { each: true });
  const drip = () =>
    call(emulator(), "/v1/faucet/goerli", {
      method: "POST",
      body: { address: emulator().fixtures.faucetAddress },
    });

  describe("enqueueFaults", () => {
    test("a 429 with Retry-After, once; then normal service; both logged", async () => {
      emulator().enqueueFaults([{ status: 429, retryAfter: "2" }]);
      const a = await call(emulator(), "/v1/nodes/");
      expect(a.status).toBe(429);
      expect(a.headers.get("retry-after")).toBe("2");
      expect(a.json.error.code).toBe("throttled");
      expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
      expect(
        emulator()
          .requests()
          .map((r) => [r.status, r.fault]),
      ).toEqual([
        [429, "429"],
        [200, undefined],
      ]);
    });

    test("an HTTP-date Retry-After is sent verbatim; no retryAfter, no header", async () => {
      const date = "Wed, 21 Oct 2015 07:28:00 GMT";
      emulator().enqueueFaults([{ status: 503, retryAfter: date }, { status: 503 }]);
      expect((await call(emulator(), "/v1/nodes/")).headers.get("retry-after")).toBe(date);
      const b = await call(emulator(), "/v1/nodes/");
      expect(b.status).toBe(503);
      expect(b.headers.get("retry-after")).toBeNull();
      expect(b.json.error.code).toBe("service_unavailable");
    });

    test("custom bodies: an HTML proxy page, truncated JSON; default 502/504 are HTML", async () => {
      emulator().enqueueFaults([
        { status: 502, body: "<html><body>Bad gateway</body></html>" },
        { status: 500, body: '{"error": {"code": "ser' },
        { status: 504 },
        { status: 500, body: "oops", contentType: "text/plain" },
      ]);
      const html = await call(emulator(), "/v1/nodes/");
      expect([html.status, html.headers.get("content-type"), html.text]).toEqual([
        502,
        "text/html",
        "<html><body>Bad gateway</body></html>",
      ]);
      const truncated = await call(emulator(), "/v1/nodes/");
      expect([truncated.status, truncated.headers.get("content-type"), truncated.text]).toEqual([
        500,
        "application/json",
        '{"error": {"code": "ser',
      ]);
      const gateway = await call(emulator(), "/v1/nodes/");
      expect(gateway.status).toBe(504);
      expect(gateway.headers.get("content-type")).toBe("text/html");
      expect(gateway.text).toContain("504 Gateway Time-out");
      const plain = await call(emulator(), "/v1/nodes/");
      expect([plain.status, plain.headers.get("content-type"), plain.text]).toEqual([
        500,
        "text/plain",
        "oops",
      ]);
    });

    test("faults apply before authentication", async () => {
      emulator().enqueueFaults([{ status: 503 }]);
      expect((await call(emulator(), "/v1/nodes/", { key: null })).status).toBe(503);
      expect((await call(emulator(), "/v1/nodes/", { key: null })).status).toBe(401);
    });

    test("an injected error never processes the request", async () => {
      emulator().enqueueFaults([{ status: 429 }, { status: 503 }, { status: 500 }, { drop: true }]);
      expect((await drip()).status).toBe(429);
      expect((await drip()).status).toBe(503);
      expect((await drip()).status).toBe(500);
      await expect(drip()).rejects.toThrow();
      expect(emulator().faucetSends()).toEqual([]);
      const network = emulator().fixtures.emptyNetwork;
      emulator().enqueueFaults([{ status: 503 }]);
      expect((await call(emulator(), `/v1/networks/${network}/`, { method: "DELETE" })).status).toBe(503);
      expect(emulator().admin.getNetwork(network)).toBeDefined();
    });

    test("drop: the connection closes without a response, logged with status 0", async () => {
      emulator().enqueueFaults([{ drop: true }]);
      await expect(call(emulator(), "/v1/nodes/")).rejects.toThrow();
      expect(emulator().requests()).toEqual([
        { method: "GET", route: "/v1/nodes/", path: "/v1/nodes/", query: {}, status: 0, fault: "drop" },
      ]);
      expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
    });

    test("drop after processing: the faucet sends, but the client never hears back", async () => {
      emulator().enqueueFaults([{ drop: true, after: "processing" }]);
      await expect(drip()).rejects.toThrow();
      expect(emulator().faucetSends()).toHaveLength(1);
      expect(emulator().requests()[0]).toMatchObject({
        method: "POST",
        status: 0,
        fault: "drop-after-processing",
      });
      // A blind retry would now hit the daily limit.
      expect((await drip()).status).toBe(429);
    });

    test("match by method and path prefix; faults apply in order", async () => {
      emulator().enqueueFaults([
        { status: 503, match: { method: "post" } },
        { status: 502, match: { path: "/v1/networks/" } },
        { status: 504 },
      ]);
      expect(
        (await call(emulator(), `/v1/networks/${emulator().fixtures.emptyNetwork}/`, { method: "PATCH" }))
          .status,
      ).toBe(502);
      expect((await call(emulator(), "/v1/nodes/")).status).toBe(504);
      expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
      expect((await drip()).status).toBe(503);
      expect((await drip()).status).toBe(200);
    });

    test("delayMs: waits, then serves", async () => {
      emulator().enqueueFaults([{ delayMs: 120 }]);
      const started = Date.now();
      expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
      expect(emulator().requests()[0].fault).toBe("delay");
    });

    test("malformed faults are refused", () => {
      expect(() => emulator().enqueueFaults([{ status: 404 as never }])).toThrow(RangeError);
      expect(() => emulator().enqueueFaults([{ delayMs: -1 }])).toThrow(RangeError);
      expect(() => emulator().enqueueFaults([{} as never])).toThrow(RangeError);
    });
  });

  describe("random faults", () => {
    test("rate429 with retryAfterSeconds; null sends no Retry-After", async () => {
      emulator().setFaults({ rate429: 1, retryAfterSeconds: 3 });
      const a = await call(emulator(), "/v1/nodes/");
      expect([a.status, a.headers.get("retry-after")]).toEqual([429, "3"]);
      emulator().setFaults({ rate429: 1, retryAfterSeconds: null });
      const b = await call(emulator(), "/v1/nodes/");
      expect([b.status, b.headers.get("retry-after")]).toEqual([429, null]);
      emulator().setFaults({});
      expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
    });

    test("rate5xx mixes 503, 502 and 504", async () => {
      emulator().setFaults({ rate5xx: 1, retryAfterSeconds: 1 });
      const statuses = new Set<number>();
      for (let i = 0; i < 30; i++) {
        const a = await call(emulator(), "/v1/nodes/");
        statuses.add(a.status);
        if (a.status === 503) expect(a.headers.get("retry-after")).toBe("1");
        else expect(a.headers.get("retry-after")).toBeNull();
      }
      expect(statuses).toEqual(new Set([502, 503, 504]));
    });

    test("dropRate", async () => {
      emulator().setFaults({ dropRate: 1 });
      await expect(call(emulator(), "/v1/nodes/")).rejects.toThrow();
    });

    test("latencyMs, fixed and as a range", async () => {
      emulator().setFaults({ latencyMs: 60 });
      let started = Date.now();
      await call(emulator(), "/v1/nodes/");
      expect(Date.now() - started).toBeGreaterThanOrEqual(55);
      emulator().setFaults({ latencyMs: [20, 40] });
      started = Date.now();
      await call(emulator(), "/v1/nodes/");
      expect(Date.now() - started).toBeGreaterThanOrEqual(18);
      expect(
        emulator()
          .requests()
          .map((r) => r.fault),
      ).toEqual(["latency", "latency"]);
    });

    test("the same seed fails the same requests", async () => {
      const sequence = async (e: RunningEmulator) => {
        e.setFaults({ rate429: 0.3, rate5xx: 0.3 });
        const out: number[] = [];
        for (let i = 0; i < 20; i++) out.push((await call(e, "/v1/nodes/")).status);
        return out;
      };
      const twin = await startEmulator({ seed: 13 });
      try {
        const [x, y] = [await sequence(emulator()), await sequence(twin)];
        expect(x).toEqual(y);
        expect(new Set(x).size).toBeGreaterThan(1);
      } finally {
        await twin.close();
      }
    });

    test("faults given at start; invalid settings are refused", async () => {
      const faulty = await startEmulator({ faults: { rate429: 1 } });
      try {
        expect((await call(faulty, "/v1/nodes/")).status).toBe(429);
      } finally {
        await faulty.close();
      }
      expect(() => emulator().setFaults({ rate429: 2 })).toThrow(RangeError);
      expect(() => emulator().setFaults({ latencyMs: [50, 10] })).toThrow(RangeError);
      expect(() => emulator().setFaults({ retryAfterSeconds: -1 })).toThrow(RangeError);
      await expect(startEmulator({ faults: { dropRate: -0.1 } })).rejects.toThrow(RangeError);
    });

    test("close() is prompt even while a request is delayed", async () => {
      const slow = await startEmulator({ faults: { latencyMs: 10_000 } });
      const pending = call(slow, "/v1/nodes/").catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      await slow.close();
      expect(Date.now() - started).toBeLessThan(1000);
      expect(String(await pending)).toMatch(/fetch failed/);
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
      expect((await at(1000)).status).toBe(200); // the request of t=0 left; t=500 twice and t=1000 remain
      expect((await at(1200)).status).toBe(429);
      expect((await at(1500)).status).toBe(200);
      expect(
        limited()
          .requests()
          .map((r) => [r.status, r.fault]),
      ).toEqual([
        [200, undefined],
        [200, undefined],
        [200, undefined],
        [429, "rate-limit"],
        [200, undefined],
        [429, "rate-limit"],
        [200, undefined],
      ]);
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
