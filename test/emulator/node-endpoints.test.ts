/** The seeded nodes answer at their endpoints as nodes of their protocol do, behind their credentials. */
import { normalizeChainId } from "../../src/api";
import { EXPECTED_CHAIN_IDS, PROTOCOL_CHAINS } from "../../src/model";
import type { ChainFamily, Protocol, PublicNetwork, WireNode } from "../../src/model";
import { startEmulator } from "../../src/emulator";
import type { RunningEmulator } from "../../src/emulator";
import { call, fetchAnswer, listAll, withEmulator } from "../helpers/emulator";

const START = Date.UTC(2026, 10, 27, 7, 0, 0);
let clock = START;
const nowSeconds = () => Math.floor(clock / 1000);
const FAMILIES: ChainFamily[] = ["evm", "bitcoin", "near", "starknet", "tezos"];
type Target = { node: WireNode; network: PublicNetwork; blockSeconds: number };

/** A GET, or a POST of a JSON value (a string is sent as it is), read whole; `json` when it parses. */
const send = (url: string, body?: unknown, headers: Record<string, string> = {}) =>
  body === undefined
    ? fetchAnswer(url, { headers })
    : fetchAnswer(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
const rpc = (url: string, method: string, params: unknown = []) =>
  send(url, { jsonrpc: "2.0", id: 7, method, params });
const basic = (user?: string, password?: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
});
const isoSeconds = (text: string) => Date.parse(text.replace(/\.(\d{3})\d*Z$/, ".$1Z")) / 1000;

/** How a pipeline proves an endpoint of each family: the chain id it serves and its head's time and height. */
const PROBES: Record<
  ChainFamily,
  (endpoint: string) => Promise<{ chainId: string; time: number; height: number }>
> = {
  async evm(endpoint) {
    const id = (await rpc(endpoint, "eth_chainId")).json;
    const block = (await rpc(endpoint, "eth_getBlockByNumber", ["latest", false])).json.result;
    expect(id).toMatchObject({ jsonrpc: "2.0", id: 7 });
    for (const hash of [block.hash, block.parentHash]) expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    return { chainId: id.result, time: parseInt(block.timestamp, 16), height: parseInt(block.number, 16) };
  },
  async bitcoin(endpoint) {
    const info = (
      await send(endpoint, { jsonrpc: "1.0", id: "probe", method: "getblockchaininfo", params: [] })
    ).json;
    const { bestblockhash: hash, blocks: height, time } = info.result;
    expect(info).toMatchObject({
      error: null,
      id: "probe",
      result: { verificationprogress: 1, headers: height },
    });
    const header = (await rpc(endpoint, "getblockheader", [hash, true])).json.result;
    expect(header).toMatchObject({ hash, height, confirmations: 1, time });
    expect(header.mediantime).toBeLessThan(header.time);
    return { chainId: info.result.chain, time, height };
  },
  async near(endpoint) {
    const { chain_id: chainId, sync_info: sync } = (await rpc(endpoint, "status")).json.result;
    expect(sync.latest_block_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    return { chainId, time: isoSeconds(sync.latest_block_time), height: sync.latest_block_height };
  },
  async starknet(endpoint) {
    const id = (await rpc(endpoint, "starknet_chainId")).json.result;
    const block = (await rpc(endpoint, "starknet_getBlockWithTxHashes", { block_id: "latest" })).json.result;
    expect(block).toMatchObject({ status: "ACCEPTED_ON_L2", transactions: [] });
    expect((await rpc(endpoint, "starknet_getBlockWithTxHashes", ["latest"])).json.result).toEqual(block);
    expect((await rpc(endpoint, "starknet_blockNumber")).json.result).toBe(block.block_number);
    return { chainId: id, time: block.timestamp, height: block.block_number };
  },
  async tezos(endpoint) {
    const id = await send(`${endpoint}/chains/main/chain_id`);
    const header = (await send(`${endpoint}/chains/main/blocks/head/header`)).json;
    expect([id.headers.get("content-type"), header.chain_id]).toEqual(["application/json", id.json]);
    expect(header.hash).toMatch(/^B[1-9A-HJ-NP-Za-km-z]+$/);
    return { chainId: id.json, time: isoSeconds(header.timestamp), height: header.level };
  },
};

/** A node of each family with credentials, set `running`. */
async function targets(emulator: RunningEmulator): Promise<Record<ChainFamily, Target>> {
  const found: Partial<Record<ChainFamily, Target>> = {};
  for (const node of await listAll(emulator)) {
    const network = emulator.admin.getNetwork(node.network)!;
    const { family, blockSeconds } = PROTOCOL_CHAINS[network.protocol as Protocol];
    if (found[family] || !node.details.auth_key) continue;
    emulator.admin.setNodeStatus(node.id, "running");
    const publicNetwork = network.configuration.network as PublicNetwork;
    found[family] = { node: emulator.admin.getNode(node.id)!, network: publicNetwork, blockSeconds };
  }
  expect(Object.keys(found).sort()).toEqual([...FAMILIES].sort());
  return found as Record<ChainFamily, Target>;
}

describe("node endpoints", () => {
  const emulator = withEmulator({ seed: 5, quiet: false, now: () => new Date(clock) });
  let nodes: Record<ChainFamily, Target>;
  let lines: string[];
  beforeAll(async () => void (nodes = await targets(emulator())));
  beforeEach(() => {
    lines = [];
    jest.spyOn(process.stderr, "write").mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    clock = START;
    const normal = { stalledSeconds: null, chainId: null, answer: "normal", delayMs: 30000 } as const;
    for (const { node } of Object.values(nodes)) emulator().admin.setNodeEndpoint(node.id, normal);
  });
  const endpoint = (family: ChainFamily) =>
    emulator().admin.getNode(nodes[family].node.id)!.details.https_endpoint!;
  const expected = (family: ChainFamily) => EXPECTED_CHAIN_IDS[nodes[family].network][0];

  test("every endpoint is served by the emulator, under /node/<id>/<auth_key>", () => {
    const beacon = emulator().admin.getNode(emulator().fixtures.beaconNode)!.details;
    const base = `${emulator().url}/node/${emulator().fixtures.beaconNode.toLowerCase()}`;
    expect(beacon).toMatchObject({
      https_endpoint: `${base}/${beacon.auth_key}`,
      wss_endpoint: `${base.replace(/^http/, "ws")}/${beacon.auth_key}`,
      graphql_endpoint: `${base}/${beacon.auth_key}/graphql`,
      beacon_endpoint: `${base}/beacon/${beacon.auth_key}`,
    });
  });

  test.each(FAMILIES)(
    "%s: the network's chain id and a fresh head that advances with the clock",
    async (family) => {
      const { blockSeconds } = nodes[family];
      const first = await PROBES[family](endpoint(family));
      expect(normalizeChainId(family, String(first.chainId))).toBe(expected(family));
      expect(nowSeconds() - first.time).toBeGreaterThanOrEqual(0);
      expect(nowSeconds() - first.time).toBeLessThan(blockSeconds);
      clock += 10 * blockSeconds * 1000;
      const later = await PROBES[family](endpoint(family));
      expect([later.height - first.height, later.time - first.time]).toEqual([10, 10 * blockSeconds]);
    },
  );

  test("JSON-RPC errors: unknown methods and unreadable bodies, per family; batches", async () => {
    const evm = await rpc(endpoint("evm"), "eth_nope");
    expect([evm.status, evm.json.id, evm.json.error.code]).toEqual([200, 7, -32601]);
    const bitcoin = await send(endpoint("bitcoin"), { jsonrpc: "1.0", id: 3, method: "nope", params: [] });
    expect(bitcoin).toMatchObject({ status: 404, json: { result: null, error: { code: -32601 }, id: 3 } });
    for (const family of ["evm", "near", "starknet"] as const) {
      const bad = await send(endpoint(family), "{not json");
      expect([bad.status, bad.json.error.code, bad.json.id]).toEqual([200, -32700, null]);
    }
    expect((await send(endpoint("bitcoin"), "{not json")).status).toBe(500);
    const batch = await send(endpoint("evm"), [
      { jsonrpc: "2.0", id: 1, method: "net_version" },
      { jsonrpc: "2.0", id: 2, method: "eth_blockNumber" },
    ]);
    expect(batch.json.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(batch.json[0].result).toBe(expected("evm"));
  });

  test("credentials: the key in the path or basic auth; wrong and rotated ones get 401; unknown node 404", async () => {
    const { node } = nodes.tezos;
    const d = node.details;
    const bare = `${emulator().url}/node/${node.id.toLowerCase()}/chains/main/chain_id`;
    const status = async (url: string, headers?: Record<string, string>) =>
      (await send(url, undefined, headers)).status;
    expect(await status(`${d.https_endpoint}/chains/main/chain_id`)).toBe(200);
    expect(await status(bare, basic(d.auth_username, d.auth_password))).toBe(200);
    const refusals = [
      await send(bare),
      await send(bare, undefined, basic(d.auth_username, "wrong")),
      await send(`${emulator().url}/node/${node.id.toLowerCase()}/${"0".repeat(32)}/chains/main/chain_id`),
    ];
    const realm = 'Basic realm="node"';
    for (const r of refusals)
      expect([r.status, r.headers.get("www-authenticate"), typeof r.json]).toEqual([401, realm, "object"]);
    const rotated = emulator().admin.rotateCredentials(node.id)!.details;
    expect(await status(`${rotated.https_endpoint}/chains/main/chain_id`)).toBe(200);
    expect(await status(bare, basic(rotated.auth_username, rotated.auth_password))).toBe(200);
    expect(await status(`${d.https_endpoint}/chains/main/chain_id`)).toBe(401);
    expect(await status(bare, basic(d.auth_username, d.auth_password))).toBe(401);
    const unknown = `${emulator().url}/node/nd-999-999-999/${d.auth_key}`;
    expect((await rpc(unknown, "eth_chainId")).status).toBe(404);
  });

  test("a node that is not running drops the connection without an answer", async () => {
    emulator().admin.setNodeStatus(nodes.near.node.id, "maintenance");
    try {
      await expect(rpc(endpoint("near"), "status")).rejects.toThrow("fetch failed");
      expect(emulator().requests().at(-1)).toMatchObject({ route: "/node/{id}", status: 0 });
    } finally {
      emulator().admin.setNodeStatus(nodes.near.node.id, "running");
    }
    expect((await rpc(endpoint("near"), "status")).status).toBe(200);
  });

  test("rehearsal stalledSeconds: the head's age is N at once and grows; null makes it live again", async () => {
    const path = `/_emulator/nodes/${nodes.evm.node.id}/endpoint`;
    const set = await call(emulator(), path, {
      method: "PUT",
      body: { stalledSeconds: 600 },
      key: emulator().adminKey,
    });
    expect(set.json).toEqual({ stalledSeconds: 600, chainId: null, answer: "normal", delayMs: 30000 });
    const age = async () => nowSeconds() - (await PROBES.evm(endpoint("evm"))).time;
    expect(await age()).toBe(600);
    clock += 100_000;
    expect(await age()).toBe(700);
    expect((await call(emulator(), path, { key: emulator().adminKey })).json.stalledSeconds).toBe(700);
    emulator().admin.setNodeEndpoint(nodes.evm.node.id, { stalledSeconds: null });
    expect(await age()).toBeLessThan(nodes.evm.blockSeconds);
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
      const restored = (await PROBES[family](endpoint(family))).chainId;
      expect(normalizeChainId(family, restored)).toBe(expected(family));
    }
  });

  test("rehearsal answers: refuse, 503, slow, not-json, huge (a 64 MiB JSON-RPC envelope, its id echoed)", async () => {
    const id = nodes.evm.node.id;
    emulator().admin.setNodeEndpoint(id, { answer: "refuse" });
    await expect(rpc(endpoint("evm"), "eth_chainId")).rejects.toThrow("fetch failed");
    emulator().admin.setNodeEndpoint(id, { answer: "503" });
    const unavailable = await rpc(endpoint("evm"), "eth_chainId");
    expect([unavailable.status, unavailable.headers.get("content-type")]).toEqual([503, "text/plain"]);
    emulator().admin.setNodeEndpoint(id, { answer: "slow", delayMs: 300 });
    // Set before the request, due before the answer's 300 ms: it fires first only if the answer waited.
    let waited = false;
    setTimeout(() => (waited = true), 250);
    const slow = await rpc(endpoint("evm"), "eth_chainId");
    expect(waited).toBe(true);
    expect(normalizeChainId("evm", slow.json.result)).toBe(expected("evm"));
    emulator().admin.setNodeEndpoint(id, { answer: "not-json" });
    const html = await rpc(endpoint("evm"), "eth_chainId");
    expect([html.status, html.headers.get("content-type"), html.json]).toEqual([200, "text/html", undefined]);
    emulator().admin.setNodeEndpoint(id, { answer: "huge" });
    const huge = await send(endpoint("evm"), { jsonrpc: "2.0", id: 42, method: "eth_chainId", params: [] });
    expect(huge).toMatchObject({ status: 200, json: { jsonrpc: "2.0", id: 42 } });
    expect(huge.json.result).toHaveLength(64 * 1024 * 1024);
  });

  test("rehearsal values are checked: 400 naming each bad field; unknown node 404; the admin key only", async () => {
    const path = `/_emulator/nodes/${nodes.evm.node.id}/endpoint`;
    const body = { stalledSeconds: -1, chainId: "0x5", answer: "sometimes", delayMs: 1.5, stall: 3 };
    const bad = await call(emulator(), path, { method: "PUT", body, key: emulator().adminKey });
    expect([bad.status, Object.keys(bad.json.error.fields).sort()]).toEqual([400, Object.keys(body).sort()]);
    const { admin } = emulator();
    expect(() => admin.setNodeEndpoint(nodes.starknet.node.id, { chainId: "" })).toThrow(RangeError);
    expect(admin.nodeEndpoint(nodes.evm.node.id)).toMatchObject({ answer: "normal", stalledSeconds: null });
    const put = (id: string, key: string) =>
      call(emulator(), `/_emulator/nodes/${id}/endpoint`, { method: "PUT", body: { answer: "refuse" }, key });
    expect((await put("ND-999-999-999", emulator().adminKey)).status).toBe(404);
    expect((await put(nodes.evm.node.id, emulator().apiKey)).status).toBe(401);
  });

  test("the key and the credentials never reach the record or the stderr line", async () => {
    emulator().resetRequests();
    const t = emulator().admin.getNode(nodes.tezos.node.id)!.details;
    const [id, credentials] = [nodes.tezos.node.id.toLowerCase(), basic(t.auth_username, t.auth_password)];
    const bare = `${emulator().url}/node/${id}`;
    await send(`${t.https_endpoint}/chains/main/chain_id?key=${t.auth_key}`);
    await send(`${bare}/chains/main/blocks/head/header`, undefined, credentials);
    await send(`${bare}/${t.auth_password}/chains/main/chain_id`);
    await rpc(endpoint("evm"), "eth_chainId");
    const record = emulator().requests();
    expect(record.map((r) => [r.route, r.path, r.status])).toEqual([
      ["/node/{id}/chains/main/chain_id", `/node/${id}/***/chains/main/chain_id`, 200],
      ["/node/{id}/chains/main/blocks/head/header", `/node/${id}/chains/main/blocks/head/header`, 200],
      ["/node/{id}/chains/main/chain_id", `/node/${id}/***/chains/main/chain_id`, 401],
      ["/node/{id}", `/node/${nodes.evm.node.id.toLowerCase()}/***`, 200],
    ]);
    const text = lines.join("") + JSON.stringify(record);
    expect(lines.join("")).toContain(`GET /node/${id}/***/chains/main/chain_id`);
    const secrets = [...emulator().secrets(), credentials.Authorization.slice(6)];
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

test("a slow answer (held longer than any test's timeout) ends at once when the emulator closes", async () => {
  const emulator = await startEmulator({ seed: 5 });
  const { evm } = await targets(emulator);
  emulator.admin.setNodeEndpoint(evm.node.id, { answer: "slow", delayMs: 600_000 });
  const pending = rpc(evm.node.details.https_endpoint!, "eth_chainId").catch((e: Error) => e);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await emulator.close();
  expect(String(await pending)).toMatch(/fetch failed/);
});
