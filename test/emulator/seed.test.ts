import {
  ARCHIVE_PROTOCOLS,
  BEACON_PROTOCOLS,
  NETWORK_STATUSES,
  NODE_STATUSES,
  PROTOCOLS,
  PROVIDER_REGION_PAIRS,
  PUBLIC_NETWORK_NAMES,
  SECRET_DETAIL_FIELDS,
  checkAddress,
  isId,
  validateNodePlacement,
} from "../../src/model";
import type { WireNode } from "../../src/model";
import { WELL_KNOWN_IDS, deriveApiKey, startEmulator } from "../../src/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { buildDataset } from "../../src/emulator/data/seed";
import type { Dataset } from "../../src/emulator/data/seed";
import { listAll, usingEmulator, withEmulator } from "../helpers/emulator";

const ENDPOINTS = ["https_endpoint", "wss_endpoint", "graphql_endpoint", "beacon_endpoint"] as const;
const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("seeded data", () => {
  const emulators = [withEmulator({ seed: 42 }), withEmulator({ seed: 42 }), withEmulator({ seed: 43 })];

  test("is deterministic for a seed and varies with it, keeping the well-known ids", async () => {
    const [a, b, c] = emulators.map((e) => e());
    expect([a.apiKey, a.keys, a.fixtures]).toEqual([b.apiKey, b.keys, b.fixtures]);
    // The nodes' endpoints are served by each emulator: the same but for its URL.
    const same = (e: RunningEmulator, value: unknown) =>
      JSON.stringify(value).split(new URL(e.url).host).join("<host>");
    expect(same(a, await listAll(a))).toEqual(same(b, await listAll(b)));
    expect(same(a, a.secrets())).toEqual(same(b, b.secrets()));

    expect(c.apiKey).not.toBe(a.apiKey);
    expect(await listAll(c)).not.toEqual(await listAll(a));
    for (const e of [a, c]) expect(e.fixtures).toMatchObject(WELL_KNOWN_IDS);
    expect(Object.values(WELL_KNOWN_IDS).join(" ")).toBe(
      "RG-100-001 PR-100-001 PR-100-002 NW-100-000-1 NW-100-000-2 NW-100-000-3 ND-100-000-001",
    );
    // keys: 40 hex digits derived from the seed with sha256, one per organization
    expect(a.apiKey).toMatch(/^[0-9a-f]{40}$/);
    expect(a.apiKey).toBe(deriveApiKey(42, WELL_KNOWN_IDS.organization));
    expect(Object.keys(a.keys).length).toBeGreaterThanOrEqual(3);
    expect(a.keys[a.fixtures.organization]).toBe(a.apiKey);
    expect(new Set(Object.values(a.keys)).size).toBe(Object.keys(a.keys).length);
    expect(Object.keys(a.keys).every((id) => isId("organization", id))).toBe(true);
    const secrets = new Set(a.secrets());
    for (const key of Object.values(a.keys)) expect(secrets).toContain(key);
    for (const node of a.admin.getNetwork(a.fixtures.networkWithNodes)!.nodes) {
      for (const field of SECRET_DETAIL_FIELDS)
        if (node.details[field] !== undefined) expect(secrets).toContain(node.details[field]);
    }
  });

  test.each([1, 2, 3, 42, 1234, -7])("seed %d obeys the model", (seed) => {
    const data = buildDataset(seed);
    const networks = new Map(data.networks.map((n) => [n.id, n]));
    const projects = new Map(data.projects.map((p) => [p.id, p]));
    const protocolOf = (n: { network: string }) => networks.get(n.network)!.protocol;
    expect(data.organizations.length).toBeGreaterThanOrEqual(3);
    expect(data.projects.every((p) => p.type === "public")).toBe(true);
    expect(new Set(data.networks.map((n) => n.publicNetwork))).toEqual(new Set(PUBLIC_NETWORK_NAMES));
    expect(new Set(data.networks.map((n) => n.status))).toEqual(new Set(NETWORK_STATUSES));
    const credentials: string[] = [];
    for (const node of data.nodes) {
      const network = networks.get(node.network)!;
      expect([isId("node", node.id), isId("network", network.id)]).toEqual([true, true]);
      expect(projects.has(network.project)).toBe(true);
      expect(
        validateNodePlacement({ ...node, protocol: network.protocol, publicNetwork: network.publicNetwork }),
      ).toEqual([]);
      const d = node.details;
      if (d.beacon_endpoint !== undefined) expect(BEACON_PROTOCOLS).toContain(network.protocol);
      expect(node.archive !== undefined).toBe(
        (ARCHIVE_PROTOCOLS as readonly string[]).includes(network.protocol),
      );
      if (d.auth_key === undefined) expect([node.status, d.https_endpoint]).toEqual(["pending", undefined]);
      for (const field of ENDPOINTS)
        if (d[field] !== undefined) expect(new URL(d[field]!).pathname).toContain(`/${d.auth_key}`);
      if (d.auth_key !== undefined) credentials.push(d.auth_key, d.auth_username!, d.auth_password!);
      expect(ISO_MS_UTC.test(node.createdAt) && node.createdAt > network.createdAt).toBe(true);
    }
    expect(new Set(credentials).size).toBe(credentials.length);
    expect(new Set(data.nodes.map((n) => n.createdAt)).size).toBe(data.nodes.length);
    const ethereum = data.nodes.filter((n) => protocolOf(n) === "ethereum");
    expect(ethereum.some((n) => n.details.beacon_endpoint)).toBe(true);
    expect(ethereum.some((n) => n.details.auth_key && !n.details.beacon_endpoint)).toBe(true);
    expect(new Set(data.nodes.map((n) => `${n.archive}`))).toEqual(new Set(["true", "false", "undefined"]));
    expect(new Set(data.nodes.map((n) => n.type))).toEqual(new Set(["shared", "dedicated"]));
    // Details are shaped per protocol: some have wss, namespaces, a mode, and some do not.
    for (const field of ["wss_endpoint", "api_namespaces", "mode"] as const) {
      const served = data.nodes.filter((n) => n.details.auth_key !== undefined);
      expect(new Set(served.map((n) => n.details[field] !== undefined))).toEqual(new Set([true, false]));
    }
    // The primary organization alone has every protocol, provider/region pair and status, for several pages.
    const primary = data.nodes.filter((n) => n.organization === WELL_KNOWN_IDS.organization);
    expect(primary.length).toBeGreaterThanOrEqual(35);
    expect(new Set(primary.map(protocolOf))).toEqual(new Set(PROTOCOLS));
    const pairs = new Set(primary.map((n) => `${n.provider}/${n.region}`));
    expect(pairs).toEqual(new Set(PROVIDER_REGION_PAIRS.map((p) => `${p.provider}/${p.region}`)));
    expect(new Set(primary.map((n) => n.status))).toEqual(new Set(NODE_STATUSES));
    const address = data.fixtures.faucetAddress;
    expect(checkAddress("address", address)).toBeUndefined();
    expect(address.slice(2)).toMatch(/[a-f].*[A-F]|[A-F].*[a-f]/);
  });

  test("fixtures: networkWithNodes is an ethereum-mainnet network with a beacon node; empty networks are empty", () => {
    const a = emulators[0]();
    const network = a.admin.getNetwork(a.fixtures.networkWithNodes)!;
    expect(network).toMatchObject({ protocol: "ethereum", configuration: { network: "ethereum-mainnet" } });
    expect(network.nodes.length).toBeGreaterThanOrEqual(3);
    const beacon = network.nodes.filter((n: WireNode) => n.details.beacon_endpoint);
    expect(beacon.map((n: WireNode) => n.id)).toEqual([a.fixtures.beaconNode]);
    const nodesOf = (id: string) => a.admin.getNetwork(id)!.nodes;
    expect([nodesOf(a.fixtures.emptyNetwork), nodesOf(a.fixtures.secondEmptyNetwork)]).toEqual([[], []]);
    expect(nodesOf(a.fixtures.foreignNetwork)[0].organization).toBe(a.fixtures.otherOrganization);
  });

  test("bulk nodes and networks are added to the primary organization, deterministically per seed", () => {
    const base = buildDataset(9);
    const bulk = buildDataset(9, { networks: 100, nodes: 2000 });
    expect(buildDataset(9, { networks: 100, nodes: 2000 })).toEqual(bulk);
    expect(buildDataset(9, { networks: 0, nodes: 0 })).toEqual(base);
    expect(buildDataset(10, { networks: 100, nodes: 2000 }).nodes).not.toEqual(bulk.nodes);
    // The well-known ids stay; the faucet address is drawn after the nodes, so it changes.
    expect({ ...bulk.fixtures, faucetAddress: "" }).toEqual({ ...base.fixtures, faucetAddress: "" });
    expect(new Set(bulk.nodes.map((n) => n.id)).size).toBe(base.nodes.length + 2000);
    const own = (d: Dataset) => {
      const mine = (x: { organization: string }) => x.organization === d.fixtures.organization;
      const projects = new Set(d.projects.filter(mine).map((p) => p.id));
      return {
        networks: d.networks.filter((n) => projects.has(n.project)).length,
        nodes: d.nodes.filter(mine).length,
      };
    };
    expect(own(bulk)).toEqual({ networks: own(base).networks + 100, nodes: own(base).nodes + 2000 });
    const f = bulk.fixtures;
    for (const fixture of [f.emptyNetwork, f.secondEmptyNetwork, f.networkWithNodes, f.consortiumNetwork]) {
      const count = (d: Dataset) => d.nodes.filter((n) => n.network === fixture).length;
      expect(count(bulk)).toBe(count(base));
    }
  });

  test("a listing of 10,000 generated nodes, in pages of the set size; repeated queries see every change between them", async () => {
    await usingEmulator({ seed: 2, nodes: 10_000, pageSize: 100, requestLogCapacity: 0 }, async (big) => {
      const all = await listAll(big);
      expect(all.length).toBeGreaterThanOrEqual(10_000);
      expect(big.requestStats().total).toBe(Math.ceil(all.length / 100));
      const running = await listAll(big, "status=running");
      await listAll(big, "status=running");
      expect(big.admin.setNodeStatus(running[0].id, "stopped")).toBe(true);
      const ids = (nodes: WireNode[]) => nodes.map((n) => n.id);
      expect(ids(await listAll(big, "status=running"))).toEqual(ids(running.slice(1)));
      const network = running[1].network;
      expect(big.admin.removeNodes(network)).toBeGreaterThan(0);
      expect((await listAll(big)).some((n) => n.network === network)).toBe(false);
    });
    await expect(startEmulator({ nodes: -1 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ networks: 1.5 })).rejects.toThrow(/networks/);
  });
});
