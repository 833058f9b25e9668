/** The seeded nodes answer at their endpoints as nodes of their protocol do, behind their credentials. */
import { normalizeChainId } from "../../src/api";
import { EXPECTED_CHAIN_IDS, PROTOCOL_CHAINS } from "../../src/model";
import type { ChainFamily, Protocol, PublicNetwork, WireNode } from "../../src/model";
import { startEmulator } from "../../src/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { call, listAll, withEmulator } from "../helpers/emulator";

const START = Date.UTC(2026, 10, 27, 7, 0, 0);
let clock = START;
const nowSeconds = () => Math.floor(clock / 1000);
const FAMILIES: ChainFamily[] = ["evm", "bitcoin", "near", "starknet", "tezos"];

interface Target {
  node: WireNode;
  network: PublicNetwork;
  blockSeconds: number;
}

/** A POST of a JSON-RPC request (or any JSON value) to a URL, read whole. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: parse(text) };
}

const rpc = (url: string, method: string, params: unknown = [], headers: Record<string, string> = {}) =>
  post(url, { jsonrpc: "2.0", id: 7, method, params }, headers);

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: parse(text) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isoSeconds = (text: string) => Date.parse(text.replace(/\.(\d{3})\d*Z$/, ".$1Z")) / 1000;

/** How a pipeline proves an endpoint of each family: the chain id it serves and its head's time. */
const PROBES: Record<
  ChainFamily,
  (endpoint: string) => Promise<{ chainId: string; time: number; height: number }>
> = {
  async evm(endpoint) {
    const id = await rpc(endpoint, "eth_chainId");
    const block = (await rpc(endpoint, "eth_getBlockByNumber", ["latest", false])).json.result;
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(block.parentHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(id.json).toMatchObject({ jsonrpc: "2.0", id: 7 });
    return {
      chainId: id.json.result,
      time: parseInt(block.timestamp, 16),
      height: parseInt(block.number, 16),
    };
  },
  async bitcoin(endpoint) {
    const info = (
      await post(endpoint, { jsonrpc: "1.0", id: "probe", method: "getblockchaininfo", params: [] })
    ).json;
    expect(info).toMatchObject({ error: null, id: "probe" });
    expect(info.result).toMatchObject({ verificationprogress: 1, initialblockdownload: false });
    expect(info.result.headers).toBe(info.result.blocks);
    const header = (await rpc(endpoint, "getblockheader", [info.result.bestblockhash, true])).json.result;
    expect(header).toMatchObject({
      hash: info.result.bestblockhash,
      height: info.result.blocks,
      confirmations: 1,
    });
    expect(header.time).toBe(info.result.time);
    expect(header.previousblockhash).toMatch(/^[0-9a-f]{64}$/);
    expect(header.mediantime).toBeLessThan(header.time);
    return { chainId: info.result.chain, time: info.result.time, height: info.result.blocks };
  },
  async near(endpoint) {
    const status = (await rpc(endpoint, "status", [])).json.result;
    expect(status.sync_info.syncing).toBe(false);
    expect(status.sync_info.latest_block_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    expect(status.version).toEqual(expect.any(Object));
    const { latest_block_time: time, latest_block_height: height } = status.sync_info;
    return { chainId: status.chain_id, time: isoSeconds(time), height };
  },
  async starknet(endpoint) {
    const id = await rpc(endpoint, "starknet_chainId");
    expect(id.json.result).toMatch(/^0x[0-9a-f]+$/);
    const block = (await rpc(endpoint, "starknet_getBlockWithTxHashes", { block_id: "latest" })).json.result;
    expect(block).toMatchObject({ status: "ACCEPTED_ON_L2", transactions: [] });
    expect((await rpc(endpoint, "starknet_getBlockWithTxHashes", ["latest"])).json.result).toEqual(block);
    expect((await rpc(endpoint, "starknet_blockNumber")).json.result).toBe(block.block_number);
    return { chainId: id.json.result, time: block.timestamp, height: block.block_number };
  },
  async tezos(endpoint) {
    const id = await get(`${endpoint}/chains/main/chain_id`);
    expect(id.headers.get("content-type")).toBe("application/json");
    const header = (await get(`${endpoint}/chains/main/blocks/head/header`)).json;
    expect(header.chain_id).toBe(id.json);
    expect(header.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(header.hash).toMatch(/^B[1-9A-HJ-NP-Za-km-z]+$/);
    return { chainId: id.json, time: isoSeconds(header.timestamp), height: header.level };
  },
};

/** A node of each family with credentials, set `running`. */
async function targets(emulator: RunningEmulator): Promise<Record<ChainFamily, Target>> {
  const found: Partial<Record<ChainFamily, Target>> = {};
  for (const node of await listAll(emulator)) {
    const network = emulator.admin.getNetwork(node.network)!.configuration.network as PublicNetwork;
    const { family, blockSeconds } =
      PROTOCOL_CHAINS[emulator.admin.getNetwork(node.network)!.protocol as Protocol];
    if (found[family] || !node.details.auth_key) continue;
    emulator.admin.setNodeStatus(node.id, "running");
    found[family] = { node: emulator.admin.getNode(node.id)!, network, blockSeconds };
  }
  expect(Object.keys(found).sort()).toEqual([...FAMILIES].sort());
  return found as Record<ChainFamily, Target>;
}

describe("node endpoints", () => {
  const emulator = withEmulator({ seed: 5, now: () => new Date(clock) });
  let nodes: Record<ChainFamily, Target>;
  beforeAll(async () => {
    nodes = await targets(emulator());
  });
  afterEach(() => {
    clock = START;
    for (const { node } of Object.values(nodes)) {
      emulator().admin.setNodeEndpoint(node.id, {
        stalledSeconds: null,
        chainId: null,
        answer: "normal",
        delayMs: 30000,
      });
    }
  });
  const endpoint = (family: ChainFamily) =>
    emulator().admin.getNode(nodes[family].node.id)!.details.https_endpoint!;

  test("every endpoint is served by the emulator, under /node/<id>/<auth_key>", () => {
    const { node } = nodes.evm;
    const base = `${emulator().url}/node/${node.id.toLowerCase()}/${node.details.auth_key}`;
    expect(node.details.https_endpoint).toBe(base);
    if (node.details.wss_endpoint) expect(node.details.wss_endpoint).toBe(base.replace(/^http/, "ws"));
    if (node.details.graphql_endpoint) expect(node.details.graphql_endpoint).toBe(`${base}/graphql`);
    const beacon = emulator().admin.getNode(emulator().fixtures.beaconNode)!.details;
    expect(beacon.beacon_endpoint).toBe(
      `${emulator().url}/node/${emulator().fixtures.beaconNode.toLowerCase()}/beacon/${beacon.auth_key}`,
    );
    expect(emulator().secrets()).toEqual(expect.arrayContaining([node.details.https_endpoint]));
  });

  test.each(FAMILIES)(
    "%s: the network's chain id and a fresh head that advances with the clock",
    async (family) => {
      const { network, blockSeconds } = nodes[family];
      const first = await PROBES[family](endpoint(family));
      expect(normalizeChainId(family, String(first.chainId))).toBe(EXPECTED_CHAIN_IDS[network][0]);
      expect(nowSeconds() - first.time).toBeGreaterThanOrEqual(0);
      expect(nowSeconds() - first.time).toBeLessThan(blockSeconds);
      clock += 10 * blockSeconds * 1000;
      const later = await PROBES[family](endpoint(family));
      expect([later.height - first.height, later.time - first.time]).toEqual([10, 10 * blockSeconds]);
    },
  );

  test("JSON-RPC errors: unknown methods and unreadable bodies, per family", async () => {
    const evm = await rpc(endpoint("evm"), "eth_nope");
    expect([evm.status, evm.json]).toEqual([
      200,
      {
        jsonrpc: "2.0",
        id: 7,
        error: { code: -32601, message: "the method eth_nope does not exist/is not available" },
      },
    ]);
    const bitcoin = await post(endpoint("bitcoin"), { jsonrpc: "1.0", id: 3, method: "nope", params: [] });
    expect([bitcoin.status, bitcoin.json]).toEqual([
      404,
      { result: null, error: { code: -32601, message: "Method not found" }, id: 3 },
    ]);
    for (const family of ["evm", "near", "starknet"] as const) {
      const bad = await post(endpoint(family), "{not json");
      expect([bad.status, bad.json.error.code, bad.json.id]).toEqual([200, -32700, null]);
    }
    const batch = await post(endpoint("evm"), [
      { jsonrpc: "2.0", id: 1, method: "net_version" },
      { jsonrpc: "2.0", id: 2, method: "eth_blockNumber" },
    ]);
    expect(batch.json.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(batch.json[0].result).toBe(EXPECTED_CHAIN_IDS[nodes.evm.network][0]);
  });

  test("credentials: the key in the path or basic auth; wrong and rotated ones get 401; unknown node 404", async () => {
    const { node } = nodes.tezos;
    const d = node.details;
    const bare = `${emulator().url}/node/${node.id.toLowerCase()}/chains/main/chain_id`;
    const basic = (user: string, password: string) => ({
      Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
    });
    expect((await get(`${d.https_endpoint}/chains/main/chain_id`)).status).toBe(200);
    expect((await get(bare, basic(d.auth_username!, d.auth_password!))).status).toBe(200);
    const refusals = [
      await get(bare),
      await get(bare, basic(d.auth_username!, "wrong")),
      await get(`${emulator().url}/node/${node.id.toLowerCase()}/${"0".repeat(32)}/chains/main/chain_id`),
    ];
    for (const r of refusals) {
      expect([r.status, r.headers.get("www-authenticate"), typeof r.json]).toEqual([
        401,
        'Basic realm="node"',
        "object",
      ]);
    }
    const rotated = emulator().admin.rotateCredentials(node.id)!.details;
    expect(rotated.https_endpoint).toBe(d.https_endpoint!.replace(d.auth_key!, rotated.auth_key!));
    expect((await get(`${rotated.https_endpoint}/chains/main/chain_id`)).status).toBe(200);
    expect((await get(bare, basic(rotated.auth_username!, rotated.auth_password!))).status).toBe(200);
    expect((await get(`${d.https_endpoint}/chains/main/chain_id`)).status).toBe(401);
    expect((await get(bare, basic(d.auth_username!, d.auth_password!))).status).toBe(401);
    expect((await rpc(`${emulator().url}/node/nd-999-999-999/${d.auth_key}`, "eth_chainId")).status).toBe(
      404,
    );
  });

  test("a node that is not running drops the connection without an answer", async () => {
    const { node } = nodes.near;
    emulator().admin.setNodeStatus(node.id, "maintenance");
    try {
      await expect(rpc(endpoint("near"), "status")).rejects.toThrow("fetch failed");
      expect(emulator().requests().at(-1)).toMatchObject({ route: "/node/{id}", status: 0 });
    } finally {
      emulator().admin.setNodeStatus(node.id, "running");
    }
    expect((await rpc(endpoint("near"), "status")).status).toBe(200);
  });

  test("rehearsal stalledSeconds: the head's age is N at once and grows; null makes it live again", async () => {
    const id = nodes.evm.node.id;
    const set = await call(emulator(), `/_emulator/nodes/${id}/endpoint`, {
      method: "PUT",
      body: { stalledSeconds: 600 },
      key: emulator().adminKey,
    });
    expect([set.status, set.json]).toEqual([
      200,
      { stalledSeconds: 600, chainId: null, answer: "normal", delayMs: 30000 },
    ]);
    expect(nowSeconds() - (await PROBES.evm(endpoint("evm"))).time).toBe(600);
    clock += 100_000;
    expect(nowSeconds() - (await PROBES.evm(endpoint("evm"))).time).toBe(700);
    const read = await call(emulator(), `/_emulator/nodes/${id}/endpoint`, { key: emulator().adminKey });
    expect(read.json.stalledSeconds).toBe(700);
    emulator().admin.setNodeEndpoint(id, { stalledSeconds: null });
    expect(nowSeconds() - (await PROBES.evm(endpoint("evm"))).time).toBeLessThan(nodes.evm.blockSeconds);
  });

  test("rehearsal chainId: another chain, encoded per family; null restores the network's", async () => {
    const other: Record<ChainFamily, [string, string]> = {
      evm: ["5", "0x5"],
      bitcoin: ["test", "test"],
      near: ["testnet", "testnet"],
      starknet: ["SN_SEPOLIA", "0x534e5f5345504f4c4941"],
      tezos: ["NetXnHfVqm9iesp", "NetXnHfVqm9iesp"],
    };
    for (const family of FAMILIES) {
      emulator().admin.setNodeEndpoint(nodes[family].node.id, { chainId: other[family][0] });
      expect((await PROBES[family](endpoint(family))).chainId).toBe(other[family][1]);
      emulator().admin.setNodeEndpoint(nodes[family].node.id, { chainId: null });
      const served = (await PROBES[family](endpoint(family))).chainId;
      expect(normalizeChainId(family, served)).toBe(EXPECTED_CHAIN_IDS[nodes[family].network][0]);
    }
  });

  test("rehearsal answers: refuse, 503, slow, not-json", async () => {
    const id = nodes.evm.node.id;
    emulator().admin.setNodeEndpoint(id, { answer: "refuse" });
    await expect(rpc(endpoint("evm"), "eth_chainId")).rejects.toThrow("fetch failed");
    emulator().admin.setNodeEndpoint(id, { answer: "503" });
    const unavailable = await rpc(endpoint("evm"), "eth_chainId");
    expect([
      unavailable.status,
      unavailable.headers.get("content-type"),
      unavailable.text.length > 0,
    ]).toEqual([503, "text/plain", true]);
    emulator().admin.setNodeEndpoint(id, { answer: "slow", delayMs: 300 });
    const started = Date.now();
    const slow = await rpc(endpoint("evm"), "eth_chainId");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect([slow.status, normalizeChainId("evm", slow.json.result)]).toEqual([
      200,
      EXPECTED_CHAIN_IDS[nodes.evm.network][0],
    ]);
    emulator().admin.setNodeEndpoint(id, { answer: "not-json" });
    const html = await rpc(endpoint("evm"), "eth_chainId");
    expect([html.status, html.headers.get("content-type"), html.json]).toEqual([200, "text/html", undefined]);
  });

  test("rehearsal huge: a 200 JSON-RPC envelope of 64 MiB, its id echoed", async () => {
    emulator().admin.setNodeEndpoint(nodes.evm.node.id, { answer: "huge" });
    const res = await fetch(endpoint("evm"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 42, method: "eth_chainId", params: [] }),
    });
    expect(Number(res.headers.get("content-length"))).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    const body = JSON.parse(await res.text());
    expect([res.status, body.jsonrpc, body.id, body.result.length]).toEqual([
      200,
      "2.0",
      42,
      64 * 1024 * 1024,
    ]);
  });

  test("rehearsal values are checked: 400 naming each bad field; unknown node 404", async () => {
    const path = `/_emulator/nodes/${nodes.evm.node.id}/endpoint`;
    const bad = await call(emulator(), path, {
      method: "PUT",
      body: { stalledSeconds: -1, chainId: "0x5", answer: "sometimes", delayMs: 1.5, stall: 3 },
      key: emulator().adminKey,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.error.fields).sort()).toEqual([
      "answer",
      "chainId",
      "delayMs",
      "stall",
      "stalledSeconds",
    ]);
    expect(() => emulator().admin.setNodeEndpoint(nodes.starknet.node.id, { chainId: "" })).toThrow(
      RangeError,
    );
    expect(emulator().admin.nodeEndpoint(nodes.evm.node.id)).toMatchObject({
      answer: "normal",
      stalledSeconds: null,
    });
    const missing = await call(emulator(), "/_emulator/nodes/ND-999-999-999/endpoint", {
      method: "PUT",
      body: { answer: "refuse" },
      key: emulator().adminKey,
    });
    expect(missing.status).toBe(404);
    expect((await call(emulator(), path, { method: "PUT", body: {}, key: emulator().apiKey })).status).toBe(
      401,
    );
  });
});

describe("node endpoints in the record and the log", () => {
  const emulator = withEmulator({ seed: 6, quiet: false });
  test("the key and the credentials never reach the record or the stderr line", async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const { tezos, evm } = await targets(emulator());
      const t = tezos.node.details;
      const basic = `Basic ${Buffer.from(`${t.auth_username}:${t.auth_password}`).toString("base64")}`;
      const bare = `${emulator().url}/node/${tezos.node.id.toLowerCase()}`;
      await get(`${t.https_endpoint}/chains/main/chain_id?key=${t.auth_key}`);
      await get(`${bare}/chains/main/blocks/head/header`, { Authorization: basic });
      await get(`${bare}/${t.auth_password}/chains/main/chain_id`);
      await rpc(evm.node.details.https_endpoint!, "eth_chainId");
      const record = emulator()
        .requests()
        .filter((r) => r.route.startsWith("/node/"));
      expect(record.map((r) => [r.route, r.path, r.status])).toEqual([
        [
          "/node/{id}/chains/main/chain_id",
          `/node/${tezos.node.id.toLowerCase()}/***/chains/main/chain_id`,
          200,
        ],
        [
          "/node/{id}/chains/main/blocks/head/header",
          "/node/" + tezos.node.id.toLowerCase() + "/chains/main/blocks/head/header",
          200,
        ],
        [
          "/node/{id}/chains/main/chain_id",
          `/node/${tezos.node.id.toLowerCase()}/***/chains/main/chain_id`,
          401,
        ],
        ["/node/{id}", `/node/${evm.node.id.toLowerCase()}/***`, 200],
      ]);
      const text = lines.join("") + JSON.stringify(record);
      expect(lines.join("")).toContain(`GET /node/${tezos.node.id.toLowerCase()}/***/chains/main/chain_id`);
      for (const secret of emulator().secrets()) expect(text).not.toContain(secret);
      for (const value of [t.auth_key, t.auth_username, t.auth_password, basic.slice(6)]) {
        expect(text).not.toContain(value);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

test("a slow answer ends at once when the emulator closes", async () => {
  const emulator = await startEmulator({ seed: 5 });
  const { evm } = await targets(emulator);
  emulator.admin.setNodeEndpoint(evm.node.id, { answer: "slow" });
  const pending = rpc(evm.node.details.https_endpoint!, "eth_chainId").catch((e: Error) => e);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  await emulator.close();
  expect(String(await pending)).toMatch(/fetch failed/);
  expect(Date.now() - started).toBeLessThan(2000);
});
