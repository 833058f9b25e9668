import { startEmulator } from "../../src/emulator";
import type { MalformedKind, RunningEmulator } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

const FAUCET = "/v1/faucet/goerli";

describe("faults after processing", () => {
  const emulator = withEmulator({ seed: 17, faucetDailyLimit: 1000 }, { each: true });
  const address = () => emulator().fixtures.faucetAddress;
  const drip = () => call(emulator(), FAUCET, { method: "POST", body: { address: address() } });
  const rename = (name: string) =>
    call(emulator(), `/v1/networks/${emulator().fixtures.emptyNetwork}/`, {
      method: "PATCH",
      body: { name },
    });

  describe("malformed 200 answers (one-shot)", () => {
    test("html: the send is recorded, the answer is an HTML page", async () => {
      emulator().enqueueFaults([{ malformed: "html" }]);
      const a = await drip();
      expect([a.status, a.headers.get("content-type")]).toEqual([200, "text/html"]);
      expect(a.text).toMatch(/^<!DOCTYPE html>/);
      expect(emulator().faucetSendCount(address())).toBe(1);
      expect(emulator().requests()[0]).toMatchObject({ status: 200, fault: "malformed-html" });
    });

    test("truncated-json: labelled JSON, does not parse", async () => {
      emulator().enqueueFaults([{ malformed: "truncated-json" }]);
      const a = await drip();
      expect([a.status, a.headers.get("content-type")]).toEqual([200, "application/json"]);
      expect(a.text).toMatch(/^\{"amountSent":/);
      expect(() => JSON.parse(a.text)).toThrow();
      expect(emulator().faucetSendCount(address())).toBe(1);
    });

    test("non-integer-amount: amountSent is 0.5", async () => {
      emulator().enqueueFaults([{ malformed: "non-integer-amount" }]);
      const a = await drip();
      expect(a.status).toBe(200);
      expect(a.json.amountSent).toBe(0.5);
      expect(Number.isInteger(a.json.amountSent)).toBe(false);
      expect(a.json.transaction).toBe(emulator().faucetSends()[0].transaction);
    });

    test("missing-transaction: no transaction in the body", async () => {
      emulator().enqueueFaults([{ malformed: "missing-transaction" }]);
      const a = await drip();
      expect(a.status).toBe(200);
      expect(a.json).toEqual({ amountSent: 500000000000000000 });
      expect(emulator().faucetSendCounts()).toEqual({
        total: 1,
        byAddress: { [address().toLowerCase()]: 1 },
      });
    });

    test("the faucet kinds wait for a faucet send; html and truncated-json fit other routes", async () => {
      emulator().enqueueFaults([{ malformed: "missing-transaction" }, { malformed: "html" }]);
      const list = await call(emulator(), "/v1/nodes/");
      expect([list.status, list.headers.get("content-type")]).toEqual([200, "text/html"]);
      const renamed = await rename("renamed despite the fault");
      expect(renamed.json.name).toBe("renamed despite the fault");
      const a = await drip();
      expect(a.json.transaction).toBeUndefined();
      expect(
        emulator()
          .requests()
          .map((r) => r.fault),
      ).toEqual(["malformed-html", undefined, "malformed-missing-transaction"]);
    });

    test("a failed request is answered as is and uses the fault up", async () => {
      emulator().enqueueFaults([{ malformed: "html" }]);
      const a = await call(emulator(), FAUCET, { method: "POST", body: { address: "0x1234" } });
      expect(a.status).toBe(400);
      expect(a.json.error.code).toBe("validation_error");
      expect(emulator().requests()[0].fault).toBe("malformed-html-not-applied");
      expect((await drip()).headers.get("content-type")).toBe("application/json");
    });

    test("an update is applied, then answered with an unreadable 200", async () => {
      emulator().enqueueFaults([{ malformed: "truncated-json", match: { method: "PATCH" } }]);
      const a = await rename("applied");
      expect(a.status).toBe(200);
      expect(() => JSON.parse(a.text)).toThrow();
      expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)?.name).toBe("applied");
    });
  });

  describe("gateway errors after processing (one-shot)", () => {
    test.each([504, 502] as const)("%d with an HTML gateway page; the send is recorded", async (status) => {
      emulator().enqueueFaults([{ status, after: "processing" }]);
      const a = await drip();
      expect([a.status, a.headers.get("content-type")]).toEqual([status, "text/html"]);
      expect(a.text).toContain(status === 504 ? "504 Gateway Time-out" : "502 Bad Gateway");
      expect(emulator().faucetSendCount(address())).toBe(1);
      expect(emulator().requests()[0].fault).toBe(`${status}-after-processing`);
    });

    test("a custom body; an update is applied before the error", async () => {
      emulator().enqueueFaults([
        { status: 504, after: "processing", body: "<html>upstream timed out</html>" },
      ]);
      const a = await rename("applied before the 504");
      expect([a.status, a.text]).toEqual([504, "<html>upstream timed out</html>"]);
      expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)?.name).toBe(
        "applied before the 504",
      );
    });

    test("drop after processing is still there", async () => {
      emulator().enqueueFaults([{ drop: true, after: "processing" }]);
      await expect(drip()).rejects.toThrow();
      expect(emulator().faucetSendCount(address())).toBe(1);
    });

    test("malformed faults are refused", () => {
      expect(() => emulator().enqueueFaults([{ malformed: "xml" as MalformedKind }])).toThrow(RangeError);
      expect(() => emulator().enqueueFaults([{ status: 504, after: "later" as "processing" }])).toThrow(
        RangeError,
      );
      expect(() => emulator().enqueueFaults([{ status: 504, match: { method: 1 as never } }])).toThrow(
        RangeError,
      );
      expect(emulator().queuedFaults()).toBe(0);
      emulator().enqueueFaults([{ status: 503 }, { malformed: "html" }]);
      expect(emulator().queuedFaults()).toBe(2);
      emulator().clearQueuedFaults();
      expect(emulator().queuedFaults()).toBe(0);
    });
  });

  describe("random faults after processing", () => {
    test("dropAfterProcessingRate: every send recorded, no answer", async () => {
      emulator().setFaults({ dropAfterProcessingRate: 1 });
      await expect(drip()).rejects.toThrow();
      await expect(drip()).rejects.toThrow();
      expect(emulator().faucetSendCount(address())).toBe(2);
    });

    test("rate5xxAfterProcessing: 502 and 504 HTML pages, every send recorded", async () => {
      emulator().setFaults({ rate5xxAfterProcessing: 1 });
      const statuses = new Set<number>();
      for (let i = 0; i < 20; i++) {
        const a = await drip();
        statuses.add(a.status);
        expect(a.headers.get("content-type")).toBe("text/html");
      }
      expect(statuses).toEqual(new Set([502, 504]));
      expect(emulator().faucetSendCount(address())).toBe(20);
    });

    test("malformedRate: all four kinds on the faucet, only html and truncated-json elsewhere", async () => {
      emulator().setFaults({ malformedRate: 1 });
      for (let i = 0; i < 40; i++) await drip();
      for (let i = 0; i < 10; i++) await call(emulator(), "/v1/nodes/");
      const faucet = new Set(
        emulator()
          .requests()
          .filter((r) => r.method === "POST")
          .map((r) => r.fault),
      );
      const list = new Set(
        emulator()
          .requests()
          .filter((r) => r.method === "GET")
          .map((r) => r.fault),
      );
      expect(faucet).toEqual(
        new Set([
          "malformed-html",
          "malformed-truncated-json",
          "malformed-non-integer-amount",
          "malformed-missing-transaction",
        ]),
      );
      expect(list).toEqual(new Set(["malformed-html", "malformed-truncated-json"]));
      expect(emulator().faucetSendCount(address())).toBe(40);
    });

    test("match limits random faults to some requests", async () => {
      emulator().setFaults({ rate429: 1, match: { method: "POST", path: "/v1/faucet/" } });
      expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
      expect((await drip()).status).toBe(429);
      expect(emulator().faults()).toEqual({ rate429: 1, match: { method: "POST", path: "/v1/faucet/" } });
    });

    test("seeded: the same seed gives the same faults, sends and answers", async () => {
      const run = async (e: RunningEmulator) => {
        e.setFaults({
          dropRate: 0.1,
          rate5xx: 0.1,
          dropAfterProcessingRate: 0.15,
          rate5xxAfterProcessing: 0.15,
          malformedRate: 0.2,
          latencyMs: [0, 2],
          match: { method: "POST" },
        });
        const out: string[] = [];
        for (let i = 0; i < 40; i++) {
          const a = await call(e, FAUCET, {
            method: "POST",
            body: { address: e.fixtures.faucetAddress },
          }).catch(() => undefined);
          out.push(a ? `${a.status}:${a.text}` : "dropped");
        }
        return { out, faults: e.requests().map((r) => r.fault), counts: e.faucetSendCounts() };
      };
      const twin = await startEmulator({ seed: 17, faucetDailyLimit: 1000 });
      try {
        const [x, y] = [await run(emulator()), await run(twin)];
        expect(x).toEqual(y);
        const kind = (f: string | undefined) =>
          f
            ?.replace(/^latency\+/, "")
            .replace(/^(malformed)-.*$/, "$1")
            .replace(/^50[234]$/, "5xx");
        const kinds = new Set(x.faults.map(kind));
        expect(kinds.size).toBeGreaterThanOrEqual(4);
        expect(x.counts.total).toBeGreaterThan(0);
        expect(x.counts.total).toBeLessThan(40);
      } finally {
        await twin.close();
      }
    });

    test("rates out of range are refused", () => {
      expect(() => emulator().setFaults({ malformedRate: 1.5 })).toThrow(/malformedRate/);
      expect(() => emulator().setFaults({ dropAfterProcessingRate: -1 })).toThrow(/dropAfterProcessingRate/);
      expect(() => emulator().setFaults({ rate5xxAfterProcessing: NaN })).toThrow(/rate5xxAfterProcessing/);
    });
  });
});

describe("route delays", () => {
  const elapsed = async (fn: () => Promise<unknown>) => {
    const started = Date.now();
    await fn();
    return Date.now() - started;
  };

  test("faucetMs from the start holds the send before processing; other requests are not delayed", async () => {
    const emulator = await startEmulator({ routeDelays: { faucetMs: 400 } });
    try {
      const address = emulator.fixtures.faucetAddress;
      const pending = call(emulator, FAUCET, { method: "POST", body: { address } });
      await new Promise((r) => setTimeout(r, 150));
      expect(emulator.faucetSendCount(address)).toBe(0); // not processed yet
      const started = Date.now();
      expect((await call(emulator, "/v1/nodes/")).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(200);
      expect((await pending).status).toBe(200);
      expect(emulator.faucetSendCount(address)).toBe(1);
      expect(emulator.requests().find((r) => r.method === "POST")?.fault).toBe("route-delay");
    } finally {
      await emulator.close();
    }
  });

  test("networkUpdateMs set at runtime applies to PATCH only, and can be lifted", async () => {
    const emulator = await startEmulator();
    try {
      const path = `/v1/networks/${emulator.fixtures.emptyNetwork}/`;
      emulator.setRouteDelays({ networkUpdateMs: 300 });
      expect(emulator.routeDelays()).toEqual({ networkUpdateMs: 300 });
      expect(
        await elapsed(() => call(emulator, path, { method: "PATCH", body: { name: "slow" } })),
      ).toBeGreaterThanOrEqual(290);
      expect(await elapsed(() => call(emulator, "/v1/nodes/"))).toBeLessThan(200);
      emulator.setRouteDelays({});
      expect(await elapsed(() => call(emulator, path, { method: "PATCH", body: {} }))).toBeLessThan(200);
    } finally {
      await emulator.close();
    }
  });

  test("close() is prompt while a request is held; bad delays are refused", async () => {
    const emulator = await startEmulator({ routeDelays: { faucetMs: 10_000 } });
    const pending = call(emulator, FAUCET, {
      method: "POST",
      body: { address: emulator.fixtures.faucetAddress },
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    expect(await elapsed(() => emulator.close())).toBeLessThan(1000);
    expect(String(await pending)).toMatch(/fetch failed/);
    expect(emulator.faucetSendCounts().total).toBe(0);
    expect(() => emulator.setRouteDelays({ faucetMs: -1 })).toThrow(RangeError);
    expect(() => emulator.setRouteDelays({ faucetMS: 5 } as never)).toThrow(/unknown route delay/);
    await expect(startEmulator({ routeDelays: { networkUpdateMs: Infinity } })).rejects.toThrow(RangeError);
  });
});
