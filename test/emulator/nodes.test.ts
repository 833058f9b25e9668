import { NODE_FILTERS, SECRET_DETAIL_FIELDS } from "../../src/model";
import type { NodeFilterName, WireNetwork, WireNode } from "../../src/model";
import { call, listAll, rawRequest, withEmulator } from "../helpers/emulator";

const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };
const ids = (nodes: WireNode[]) => nodes.map((n) => n.id);

describe("GET /v1/nodes/ and /v1/nodes/{id}/", () => {
  const emulator = withEmulator({ seed: 5 });
  let all: WireNode[];
  const networks = new Map<string, WireNetwork>();
  const byCreated = (x: WireNode, y: WireNode) =>
    x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : x.id < y.id ? -1 : 1;
  const count = async (query: string) => (await call(emulator(), `/v1/nodes/?${query}`)).json.count;

  beforeAll(async () => {
    all = await listAll(emulator());
    for (const n of all) networks.set(n.network, emulator().admin.getNetwork(n.network)!);
  });

  test("authentication on every route: no header or another scheme 401 not_authenticated; an unknown or empty key 401 authentication_failed", async () => {
    const f = emulator().fixtures;
    const routes: Array<[string, string]> = [
      ["GET", "/v1/nodes/"],
      ["GET", `/v1/nodes/${f.beaconNode}/`],
      ["PATCH", `/v1/networks/${f.emptyNetwork}/`],
      ["DELETE", `/v1/networks/${f.emptyNetwork}/`],
      ["POST", "/v1/faucet/goerli"],
    ];
    const cases: Array<[string | null, Record<string, string>, string]> = [
      [null, {}, "not_authenticated"],
      [null, { Authorization: `Basic ${emulator().apiKey}` }, "not_authenticated"],
      ["0".repeat(40), {}, "authentication_failed"],
      ["", {}, "authentication_failed"],
    ];
    for (const [method, path] of routes) {
      for (const [key, headers, code] of cases) {
        const a = await call(emulator(), path, { method, key, headers });
        expect([method, path, a.status, a.json.error.code]).toEqual([method, path, 401, code]);
        expect(a.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    }
    expect(emulator().admin.getNetwork(f.emptyNetwork)).toBeDefined();
    expect(emulator().faucetSends()).toEqual([]);
  });

  test("each organization sees the nodes of its own networks only", async () => {
    const f = emulator().fixtures;
    const projects = new Set([...networks.values()].map((n) => n.project));
    expect(projects).toEqual(new Set([f.project, f.otherProject]));
    const other = emulator().keys[f.otherOrganization];
    const nodes = await listAll(emulator(), "", other);
    expect(nodes.some((n) => n.network === f.networkWithNodes)).toBe(false);
    const foreignNode = nodes.find((n) => n.network === f.foreignNetwork)!;
    expect((await call(emulator(), `/v1/nodes/${foreignNode.id}/`)).status).toBe(404);
    expect((await call(emulator(), `/v1/nodes/${foreignNode.id}/`, { key: other })).status).toBe(200);
  });

  test("in a consortium network, another organization's node is listed without endpoints or credentials", async () => {
    const inConsortium = all.filter((n) => n.network === emulator().fixtures.consortiumNetwork);
    const foreign = inConsortium.find((n) => n.organization !== emulator().fixtures.organization)!;
    for (const field of SECRET_DETAIL_FIELDS) expect(foreign.details[field]).toBeUndefined();
    expect(foreign.details.version).toBeDefined();
    const own = inConsortium.find((n) => n.organization === emulator().fixtures.organization)!;
    expect(own.details.https_endpoint).toBeDefined();
    // The third organization sees the consortium too, with the primary's node stripped.
    const seen = await call(emulator(), `/v1/nodes/${own.id}/`, {
      key: emulator().keys[foreign.organization],
    });
    expect([seen.status, seen.json.details.auth_key]).toEqual([200, undefined]);
    const listed = await call(emulator(), `/v1/nodes/?organization=${foreign.organization}`);
    expect(ids(listed.json.results)).toEqual([foreign.id]);
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
    const value = valueOf(name, all.find((n) => valueOf(name, n) !== undefined) as WireNode);
    const expected = all.filter((n) => valueOf(name, n) === value).sort(byCreated);
    const nodes = await listAll(emulator(), `${NODE_FILTERS[name].query}=${encodeURIComponent(`${value}`)}`);
    expect(ids(nodes)).toEqual(ids(expected));
    expect(nodes.length).toBeGreaterThan(0);
  });

  test("filters combine; no match or a foreign id is an empty page; unknown parameters and empty values are ignored; archive and name", async () => {
    const protocol = (n: WireNode) => networks.get(n.network)!.protocol;
    const expected = all.filter(
      (n) => n.provider === "aws" && n.region === "us-east-1" && protocol(n) === "ethereum",
    );
    const nodes = await listAll(emulator(), "provider=aws&region=us-east-1&protocol=ethereum");
    expect(ids(nodes).sort()).toEqual(ids(expected).sort());
    for (const query of [
      "provider=azure&region=us-east-1",
      `network=${emulator().fixtures.foreignNetwork}`,
    ]) {
      expect((await call(emulator(), `/v1/nodes/?${query}`)).json).toEqual(EMPTY_PAGE);
    }
    expect(await count("colour=blue&region=&limit=3")).toBe(all.length);
    const archived = all.filter((n) => n.configuration.archive === true).length;
    const full = all.filter((n) => n.configuration.archive === false).length;
    for (const v of ["true", "True", "1"]) expect(await count(`archive=${v}`)).toBe(archived);
    for (const v of ["false", "False", "0"]) expect(await count(`archive=${v}`)).toBe(full);
    expect(archived > 0 && archived + full < all.length).toBe(true);
    const name = (text: string) => count(`name=${encodeURIComponent(text)}`);
    expect([
      await name("Ethereum Mainnet full node"),
      await name("ethereum mainnet full node"),
      await name("Ethereum"),
    ]).toEqual([2, 0, 0]);
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
    expect([a.status, a.json.error.code]).toEqual([400, "validation_error"]);
    expect(a.headers.get("content-type")).toBe("application/json");
    expect(a.json.error.fields).toEqual({ [query]: [expect.any(String)] });
  });

  test("every invalid value is reported at once (a bad page is judged after)", async () => {
    const a = await call(emulator(), "/v1/nodes/?region=mars&type=x&page=abc");
    expect([a.status, Object.keys(a.json.error.fields).sort()]).toEqual([400, ["region", "type"]]);
  });

  test("order: created_at (the default) oldest first, -created_at newest first; name both ways, id ascending between equal names", async () => {
    const expected = ids([...all].sort(byCreated));
    expect(ids(all)).toEqual(expected);
    expect(ids(await listAll(emulator(), "order_by=created_at"))).toEqual(expected);
    expect(ids(await listAll(emulator(), "order_by=-created_at"))).toEqual([...expected].reverse());
    for (const [query, sign] of [
      ["order_by=name", 1],
      ["order_by=-name", -1],
    ] as const) {
      const nodes = await listAll(emulator(), query);
      for (let i = 1; i < nodes.length; i++) {
        const [a, b] = [nodes[i - 1], nodes[i]];
        expect(sign === 1 ? a.name <= b.name : a.name >= b.name).toBe(true);
        if (a.name === b.name) expect(a.id < b.id).toBe(true);
      }
      expect(ids(nodes.filter((n) => n.name === "Ethereum Mainnet full node"))).toEqual([
        "ND-100-000-002",
        "ND-100-000-003",
      ]);
    }
  });

  test("pages of 10 with count and absolute next/previous links keeping the other parameters; page=last", async () => {
    const url = emulator().url;
    const first = await call(emulator(), "/v1/nodes/?order_by=name&type=dedicated");
    expect([first.json.previous, first.json.results.length, first.json.count > 10]).toEqual([null, 10, true]);
    expect(first.json.next).toBe(`${url}/v1/nodes/?order_by=name&type=dedicated&page=2`);
    const second = await call(emulator(), first.json.next.slice(url.length));
    expect(second.json.previous).toBe(`${url}/v1/nodes/?order_by=name&type=dedicated`);
    expect(second.json.count).toBe(first.json.count);
    const pages = Math.ceil(all.length / 10);
    expect(pages).toBeGreaterThanOrEqual(4);
    const last = await call(emulator(), `/v1/nodes/?page=${pages}`);
    expect([last.json.next, last.json.previous]).toEqual([null, `${url}/v1/nodes/?page=${pages - 1}`]);
    expect(last.json.results).toHaveLength(all.length - (pages - 1) * 10);
    expect((await call(emulator(), "/v1/nodes/?page=last")).json.results).toEqual(last.json.results);
    expect(new Set(ids(all)).size).toBe(all.length);
  });

  test("page 0, -1, abc, 1.5, empty or past the end: 404 not_found; an empty result has a page 1", async () => {
    for (const query of ["0", "-1", "abc", "1.5", "", "999"]
      .map((p) => `page=${p}`)
      .concat("name=nothing&page=2")) {
      const a = await call(emulator(), `/v1/nodes/?${query}`);
      expect([query, a.status, a.json.error.code]).toEqual([query, 404, "not_found"]);
    }
    expect((await call(emulator(), "/v1/nodes/?name=nothing&page=1")).json).toEqual(EMPTY_PAGE);
  });

  // The pageSize option: seed.test.ts ("a listing of 10,000 generated nodes, in pages of the set size").
  test("links use the request's Host header; an unsafe Host falls back to the server's URL", async () => {
    const a = await rawRequest(emulator(), "/v1/nodes/", { headers: { Host: "nodes.example.test:8443" } });
    expect(JSON.parse(a.text).next).toBe("http://nodes.example.test:8443/v1/nodes/?page=2");
    const b = await rawRequest(emulator(), "/v1/nodes/", { headers: { Host: "evil.test/x?@" } });
    expect(JSON.parse(b.text).next).toBe(`${emulator().url}/v1/nodes/?page=2`);
  });

  test("one node: exactly as listed; the beacon node carries every documented details field; an unknown or ill-formed id 404", async () => {
    for (const node of all.slice(0, 5)) {
      const a = await call(emulator(), `/v1/nodes/${node.id}/`);
      expect([a.status, a.headers.get("content-type"), a.json]).toEqual([200, "application/json", node]);
    }
    const beacon = (await call(emulator(), `/v1/nodes/${emulator().fixtures.beaconNode}/`)).json;
    const fields =
      "mode version api_namespaces graphql_endpoint https_endpoint wss_endpoint beacon_endpoint auth_username auth_password auth_key";
    expect(Object.keys(beacon.details).sort()).toEqual(fields.split(" ").sort());
    expect(beacon.configuration).toEqual({ archive: true });
    expect(beacon.creator.organization.id).toBe(emulator().fixtures.organization);
    for (const id of ["ND-999-999-999", "nd-100-000-001", "NW-100-000-1", "ND-100-000-001x"]) {
      const a = await call(emulator(), `/v1/nodes/${id}/`);
      expect([a.status, a.json.error.code]).toEqual([404, "not_found"]);
    }
  });
});
