import { ADMIN_PREFIX, deriveAdminKey } from "../../src/emulator";
import { call, drip, withEmulator } from "../helpers/emulator";

describe("admin endpoints (/_emulator/) and the admin object", () => {
  const emulator = withEmulator({ seed: 23, faucetDailyLimit: 10 }, { each: true });
  const admin = (path: string, options: { method?: string; body?: unknown } = {}) =>
    call(emulator(), `${ADMIN_PREFIX}${path}`, { ...options, key: emulator().adminKey });
  const node = () => emulator().fixtures.beaconNode;
  const api = (path: string, options = {}) => call(emulator(), path, options);

  test("the admin key: deterministic per seed, no API key's, a secret; without it 401 on every endpoint; unknown path 404; wrong method 405", async () => {
    expect(emulator().adminKey).toBe(deriveAdminKey(23));
    expect(emulator().adminKey).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.values(emulator().keys)).not.toContain(emulator().adminKey);
    expect(emulator().secrets()).toContain(emulator().adminKey);
    const { organization } = emulator().fixtures;
    const paths = ["faults", `nodes/${node()}/rotate-credentials`, `keys/${organization}/rotate`];
    for (const key of [null, emulator().apiKey, "nope"]) {
      for (const path of paths) {
        const a = await call(emulator(), `${ADMIN_PREFIX}${path}`, { method: "POST", key });
        expect([a.status, a.json.error.code]).toEqual([401, "authentication_failed"]);
      }
    }
    expect((await admin("nothing")).status).toBe(404);
    const wrong = await admin("faucet/sends", { method: "DELETE" });
    expect([wrong.status, wrong.headers.get("allow")]).toEqual([405, "GET"]);
    expect((await admin(`nodes/${node()}`, { method: "PUT", body: {} })).status).toBe(405);
  });

  test("route delays, queued and random faults, send counts and request stats; admin requests are neither faulted nor recorded", async () => {
    const delays = { faucetMs: 300, networkUpdateMs: 0 };
    expect((await admin("route-delays", { method: "PUT", body: delays })).json).toEqual(delays);
    expect([emulator().routeDelays(), (await admin("route-delays")).json]).toEqual([delays, delays]);
    expect((await drip(emulator())).status).toBe(200);
    const bad = await admin("route-delays", { method: "PUT", body: { faucetMs: -5 } });
    expect([bad.status, bad.json.error.code]).toEqual([400, "validation_error"]);
    expect(bad.json.error.message).toContain("faucetMs");
    const faults = [{ malformed: "truncated-json" }, { status: 504, after: "processing" }];
    const queued = await admin("faults/queue", { method: "POST", body: { faults } });
    expect(queued.json).toEqual({ random: {}, queued: 2 });
    expect((await drip(emulator())).json).toBeUndefined(); // truncated
    expect((await drip(emulator())).status).toBe(504);
    const byAddress = { [emulator().fixtures.faucetAddress.toLowerCase()]: 3 };
    expect((await admin("faucet/sends")).json).toEqual({ total: 3, byAddress });
    await admin("faults/queue", { method: "POST", body: { faults: [{ status: 503 }] } });
    expect((await admin("faults/queue", { method: "DELETE" })).json.queued).toBe(0);
    for (const body of [{ faults: [{ status: 404 }] }, []])
      expect((await admin("faults/queue", { method: "POST", body })).status).toBe(400);
    const random = { rate429: 1, malformedRate: 0, match: { method: "GET" } };
    expect((await admin("faults", { method: "PUT", body: random })).json).toEqual({ random, queued: 0 });
    expect((await api("/v1/nodes/")).status).toBe(429);
    expect((await admin("faults")).json.random).toEqual(random);
    expect((await admin("faults", { method: "PUT", body: { rate429: 3 } })).status).toBe(400);
    expect(emulator().faults()).toEqual(random);
    expect((await admin("requests")).json).toEqual({ total: 4, retained: 4, capacity: 10_000 });
    expect(emulator().requests()).toMatchObject([
      { route: "/v1/faucet/goerli", fault: "route-delay" },
      { route: "/v1/faucet/goerli", fault: "malformed-truncated-json+route-delay" },
      { route: "/v1/faucet/goerli", fault: "504-after-processing+route-delay" },
      { route: "/v1/nodes/", fault: "429" },
    ]);
  });

  test("PATCH /_emulator/nodes/{id} changes status and name as every API caller then sees them; bad fields 400, nothing changed; missing 404", async () => {
    const body = { status: "maintenance", name: "Rehearsal node" };
    const patched = await admin(`nodes/${node()}`, { method: "PATCH", body });
    expect([patched.status, patched.json]).toEqual([200, expect.objectContaining({ id: node(), ...body })]);
    expect((await api(`/v1/nodes/${node()}/`)).json).toMatchObject(body);
    const listed = await api("/v1/nodes/?status=maintenance&name=Rehearsal%20node");
    expect(listed.json.results[0].id).toBe(node());
    const bad = await admin(`nodes/${node()}`, { method: "PATCH", body: { status: "asleep", nmae: "x" } });
    expect([bad.status, bad.json.error.code]).toEqual([400, "validation_error"]);
    expect(Object.keys(bad.json.error.fields).sort()).toEqual(["nmae", "status"]);
    expect(bad.json.error.fields.nmae[0]).toContain("`name`");
    const blank = await admin(`nodes/${node()}`, { method: "PATCH", body: { name: " " } });
    expect(Object.keys(blank.json.error.fields)).toEqual(["name"]);
    expect(() => emulator().admin.updateNode(node(), { status: "off" as never })).toThrow(RangeError);
    expect(emulator().admin.getNode(node())).toMatchObject(body);
    const missing = await admin("nodes/ND-999-999-999", { method: "PATCH", body: { status: "failed" } });
    expect([missing.status, missing.json.error.code]).toEqual([404, "not_found"]);
  });

  test("rotate-credentials: new auth_* values, and every endpoint URL carries the new key", async () => {
    const before = emulator().admin.getNode(node())!.details as Record<string, string>;
    const rotated = await admin(`nodes/${node()}/rotate-credentials`, { method: "POST" });
    const after = (await api(`/v1/nodes/${node()}/`)).json.details;
    expect([rotated.status, rotated.json.details]).toEqual([200, after]);
    for (const field of ["https_endpoint", "wss_endpoint", "graphql_endpoint", "beacon_endpoint"])
      expect(after[field]).toBe(before[field].replace(before.auth_key, after.auth_key));
    for (const field of ["auth_username", "auth_password", "auth_key"]) {
      expect(after[field]).not.toBe(before[field]);
      expect(emulator().secrets()).toContain(after[field]);
    }
    expect(JSON.stringify(after)).not.toContain(before.auth_key);
    expect(emulator().admin.rotateCredentials(node())!.details.auth_key).not.toBe(after.auth_key);
    expect((await admin("nodes/ND-999-999-999/rotate-credentials", { method: "POST" })).status).toBe(404);
    const pending = (await api("/v1/nodes/?status=pending")).json.results[0];
    const refused = await admin(`nodes/${pending.id}/rotate-credentials`, { method: "POST" });
    expect([refused.status, refused.json.error.code]).toEqual([400, "validation_error"]);
    expect(refused.json.error.message).toContain(pending.id);
  });

  test("keys/{organization}/rotate answers the new key; the old one is refused with 401 from then on", async () => {
    const { organization, otherOrganization } = emulator().fixtures;
    const [old, otherKey] = [emulator().apiKey, emulator().keys[otherOrganization]];
    const rotated = await admin(`keys/${organization}/rotate`, { method: "POST" });
    const apiKey = rotated.json.apiKey;
    expect([rotated.status, apiKey]).toEqual([200, expect.stringMatching(/^[0-9a-f]{40}$/)]);
    const refused = await api("/v1/nodes/", { key: old });
    expect([refused.status, refused.json.error.code]).toEqual([401, "authentication_failed"]);
    expect((await api("/v1/nodes/", { key: apiKey })).status).toBe(200);
    expect([emulator().apiKey, emulator().keys[organization]]).toEqual([apiKey, apiKey]);
    expect(emulator().keys[otherOrganization]).toBe(otherKey);
    expect(emulator().secrets()).toEqual(expect.arrayContaining([old, apiKey]));
    expect(emulator().admin.rotateKey(organization)).not.toBe(apiKey);
    expect((await admin("keys/RG-999-999/rotate", { method: "POST" })).status).toBe(404);
    expect(emulator().admin.rotateKey("constructor")).toBeUndefined();
  });

  test("renameNetwork, setNodeStatus, deleteNetwork and removeNodes show through the API; values are checked with the model", async () => {
    const { admin: direct, fixtures } = emulator();
    const network = fixtures.networkWithNodes;
    expect(direct.renameNetwork(network, "Renamed in the UI")).toBe(true);
    expect((await api(`/v1/networks/${network}/`, { method: "PATCH" })).json.name).toBe("Renamed in the UI");
    expect(direct.setNodeStatus(node(), "stopped")).toBe(true);
    const seen = (await api(`/v1/nodes/${node()}/`)).json;
    expect([seen.status, direct.getNode(node())]).toEqual(["stopped", seen]);
    const total = (await api("/v1/nodes/")).json.count;
    const removed = direct.getNetwork(network)!.nodes.length;
    expect([direct.deleteNetwork(network), direct.getNetwork(network)]).toEqual([true, undefined]);
    expect((await api("/v1/nodes/")).json.count).toBe(total - removed);
    expect((await api(`/v1/nodes/${node()}/`)).status).toBe(404);
    expect(direct.deleteNetwork(network)).toBe(false);
    expect(direct.renameNetwork("NW-999-999-9", "x")).toBe(false);
    expect(direct.setNodeStatus("ND-999-999-999", "running")).toBe(false);
    expect(direct.removeNodes(fixtures.emptyNetwork)).toBe(0);
    expect(() => direct.setNodeStatus(fixtures.beaconNode, "sleeping" as never)).toThrow(RangeError);
    expect(() => direct.renameNetwork(fixtures.emptyNetwork, "")).toThrow(RangeError);
  });
});
