import * as http from "http";
import { startEmulator } from "../../src/emulator";
import { call, rawRequest, withEmulator } from "../helpers/emulator";

describe("paths, methods, request log and lifecycle", () => {
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
  ])("%s: 404", async (path) => {
    const a = await rawRequest(emulator(), path, { method: path.includes("networks") ? "PATCH" : "GET" });
    expect(a.status).toBe(404);
    expect(a.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(a.text).error.code).toBe("not_found");
  });

  test("a percent-encoded id that decodes to a valid id is served", async () => {
    expect((await rawRequest(emulator(), "/v1/nodes/ND%2D100%2D000%2D001/")).status).toBe(200);
  });

  test("unknown paths: 404 error JSON, without needing a key; a missing slash gets a hint", async () => {
    const a = await call(emulator(), "/v2/nodes/", { key: null });
    expect(a.status).toBe(404);
    expect(a.json.error.code).toBe("not_found");
    const b = await call(emulator(), "/v1/nodes");
    expect(b.status).toBe(404);
    expect(b.json.error.message).toContain("did you mean /v1/nodes/?");
    expect((await call(emulator(), "/")).status).toBe(404);
  });

  test("wrong method: 405 error JSON with Allow (after authentication)", async () => {
    const a = await call(emulator(), "/v1/nodes/", { method: "POST", body: {} });
    expect(a.status).toBe(405);
    expect(a.headers.get("allow")).toBe("GET, HEAD");
    expect(a.json).toEqual({ error: { code: "method_not_allowed", message: 'Method "POST" not allowed.' } });
    const b = await call(emulator(), `/v1/networks/${emulator().fixtures.emptyNetwork}/`);
    expect(b.status).toBe(405);
    expect(b.headers.get("allow")).toBe("PATCH, DELETE");
    expect((await call(emulator(), "/v1/nodes/", { method: "PUT", key: null })).status).toBe(401);
  });

  test("HEAD is served as GET without a body", async () => {
    const a = await call(emulator(), "/v1/nodes/", { method: "HEAD" });
    expect(a.status).toBe(200);
    expect(a.text).toBe("");
  });

  test("a body over 1 MiB: 413", async () => {
    const a = await call(emulator(), `/v1/networks/${emulator().fixtures.emptyNetwork}/`, {
      method: "PATCH",
      body: { name: "x".repeat(1024 * 1024 + 10) },
    });
    expect(a.status).toBe(413);
    expect(a.json.error.code).toBe("payload_too_large");
  });

  test("the request log records method, path, query and status, never headers", async () => {
    emulator().resetRequests();
    await call(emulator(), "/v1/nodes/?region=uksouth&page=1&region=eu3");
    await call(emulator(), "/v1/nodes/ND-999-999-999/", { key: null });
    expect(emulator().requests()).toEqual([
      {
        method: "GET",
        route: "/v1/nodes/",
        path: "/v1/nodes/",
        query: { region: "eu3", page: "1" },
        status: 200,
      },
      {
        method: "GET",
        route: "/v1/nodes/{id}/",
        path: "/v1/nodes/ND-999-999-999/",
        query: {},
        status: 401,
      },
    ]);
    expect(JSON.stringify(emulator().requests())).not.toContain(emulator().apiKey);
    emulator().resetRequests();
    expect(emulator().requests()).toEqual([]);
  });

  test("close() ends idle keep-alive connections promptly and is idempotent", async () => {
    const e = await startEmulator();
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${e.url}/v1/nodes/`, { agent, headers: { Authorization: `Bearer ${e.apiKey}` } }, (res) => {
          res.resume();
          res.on("end", resolve);
        })
        .on("error", reject);
    });
    const started = Date.now();
    await Promise.all([e.close(), e.close()]);
    expect(Date.now() - started).toBeLessThan(1000);
    agent.destroy();
    await expect(fetch(`${e.url}/v1/nodes/`)).rejects.toThrow();
  });

  test("url has no trailing slash; port option; invalid options are refused", async () => {
    expect(emulator().url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(startEmulator({ pageSize: 0 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ port: 70000 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ seed: 1.5 })).rejects.toThrow(RangeError);
    const port = Number(new URL(emulator().url).port);
    await expect(startEmulator({ port })).rejects.toThrow(/EADDRINUSE/);
  });
});
