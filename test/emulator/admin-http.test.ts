import { ADMIN_PREFIX, deriveAdminKey } from "../../src/emulator";
import { call, withEmulator } from "../helpers/emulator";

describe("admin endpoints (/_emulator/) and the admin object", () => {
  const emulator = withEmulator({ seed: 23, faucetDailyLimit: 10 }, { each: true });
  const admin = (path: string, options: { method?: string; body?: unknown } = {}) =>
    call(emulator(), `${ADMIN_PREFIX}${path}`, { ...options, key: emulator().adminKey });
  const drip = () =>
    call(emulator(), "/v1/faucet/goerli", {
      method: "POST",
      body: { address: emulator().fixtures.faucetAddress },
    });
  const node = () => emulator().fixtures.beaconNode;

  test("the admin key is deterministic per seed, distinct from every API key, and listed as a secret", () => {
    expect(ADMIN_PREFIX).toBe("/_emulator/");
    expect(emulator().adminKey).toBe(deriveAdminKey(23));
    expect(emulator().adminKey).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.values(emulator().keys)).not.toContain(emulator().adminKey);
    expect(emulator().secrets()).toContain(emulator().adminKey);
  });

  test("no key, an organization's key or a wrong key: 401 on every endpoint; unknown path 404; wrong method 405", async () => {
    const paths = [
      "faults",
      `nodes/${node()}/rotate-credentials`,
      `keys/${emulator().fixtures.organization}/rotate`,
    ];
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

  test("route delays set on a running emulator take effect; bad ones are refused", async () => {
    const put = await admin("route-delays", { method: "PUT", body: { faucetMs: 300, networkUpdateMs: 0 } });
    expect([put.status, put.json]).toEqual([200, { faucetMs: 300, networkUpdateMs: 0 }]);
    expect(emulator().routeDelays()).toEqual({ faucetMs: 300, networkUpdateMs: 0 });
    expect((await drip()).status).toBe(200);
    expect(emulator().requests()[0].fault).toBe("route-delay");
    expect((await admin("route-delays")).json).toEqual({ faucetMs: 300, networkUpdateMs: 0 });
    const bad = await admin("route-delays", { method: "PUT", body: { faucetMs: -5 } });
    expect([bad.status, bad.json.error.code, bad.json.error.message]).toEqual([
      400,
      "validation_error",
      expect.stringContaining("faucetMs"),
    ]);
  });

  test("queued faults and the send counts a harness judges duplicates by", async () => {
    const faults = [{ malformed: "truncated-json" }, { status: 504, after: "processing" }];
    const queued = await admin("faults/queue", { method: "POST", body: { faults } });
    expect([queued.status, queued.json]).toEqual([200, { random: {}, queued: 2 }]);
    expect((await drip()).json).toBeUndefined(); // truncated
    expect((await drip()).status).toBe(504);
    const byAddress = { [emulator().fixtures.faucetAddress.toLowerCase()]: 2 };
    expect((await admin("faucet/sends")).json).toEqual({ total: 2, byAddress });
    await admin("faults/queue", { method: "POST", body: { faults: [{ status: 503 }] } });
    expect((await admin("faults/queue", { method: "DELETE" })).json.queued).toBe(0);
    expect((await call(emulator(), "/v1/nodes/")).status).toBe(200);
    expect(
      (await admin("faults/queue", { method: "POST", body: { faults: [{ status: 404 }] } })).status,
    ).toBe(400);
    expect((await admin("faults/queue", { method: "POST", body: [] })).status).toBe(400);
  });

  test("random faults: set, read back; admin requests are never faulted nor recorded", async () => {
    const random = { rate429: 1, malformedRate: 0, match: { method: "GET" } };
    expect((await admin("faults", { method: "PUT", body: random })).json).toEqual({ random, queued: 0 });
    expect((await call(emulator(), "/v1/nodes/")).status).toBe(429);
    expect((await admin("faults")).status).toBe(200);
    expect((await admin("requests")).json).toEqual({ total: 1, retained: 1, capacity: 10_000 });
    expect(emulator().requests()).toEqual([expect.objectContaining({ route: "/v1/nodes/" })]);
    const bad = await admin("faults", { method: "PUT", body: { rate429: 3 } });
    expect([bad.status, bad.json.error.message]).toEqual([400, expect.stringContaining("rate429")]);
    expect(emulator().faults()).toEqual(random);
  });

  test("PATCH /_emulator/nodes/{id} changes status and name as every API caller then sees them", async () => {
    const body = { status: "maintenance", name: "Rehearsal node" };
    const patched = await admin(`nodes/${node()}`, { method: "PATCH", body });
    expect([patched.status, patched.json]).toEqual([200, expect.objectContaining({ id: node(), ...body })]);
    expect((await call(emulator(), `/v1/nodes/${node()}/`)).json).toMatchObject(body);
    const listed = await call(emulator(), "/v1/nodes/?status=maintenance&name=Rehearsal%20node");
    expect(listed.json.results.map((n: { id: string }) => n.id)).toEqual([node()]);
  });

  test("a bad or unknown node field: 400 naming it and what is allowed, nothing changed; a missing node: 404", async () => {
    const bad = await admin(`nodes/${node()}`, { method: "PATCH", body: { status: "asleep", nmae: "x" } });
    expect([bad.status, bad.json.error.code]).toEqual([400, "validation_error"]);
    expect(bad.json.error.message).toContain('status: got "asleep"; expected one of pending, running,');
    expect(bad.json.error.fields.nmae[0]).toContain("did you mean `name`?");
    const blank = await admin(`nodes/${node()}`, { method: "PATCH", body: { name: " " } });
    expect(blank.json.error.fields).toEqual({ name: ['expected a non-empty name (got " ")'] });
    expect(() => emulator().admin.updateNode(node(), { status: "off" as never })).toThrow(RangeError);
    expect(emulator().admin.getNode(node())?.status).toBe("running");
    const missing = await admin("nodes/ND-999-999-999", { method: "PATCH", body: { status: "failed" } });
    expect([missing.status, missing.json.error.code]).toEqual([404, "not_found"]);
  });

  test("rotate-credentials: new auth_* values, and every endpoint URL carries the new key", async () => {
    const before = emulator().admin.getNode(node())!.details as Record<string, string>;
    const rotated = await admin(`nodes/${node()}/rotate-credentials`, { method: "POST" });
    expect(rotated.status).toBe(200);
    const after = (await call(emulator(), `/v1/nodes/${node()}/`)).json.details;
    expect(rotated.json.details).toEqual(after);
    for (const field of ["https_endpoint", "wss_endpoint", "graphql_endpoint", "beacon_endpoint"]) {
      expect(before[field]).toContain(before.auth_key);
      expect(after[field]).toBe(before[field].replace(before.auth_key, after.auth_key));
    }
    for (const field of ["auth_username", "auth_password", "auth_key"]) {
      expect(after[field]).toEqual(expect.any(String));
      expect(after[field]).not.toBe(before[field]);
      expect(emulator().secrets()).toContain(after[field]);
    }
    expect(JSON.stringify(after)).not.toContain(before.auth_key);
    expect(emulator().admin.rotateCredentials(node())!.details.auth_key).not.toBe(after.auth_key);
    expect((await admin("nodes/ND-999-999-999/rotate-credentials", { method: "POST" })).status).toBe(404);
    const pending = (await call(emulator(), "/v1/nodes/?status=pending")).json.results[0];
    const refused = await admin(`nodes/${pending.id}/rotate-credentials`, { method: "POST" });
    const why = `node ${pending.id} has no credentials to rotate yet (status pending)`;
    expect([refused.status, refused.json.error.message]).toEqual([400, why]);
  });

  test("keys/{organization}/rotate answers the new key; the old one is refused with 401 from then on", async () => {
    const { organization, otherOrganization } = emulator().fixtures;
    const [old, otherKey] = [emulator().apiKey, emulator().keys[otherOrganization]];
    const rotated = await admin(`keys/${organization}/rotate`, { method: "POST" });
    expect([rotated.status, rotated.json]).toEqual([
      200,
      { apiKey: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ]);
    const refused = await call(emulator(), "/v1/nodes/", { key: old });
    const error = { error: { code: "authentication_failed", message: "Invalid API key." } };
    expect([refused.status, refused.json]).toEqual([401, error]);
    expect((await call(emulator(), "/v1/nodes/", { key: rotated.json.apiKey })).status).toBe(200);
    expect([emulator().apiKey, emulator().keys[organization]]).toEqual([
      rotated.json.apiKey,
      rotated.json.apiKey,
    ]);
    expect(emulator().keys[otherOrganization]).toBe(otherKey);
    expect(emulator().secrets()).toEqual(expect.arrayContaining([old, rotated.json.apiKey]));
    expect(emulator().admin.rotateKey(organization)).not.toBe(rotated.json.apiKey);
    expect((await admin("keys/RG-999-999/rotate", { method: "POST" })).status).toBe(404);
    expect(emulator().admin.rotateKey("constructor")).toBeUndefined();
  });

  test("renameNetwork, setNodeStatus, deleteNetwork and removeNodes show through the API; values are checked with the model", async () => {
    const { admin: direct, fixtures } = emulator();
    const network = `/v1/networks/${fixtures.networkWithNodes}/`;
    expect(direct.renameNetwork(fixtures.networkWithNodes, "Renamed in the UI")).toBe(true);
    expect((await call(emulator(), network, { method: "PATCH" })).json.name).toBe("Renamed in the UI");
    expect(direct.setNodeStatus(node(), "stopped")).toBe(true);
    expect((await call(emulator(), `/v1/nodes/${node()}/`)).json.status).toBe("stopped");
    expect(direct.getNode(node())).toEqual((await call(emulator(), `/v1/nodes/${node()}/`)).json);
    const total = (await call(emulator(), "/v1/nodes/")).json.count;
    const removed = direct.getNetwork(fixtures.networkWithNodes)!.nodes.length;
    expect(direct.deleteNetwork(fixtures.networkWithNodes)).toBe(true);
    expect(direct.getNetwork(fixtures.networkWithNodes)).toBeUndefined();
    expect((await call(emulator(), "/v1/nodes/")).json.count).toBe(total - removed);
    expect((await call(emulator(), `/v1/nodes/${node()}/`)).status).toBe(404);
    expect(direct.deleteNetwork(fixtures.networkWithNodes)).toBe(false);
    expect(direct.renameNetwork("NW-999-999-9", "x")).toBe(false);
    expect(direct.setNodeStatus("ND-999-999-999", "running")).toBe(false);
    expect(direct.removeNodes(fixtures.emptyNetwork)).toBe(0);
    expect(() => direct.setNodeStatus(fixtures.beaconNode, "sleeping" as never)).toThrow(RangeError);
    expect(() => direct.renameNetwork(fixtures.emptyNetwork, "")).toThrow(RangeError);
  });
});
