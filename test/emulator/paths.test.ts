import * as http from "http";
import { EMULATOR_DEFAULTS, startEmulator } from "../../src/emulator";
import { call, rawRequest, usingEmulator, withEmulator } from "../helpers/emulator";

describe("paths, methods, request record and lifecycle", () => {
  const emulator = withEmulator({ seed: 17 });

  test.each([
    "/v1/networks/NW-1%2F..%2Fx/",
    "/v1/networks/NW-100-000-1%2F/",
    "/v1/nodes/ND-100-000-001%2F..%2F..%2Fnodes/",
    "/v1/nodes/%E0%A4%A/",
    "/v1/nodes/%2e%2e/",
    "/v1/nodes/../nodes/ND-100-000-001/",
    "/v1/nodes/ND-100-000-001/../",
    "/v1/nodes//",
    "/v1/nodes/ND-100-000-001%00/",
    "/v1/nodes/ND-100-000-001",
    "/v2/nodes/",
    "/",
  ])("%s: 404 not_found JSON", async (path) => {
    const a = await rawRequest(emulator(), path, { method: path.includes("networks") ? "PATCH" : "GET" });
    expect([a.status, a.headers["content-type"]]).toEqual([404, "application/json"]);
    expect(JSON.parse(a.text).error.code).toBe("not_found");
  });

  test("an encoded valid id is served; an unknown path needs no key; a missing slash gets a hint", async () => {
    expect((await rawRequest(emulator(), "/v1/nodes/ND%2D100%2D000%2D001/")).status).toBe(200);
    expect((await call(emulator(), "/v2/nodes/", { key: null })).status).toBe(404);
    const b = await call(emulator(), "/v1/nodes");
    expect([b.status, b.json.error.message]).toEqual([404, expect.stringContaining("/v1/nodes/?")]);
  });

  test("wrong method: 405 with Allow (after authentication); HEAD is GET without a body; bodies up to 1 MiB by default", async () => {
    const a = await call(emulator(), "/v1/nodes/", { method: "POST", body: {} });
    expect([a.status, a.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    expect(a.json.error.code).toBe("method_not_allowed");
    const b = await call(emulator(), `/v1/networks/${emulator().fixtures.emptyNetwork}/`);
    expect([b.status, b.headers.get("allow")]).toEqual([405, "PATCH, DELETE"]);
    expect((await call(emulator(), "/v1/nodes/", { method: "PUT", key: null })).status).toBe(401);
    const head = await call(emulator(), "/v1/nodes/", { method: "HEAD" });
    expect([head.status, head.text]).toEqual([200, ""]);
    expect(EMULATOR_DEFAULTS.maxBodyBytes).toBe(1024 * 1024);
  });

  test("the request record keeps method, route, path, query (last value wins), status and arrival time, never headers", async () => {
    emulator().resetRequests();
    const before = Date.now();
    await call(emulator(), "/v1/nodes/?region=uksouth&page=1&region=eu3");
    await call(emulator(), "/v1/nodes/ND-999-999-999/", { key: null });
    const after = Date.now();
    const get = { method: "GET", at: expect.any(Number) };
    expect(emulator().requests()).toEqual([
      { ...get, route: "/v1/nodes/", path: "/v1/nodes/", query: { region: "eu3", page: "1" }, status: 200 },
      { ...get, route: "/v1/nodes/{id}/", path: "/v1/nodes/ND-999-999-999/", query: {}, status: 401 },
    ]);
    const [first, second] = emulator()
      .requests()
      .map((r) => r.at);
    expect(before - 1 <= first && first <= second && second <= after + 1).toBe(true);
    expect(JSON.stringify(emulator().requests())).not.toContain(emulator().apiKey);
    expect(emulator().requestStats()).toEqual({ total: 2, retained: 2, capacity: 10_000 });
  });

  test("the record is bounded by requestLogCapacity (the oldest dropped, the total kept, 0 keeps none); out-of-range capacities are refused", async () => {
    await usingEmulator({ requestLogCapacity: 3 }, async (three) => {
      for (let page = 1; page <= 5; page++) await call(three, `/v1/nodes/?page=${page}`);
      expect(three.requests().map((r) => r.query.page)).toEqual(["3", "4", "5"]);
      expect(three.requestStats()).toEqual({ total: 5, retained: 3, capacity: 3 });
      three.resetRequests();
      expect([three.requests(), three.requestStats()]).toEqual([[], { total: 0, retained: 0, capacity: 3 }]);
    });
    await usingEmulator({ requestLogCapacity: 0 }, async (none) => {
      await call(none, "/v1/nodes/");
      expect([none.requests(), none.requestStats().total]).toEqual([[], 1]);
    });
    await expect(startEmulator({ requestLogCapacity: -1 })).rejects.toThrow(/requestLogCapacity/);
    await expect(startEmulator({ faucetSendLogCapacity: 0.5 })).rejects.toThrow(/faucetSendLogCapacity/);
  });

  test("close() ends idle keep-alive connections and is idempotent", async () => {
    const e = await startEmulator();
    const agent = new http.Agent({ keepAlive: true });
    const closed = await new Promise<Promise<void>>((resolve, reject) => {
      http
        .get(`${e.url}/v1/nodes/`, { agent, headers: { Authorization: `Bearer ${e.apiKey}` } }, (res) => {
          const socketClosed = new Promise<void>((done) => res.socket.once("close", () => done()));
          res.resume();
          res.on("end", () => resolve(socketClosed));
        })
        .on("error", reject);
    });
    await Promise.all([e.close(), e.close()]);
    await closed; // the server ended the kept-alive connection
    agent.destroy();
    await expect(fetch(`${e.url}/v1/nodes/`)).rejects.toThrow();
  });

  test("url has no trailing slash; a port in use and invalid options are refused", async () => {
    expect(emulator().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const options of [{ pageSize: 0 }, { port: 70000 }, { seed: 1.5 }])
      await expect(startEmulator(options)).rejects.toThrow(RangeError);
    await expect(startEmulator({ port: Number(new URL(emulator().url).port) })).rejects.toThrow(/EADDRINUSE/);
  });
});
