import { startEmulator } from "../../src/emulator";
import type { MalformedKind, RunningEmulator } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

const FAUCET = "/v1/faucet/goerli";

describe("faults after processing", () => {
  const emulator = withEmulator({ seed: 17, faucetDailyLimit: 1000 }, { each: true });
  const address = () => emulator().fixtures.faucetAddress;
  const drip = (e = emulator()) =>
    call(e, FAUCET, { method: "POST", body: { address: e.fixtures.faucetAddress } });
  const rename = (name: string) =>
    call(emulator(), `/v1/networks/${emulator().fixtures.emptyNetwork}/`, {
      method: "PATCH",
      body: { name },
    });
  const sent = () => emulator().faucetSendCount(address());

  test("malformed: each send is recorded, each 200 unreadable (html, truncated-json, non-integer-amount, missing-transaction)", async () => {
    const kinds: MalformedKind[] = ["html", "truncated-json", "non-integer-amount", "missing-transaction"];
    emulator().enqueueFaults(kinds.map((malformed) => ({ malformed })));
    const [html, truncated, amount, missing] = [await drip(), await drip(), await drip(), await drip()];
    expect(
      [html, truncated, amount, missing].map((a) => `${a.status} ${a.headers.get("content-type")}`),
    ).toEqual(["200 text/html", ...Array(3).fill("200 application/json")]);
    expect(html.text).toMatch(/^<!DOCTYPE html>/);
    expect(truncated.text).toMatch(/^\{"amountSent":/);
    expect(() => JSON.parse(truncated.text)).toThrow();
    expect(amount.json.amountSent).toBe(0.5);
    expect(amount.json.transaction).toBe(emulator().faucetSends()[2].transaction);
    expect(missing.json).toEqual({ amountSent: 500000000000000000 });
    expect(emulator().faucetSendCounts()).toEqual({ total: 4, byAddress: { [address().toLowerCase()]: 4 } });
    expect(emulator().requests()).toMatchObject(kinds.map((k) => ({ fault: `malformed-${k}` })));
  });

  test("the faucet kinds wait for a faucet send; html and truncated-json fit other routes, an update applied", async () => {
    emulator().enqueueFaults([
      { malformed: "missing-transaction" },
      { malformed: "html" },
      { malformed: "truncated-json", match: { method: "PATCH" } },
    ]);
    const list = await call(emulator(), "/v1/nodes/");
    expect([list.status, list.headers.get("content-type")]).toEqual([200, "text/html"]);
    const renamed = await rename("applied");
    expect(renamed.status).toBe(200);
    expect(() => JSON.parse(renamed.text)).toThrow();
    expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)?.name).toBe("applied");
    expect((await drip()).json.transaction).toBeUndefined();
    const faults = ["malformed-html", "malformed-truncated-json", "malformed-missing-transaction"];
    expect(emulator().requests()).toMatchObject(faults.map((fault) => ({ fault })));
  });

  test("a failed request is answered as is and uses the fault up", async () => {
    emulator().enqueueFaults([{ malformed: "html" }]);
    const a = await call(emulator(), FAUCET, { method: "POST", body: { address: "0x1234" } });
    expect([a.status, a.json.error.code]).toEqual([400, "validation_error"]);
    expect(emulator().requests()[0].fault).toBe("malformed-html-not-applied");
    expect((await drip()).headers.get("content-type")).toBe("application/json");
  });

  test.each([504, 502] as const)(
    "%d after processing: an HTML gateway page; the send is recorded",
    async (status) => {
      emulator().enqueueFaults([{ status, after: "processing" }]);
      const a = await drip();
      expect([a.status, a.headers.get("content-type")]).toEqual([status, "text/html"]);
      expect(a.text).toContain(status === 504 ? "504 Gateway Time-out" : "502 Bad Gateway");
      expect(sent()).toBe(1);
      expect(emulator().requests()[0].fault).toBe(`${status}-after-processing`);
    },
  );

  test("a custom body; an update is applied before the error", async () => {
    emulator().enqueueFaults([{ status: 504, after: "processing", body: "<html>upstream timed out</html>" }]);
    const a = await rename("applied before the 504");
    expect([a.status, a.text]).toEqual([504, "<html>upstream timed out</html>"]);
    expect(emulator().admin.getNetwork(emulator().fixtures.emptyNetwork)?.name).toBe(
      "applied before the 504",
    );
  });

  test("drop after processing: the faucet sends, the client never hears back, a blind retry meets the daily limit", async () => {
    const strict = await startEmulator({ seed: 17 });
    try {
      strict.enqueueFaults([{ drop: true, after: "processing" }]);
      await expect(drip(strict)).rejects.toThrow();
      expect(strict.faucetSends()).toHaveLength(1);
      expect(strict.requests()[0]).toMatchObject({
        method: "POST",
        status: 0,
        fault: "drop-after-processing",
      });
      expect((await drip(strict)).status).toBe(429);
    } finally {
      await strict.close();
    }
  });

  test("malformed faults are refused, none queued; the queue counts and clears", () => {
    for (const fault of [
      { malformed: "xml" as MalformedKind },
      { status: 504, after: "later" },
      { status: 504, match: { method: 1 } },
    ]) {
      expect(() => emulator().enqueueFaults([fault as never])).toThrow(RangeError);
    }
    expect(emulator().queuedFaults()).toBe(0);
    emulator().enqueueFaults([{ status: 503 }, { malformed: "html" }]);
    expect(emulator().queuedFaults()).toBe(2);
    emulator().clearQueuedFaults();
    expect(emulator().queuedFaults()).toBe(0);
  });

  test("random: dropAfterProcessingRate and rate5xxAfterProcessing (502 and 504 HTML) record every send", async () => {
    emulator().setFaults({ dropAfterProcessingRate: 1 });
    await expect(drip()).rejects.toThrow();
    emulator().setFaults({ rate5xxAfterProcessing: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const a = await drip();
      statuses.add(a.status);
      expect(a.headers.get("content-type")).toBe("text/html");
    }
    expect(statuses).toEqual(new Set([502, 504]));
    expect(sent()).toBe(21);
  });

  test("random malformedRate: all four kinds on the faucet, only html and truncated-json elsewhere", async () => {
    emulator().setFaults({ malformedRate: 1 });
    for (let i = 0; i < 40; i++) await drip();
    for (let i = 0; i < 10; i++) await call(emulator(), "/v1/nodes/");
    const kinds = (method: string) =>
      new Set(
        emulator()
          .requests()
          .filter((r) => r.method === method)
          .map((r) => r.fault),
      );
    const generic = ["malformed-html", "malformed-truncated-json"];
    expect(kinds("POST")).toEqual(
      new Set([...generic, "malformed-non-integer-amount", "malformed-missing-transaction"]),
    );
    expect(kinds("GET")).toEqual(new Set(generic));
    expect(sent()).toBe(40);
  });

  test("match limits random faults to some requests; out-of-range rates are refused", async () => {
    emulator().setFaults({ rate429: 1, match: { method: "POST", path: "/v1/faucet/" } });
    expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
    expect((await drip()).status).toBe(429);
    expect(emulator().faults()).toEqual({ rate429: 1, match: { method: "POST", path: "/v1/faucet/" } });
    for (const key of ["malformedRate", "dropAfterProcessingRate", "rate5xxAfterProcessing"]) {
      expect(() => emulator().setFaults({ [key]: key === "malformedRate" ? 1.5 : NaN })).toThrow(key);
    }
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
        const a = await drip(e).catch(() => undefined);
        out.push(a ? `${a.status}:${a.text}` : "dropped");
      }
      return { out, faults: e.requests().map((r) => r.fault), counts: e.faucetSendCounts() };
    };
    const twin = await startEmulator({ seed: 17, faucetDailyLimit: 1000 });
    try {
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
    } finally {
      await twin.close();
    }
  });
});
