import { ADMIN_PREFIX, deriveAdminKey } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

describe("admin endpoints (/_emulator/)", () => {
  const emulator = withEmulator({ seed: 23, faucetDailyLimit: 10 }, { each: true });
  const admin = (path: string, options: { method?: string; body?: unknown } = {}) =>
    call(emulator(), `${ADMIN_PREFIX}${path}`, { ...options, key: emulator().adminKey });
  const drip = () =>
    call(emulator(), "/v1/faucet/goerli", {
      method: "POST",
      body: { address: emulator().fixtures.faucetAddress },
    });

  test("the admin key is deterministic per seed, distinct from every API key, and listed as a secret", () => {
    expect(ADMIN_PREFIX).toBe("/_emulator/");
    expect(emulator().adminKey).toBe(deriveAdminKey(23));
    expect(emulator().adminKey).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.values(emulator().keys)).not.toContain(emulator().adminKey);
    expect(emulator().secrets()).toContain(emulator().adminKey);
  });

  test("no key, an organization's key or a wrong key: 401; unknown path 404; wrong method 405", async () => {
    for (const key of [null, emulator().apiKey, "nope"]) {
      const a = await call(emulator(), "/_emulator/faults", { key });
      expect(a.status).toBe(401);
      expect(a.json.error.code).toBe("authentication_failed");
    }
    expect((await admin("nothing")).status).toBe(404);
    const wrong = await admin("faucet/sends", { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
  });

  test("route delays set on a running emulator take effect", async () => {
    const put = await admin("route-delays", { method: "PUT", body: { faucetMs: 300, networkUpdateMs: 0 } });
    expect([put.status, put.json]).toEqual([200, { faucetMs: 300, networkUpdateMs: 0 }]);
    expect(emulator().routeDelays()).toEqual({ faucetMs: 300, networkUpdateMs: 0 });
    const started = Date.now();
    expect((await drip()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect((await admin("route-delays")).json).toEqual({ faucetMs: 300, networkUpdateMs: 0 });
    const bad = await admin("route-delays", { method: "PUT", body: { faucetMs: -5 } });
    expect([bad.status, bad.json.error.code]).toEqual([400, "validation_error"]);
    expect(bad.json.error.message).toContain("faucetMs");
  });

  test("queued faults and the send counts a harness judges duplicates by", async () => {
    const queued = await admin("faults/queue", {
      method: "POST",
      body: { faults: [{ malformed: "truncated-json" }, { status: 504, after: "processing" }] },
    });
    expect([queued.status, queued.json]).toEqual([200, { random: {}, queued: 2 }]);
    expect((await drip()).json).toBeUndefined(); // truncated
    expect((await drip()).status).toBe(504);
    const sends = await admin("faucet/sends");
    expect(sends.json).toEqual({
      total: 2,
      byAddress: { [emulator().fixtures.faucetAddress.toLowerCase()]: 2 },
    });
    await admin("faults/queue", { method: "POST", body: { faults: [{ status: 503 }] } });
    expect((await admin("faults/queue", { method: "DELETE" })).json.queued).toBe(0);
    expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
    const bad = await admin("faults/queue", { method: "POST", body: { faults: [{ status: 404 }] } });
    expect(bad.status).toBe(400);
    expect((await admin("faults/queue", { method: "POST", body: [] })).status).toBe(400);
  });

  test("random faults: set, read back; admin requests are never faulted nor recorded", async () => {
    const put = await admin("faults", {
      method: "PUT",
      body: { rate429: 1, malformedRate: 0, match: { method: "GET" } },
    });
    expect(put.json).toEqual({
      random: { rate429: 1, malformedRate: 0, match: { method: "GET" } },
      queued: 0,
    });
    expect((await call(emulator(), "/v1/nodes/")).status).toBe(429);
    expect((await admin("faults")).status).toBe(200);
    expect((await admin("requests")).json).toEqual({ total: 1, retained: 1, capacity: 10_000 });
    expect(
      emulator()
        .requests()
        .map((r) => r.route),
    ).toEqual(["/v1/nodes/"]);
    const bad = await admin("faults", { method: "PUT", body: { rate429: 3 } });
    expect([bad.status, bad.json.error.message]).toEqual([400, expect.stringContaining("rate429")]);
    expect(emulator().faults()).toEqual({ rate429: 1, malformedRate: 0, match: { method: "GET" } });
  });
});
