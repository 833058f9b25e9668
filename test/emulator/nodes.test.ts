import { NODE_FILTERS, SECRET_DETAIL_FIELDS } from "../../src/model";
import type { NodeFilterName, WireNetwork, WireNode } from "../../src/model";
import { startEmulator } from "../../src/emulator";
import { call, listAll, rawRequest, withEmulator } from "../helpers/emulator";

describe("GET /v1/nodes/ and /v1/nodes/{id}/", () => {
  const emulator = withEmulator({ seed: 5 });
  let all: WireNode[];
  const networks = new Map<string, WireNetwork>();
  const byCreated = (x: WireNode, y: WireNode) =>
    x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : x.id < y.id ? -1 : 1;

  beforeAll(async () => {
    all = await listAll(emulator());
    for (const n of all)
      if (!networks.has(n.network)) networks.set(n.network, emulator().admin.getNetwork(n.network)!);
  });

  test("authentication: no header or another scheme 401 not_authenticated; unknown or empty key 401 authentication_failed; on every route", async () => {
    for (const headers of [{}, { Authorization: `Basic ${emulator().apiKey}` }] as Array<
      Record<string, string>
    >) {
      const a = await call(emulator(), "/v1/nodes/", { key: null, headers });
      expect([a.status, a.json]).toEqual([
        401,
        { error: { code: "not_authenticated", message: "Authentication credentials were not provided." } },
      ]);
      expect(a.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    for (const key of ["0".repeat(40), ""]) {
      const a = await call(emulator(), "/v1/nodes/", { key });
      expect([a.status, a.json]).toEqual([
        401,
        { error: { code: "authentication_failed", message: "Invalid API key." } },
      ]);
    }
    const f = emulator().fixtures;
    const routes: Array<[string, string]> = [
      ["GET", `/v1/nodes/${f.beaconNode}/`],
      ["PATCH", `/v1/networks/${f.emptyNetwork}/`],
      ["DELETE", `/v1/networks/${f.emptyNetwork}/`],
      ["POST", "/v1/faucet/goerli"],
    ];
    for (const [method, path] of routes) {
      expect((await call(emulator(), path, { method, key: null })).status).toBe(401);
      expect((await call(emulator(), path, { method, key: "nope" })).status).toBe(401);
    }
    expect(emulator().admin.getNetwork(f.emptyNetwork)).toBeDefined();
    expect(emulator().faucetSends()).toEqual([]);
  });

  test("each organization sees the nodes of its own networks only", async () => {
    const owners = new Set([...networks.values()].map((n) => n.project));
    expect(owners).toEqual(new Set([emulator().fixtures.project, emulator().fixtures.otherProject]));
    expect(all.some((n) => n.network === emulator().fixtures.foreignNetwork)).toBe(false);
    const other = emulator().keys[emulator().fixtures.otherOrganization];
    const nodes = await listAll(emulator(), "", other);
    expect(nodes.some((n) => n.network === emulator().fixtures.foreignNetwork)).toBe(true);
    expect(nodes.some((n) => n.network === emulator().fixtures.networkWithNodes)).toBe(false);
    const foreignNode = nodes.find((n) => n.network === emulator().fixtures.foreignNetwork)!;
    expect((await call(emulator(), `/v1/nodes/${foreignNode.id}/`)).status).toBe(404);
    expect((await call(emulator(), `/v1/nodes/${foreignNode.id}/`, { key: other })).status).toBe(200);
  });

  test("in a consortium network, another organization's node is listed without endpoints or credentials", async () => {
    const inConsortium = all.filter((n) => n.network === emulator().fixtures.consortiumNetwork);
    const foreign = inConsortium.find((n) => n.organization !== emulator().fixtures.organization)!;
    expect(foreign).toBeDefined();
    for (const field of SECRET_DETAIL_FIELDS) expect(foreign.details[field]).toBeUndefined();
    expect(foreign.details.version).toBeDefined();
    const own = inConsortium.find((n) => n.organization === emulator().fixtures.organization)!;
    expect(own.details.https_endpoint).toBeDefined();
    // The third organization sees the consortium too, with the primary's node stripped.
    const third = emulator().keys[foreign.organization];
    const seen = await call(emulator(), `/v1/nodes/${own.id}/`, { key: third });
    expect(seen.status).toBe(200);
    expect(seen.json.details.auth_key).toBeUndefined();
    const filtered = await call(emulator(), `/v1/nodes/?organization=${foreign.organization}`);
    expect(filtered.json.results.map((n: WireNode) => n.id)).toEqual([foreign.id]);
  });

  const valueOf = (name: NodeFilterName, n: WireNode): string | boolean | undefined => {
    const network = networks.get(n.network)!;
    const own = { project: network.project, protocol: network.protocol, projectType: "public" };
    if (name === "publicNetwork") return network.configuration.network;
    if (name === "archive") return n.configuration.archive;
    return name in own ? own[name as keyof typeof own] : (n as unknown as Record<string, string>)[name];
  };
  const names = (Object.keys(NODE_FILTERS) as NodeFilterName[]).filter((k) => k !== "orderBy");

  test.each(names)("%s filters exactly", async (name) => {
    const sample = all.find((n) => valueOf(name, n) !== undefined)!;
    const value = valueOf(name, sample)!;
    const expected = all.filter((n) => valueOf(name, n) === value).sort(byCreated);
    const nodes = await listAll(
      emulator(),
      `${NODE_FILTERS[name].query}=${encodeURIComponent(String(value))}`,
    );
    expect(nodes.map((n) => n.id)).toEqual(expected.map((n) => n.id));
    expect(nodes.length).toBeGreaterThan(0);
  });

  test("filters combine; a combination that cannot match or a foreign id is an empty page; unknown parameters and empty values are ignored", async () => {
    const nodes = await listAll(emulator(), "provider=aws&region=us-east-1&protocol=ethereum");
    const protocol = (n: WireNode) => networks.get(n.network)!.protocol;
    const expected = all.filter(
      (n) => n.provider === "aws" && n.region === "us-east-1" && protocol(n) === "ethereum",
    );
    expect(nodes.map((n) => n.id).sort()).toEqual(expected.map((n) => n.id).sort());
    for (const query of [
      "provider=azure&region=us-east-1",
      `network=${emulator().fixtures.foreignNetwork}`,
    ]) {
      const a = await call(emulator(), `/v1/nodes/?${query}`);
      expect([a.status, a.json]).toEqual([200, { count: 0, next: null, previous: null, results: [] }]);
    }
    const a = await call(emulator(), "/v1/nodes/?colour=blue&region=&limit=3");
    expect([a.status, a.json.count]).toEqual([200, all.length]);
  });

  test("archive accepts true/false, True/False and 1/0, and matches only nodes carrying the flag", async () => {
    const archived = all.filter((n) => n.configuration.archive === true).length;
    const full = all.filter((n) => n.configuration.archive === false).length;
    expect(archived).toBeGreaterThan(0);
    for (const v of ["true", "True", "1"])
      expect((await call(emulator(), `/v1/nodes/?archive=${v}`)).json.count).toBe(archived);
    for (const v of ["false", "False", "0"])
      expect((await call(emulator(), `/v1/nodes/?archive=${v}`)).json.count).toBe(full);
    expect(archived + full).toBeLessThan(all.length);
  });

  test("name is an exact, case-sensitive match", async () => {
    const count = async (name: string) =>
      (await call(emulator(), `/v1/nodes/?name=${encodeURIComponent(name)}`)).json.count;
    expect(await count("Ethereum Mainnet full node")).toBe(2);
    expect(await count("ethereum mainnet full node")).toBe(0);
    expect(await count("Ethereum")).toBe(0);
  });

  test.each([
    ["region", "mars"],
    ["provider", "digitalocean"],
    ["protocol", "solana"],
    ["role", "validator"],
    ["type", "Shared"],
    ["archive", "yes"],
    ["public_network", "ethereum-goerli"],
    ["project_type", "private"],
    ["status", "RUNNING"],
    ["project", "PR-abc"],
    ["organization", "ORG-1"],
    ["network", "NW-1/2"],
    ["order_by", "id"],
  ])("%s=%s: 400 validation_error with fields.%s", async (query, value) => {
    const a = await call(emulator(), `/v1/nodes/?${query}=${encodeURIComponent(value)}`);
    expect([a.status, a.headers.get("content-type"), a.json.error.code]).toEqual([
      400,
      "application/json",
      "validation_error",
    ]);
    expect(typeof a.json.error.message).toBe("string");
    expect(Object.keys(a.json.error.fields)).toEqual([query]);
    expect(a.json.error.fields[query][0]).toEqual(expect.any(String));
  });

  test("every invalid value is reported at once (a bad page is judged after)", async () => {
    const a = await call(emulator(), "/v1/nodes/?region=mars&type=x&page=abc");
    expect([a.status, Object.keys(a.json.error.fields).sort()]).toEqual([400, ["region", "type"]]);
  });

  test("default and created_at: oldest first; -created_at: newest first", async () => {
    const expected = [...all].sort(byCreated).map((n) => n.id);
    expect(all.map((n) => n.id)).toEqual(expected);
    expect((await listAll(emulator(), "order_by=created_at")).map((n) => n.id)).toEqual(expected);
    expect((await listAll(emulator(), "order_by=-created_at")).map((n) => n.id)).toEqual(
      [...expected].reverse(),
    );
  });

  test("name ascending and descending, id ascending between equal names", async () => {
    const asc = await listAll(emulator(), "order_by=name");
    const desc = await listAll(emulator(), "order_by=-name");
    const key = (n: WireNode) => n.name;
    for (let i = 1; i < asc.length; i++) {
      expect(key(asc[i - 1]) <= key(asc[i])).toBe(true);
      if (key(asc[i - 1]) === key(asc[i])) expect(asc[i - 1].id < asc[i].id).toBe(true);
      expect(key(desc[i - 1]) >= key(desc[i])).toBe(true);
      if (key(desc[i - 1]) === key(desc[i])) expect(desc[i - 1].id < desc[i].id).toBe(true);
    }
    const dups = asc.filter((n) => n.name === "Ethereum Mainnet full node").map((n) => n.id);
    expect(dups).toEqual(["ND-100-000-002", "ND-100-000-003"]);
    expect(desc.filter((n) => n.name === "Ethereum Mainnet full node").map((n) => n.id)).toEqual(dups);
  });

  test("pages of 10 with count and absolute next/previous links keeping the other parameters", async () => {
    const first = await call(emulator(), "/v1/nodes/?order_by=name&type=dedicated");
    const count = first.json.count;
    expect([first.json.previous, first.json.results.length, count > 10]).toEqual([null, 10, true]);
    expect(first.json.next).toBe(`${emulator().url}/v1/nodes/?order_by=name&type=dedicated&page=2`);
    const second = await call(emulator(), first.json.next.slice(emulator().url.length));
    expect(second.json.previous).toBe(`${emulator().url}/v1/nodes/?order_by=name&type=dedicated`);
    expect(second.json.count).toBe(count);

    const p2 = await call(emulator(), "/v1/nodes/?page=2&type=dedicated");
    expect(p2.json.previous).toBe(`${emulator().url}/v1/nodes/?type=dedicated`);
  });

  test("following next visits every node once, in order", async () => {
    const pages = Math.ceil(all.length / 10);
    expect(pages).toBeGreaterThanOrEqual(4);
    const last = await call(emulator(), `/v1/nodes/?page=${pages}`);
    expect(last.json.next).toBeNull();
    expect(last.json.previous).toBe(`${emulator().url}/v1/nodes/?page=${pages - 1}`);
    expect(last.json.results).toHaveLength(all.length - (pages - 1) * 10);
    expect(new Set(all.map((n) => n.id)).size).toBe(all.length);
    const byLast = await call(emulator(), "/v1/nodes/?page=last");
    expect(byLast.json.results).toEqual(last.json.results);
  });

  test("page 0, -1, abc, 1.5, empty or past the end: 404 Invalid page.; an empty result has a page 1", async () => {
    for (const query of ["0", "-1", "abc", "1.5", "", "999"]
      .map((p) => `page=${p}`)
      .concat("name=nothing&page=2")) {
      const a = await call(emulator(), `/v1/nodes/?${query}`);
      expect([a.status, a.json]).toEqual([404, { error: { code: "not_found", message: "Invalid page." } }]);
    }
    const a = await call(emulator(), "/v1/nodes/?name=nothing&page=1");
    expect([a.status, a.json]).toEqual([200, { count: 0, next: null, previous: null, results: [] }]);
  });

  test("links use the request's Host header; an unsafe Host falls back to the server's URL", async () => {
    const a = await rawRequest(emulator(), "/v1/nodes/", { headers: { Host: "nodes.example.test:8443" } });
    expect(JSON.parse(a.text).next).toBe("http://nodes.example.test:8443/v1/nodes/?page=2");
    const b = await rawRequest(emulator(), "/v1/nodes/", { headers: { Host: "evil.test/x?@" } });
    expect(JSON.parse(b.text).next).toBe(`${emulator().url}/v1/nodes/?page=2`);
  });

  test("pageSize option", async () => {
    const small = await startEmulator({ seed: 5, pageSize: 25 });
    const a = await call(small, "/v1/nodes/").finally(() => small.close());
    expect([a.json.results.length, a.json.count]).toEqual([25, all.length]);
  });

  test("returns the node exactly as listed", async () => {
    for (const node of all.slice(0, 5)) {
      const a = await call(emulator(), `/v1/nodes/${node.id}/`);
      expect([a.status, a.headers.get("content-type"), a.json]).toEqual([200, "application/json", node]);
    }
  });

  test("the beacon node carries every documented details field", async () => {
    const a = await call(emulator(), `/v1/nodes/${emulator().fixtures.beaconNode}/`);
    const fields = "mode version api_namespaces graphql_endpoint https_endpoint wss_endpoint beacon_endpoint";
    expect(Object.keys(a.json.details).sort()).toEqual(
      `${fields} auth_username auth_password auth_key`.split(" ").sort(),
    );
    expect(a.json.configuration).toEqual({ archive: true });
    expect(a.json.creator.organization.id).toBe(emulator().fixtures.organization);
  });

  test("an unknown or ill-formed id: 404", async () => {
    for (const id of ["ND-999-999-999", "nd-100-000-001", "NW-100-000-1", "ND-100-000-001x"]) {
      const a = await call(emulator(), `/v1/nodes/${id}/`);
      expect([a.status, a.json.error.code]).toEqual([404, "not_found"]);
    }
  });
});
