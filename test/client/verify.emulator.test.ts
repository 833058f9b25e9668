/**
 * `verify`: each node's own endpoint called as an app would, against the emulator's nodes (every
 * protocol family) and against a small server of this test (redirects, odd heads): chain id right
 * and wrong, head fresh and stale, credentials good and rotated, down, slow, huge, not JSON.
 */
import { InvalidInputError, type Node, type NodeServiceClient } from "../../src/api";
import { EXPECTED_CHAIN_IDS, PROTOCOL_CHAINS, type Protocol, type PublicNetwork } from "../../src/model";
import { readNode, listNodes, type Connect } from "../../src/functions/lookups";
import { checkVerify, verifyNodes, VerifyError, type VerifyOptions } from "../../src/functions/verify";
import { WaitTimeoutError } from "../../src/functions/wait";
import {
  rejection,
  startScriptedServer,
  testClient,
  type Script,
  type ScriptedServer,
} from "../helpers/client";
import { leaked, withEmulator } from "../helpers/emulator";
import type { NodeEndpointBehaviour } from "../../src/emulator";

const emulator = withEmulator({ seed: 11, quiet: true });
const client = () => testClient(emulator().url, emulator().apiKey);
const requests = () => emulator().requests();
const connect: Connect = (_args, use) => use(client());
const messages: string[] = [];

/** The first running node of `protocol` that shows its endpoint, and its network's public network. */
async function nodeOf(protocol: Protocol): Promise<{ node: Node; publicNetwork: PublicNetwork }> {
  const { organization } = emulator().fixtures;
  const nodes = await client().listAllNodes({ protocol, status: "running" }, { limit: 1000 });
  const node = nodes.find((n) => n.details.httpsEndpoint && n.organization === organization)!;
  const publicNetwork = emulator().admin.getNetwork(node.network)!.configuration.network as PublicNetwork;
  return { node, publicNetwork };
}

/** Nodes whose endpoint a test rehearses a behaviour on: set back to normal after each test. */
const rehearsed = new Set<string>();
const rehearse = (id: string, behaviour: Partial<NodeEndpointBehaviour>) => {
  rehearsed.add(id);
  emulator().admin.setNodeEndpoint(id, behaviour);
};
afterEach(() => {
  const normal = { chainId: null, stalledSeconds: null, answer: "normal" } as const;
  for (const id of rehearsed) emulator().admin.setNodeEndpoint(id, normal);
  rehearsed.clear();
});

const verify = (nodes: Node[], options: boolean | VerifyOptions = true) =>
  verifyNodes("getNodes", nodes, checkVerify("getNodes", options)!, client());

/** The failure of `promise`, kept for the audit at the end; each of `tokens` in its message. */
async function failure(promise: Promise<unknown>, ...tokens: string[]): Promise<Error> {
  const error = (await rejection(promise)) as Error;
  messages.push(error.message);
  for (const token of tokens) expect(error.message).toContain(token);
  return error;
}

/** Another chain id than each family's networks serve. */
const OTHER_CHAIN: Partial<Record<Protocol, string>> = {
  starknet: "SN_OTHER",
  tezos: "NetXotherchain1",
  bitcoin: "regtest",
  near: "localnet",
};

const CHECKED: Protocol[] = ["ethereum", "avalanche", "bitcoin", "near", "starknet", "tezos"];

describe.each(CHECKED)("a %s node", (protocol) => {
  test("answers its network's chain with a fresh head; verified holds no URL", async () => {
    const { node, publicNetwork } = await nodeOf(protocol);
    const [{ verified }] = await verify([node]);
    expect(verified).toMatchObject({ chainId: EXPECTED_CHAIN_IDS[publicNetwork][0] });
    expect(verified!.headBlock).toBeGreaterThan(0);
    expect(verified!.headAgeSeconds).toBeLessThanOrEqual(PROTOCOL_CHAINS[protocol].blockSeconds + 1);
    expect(Date.parse(verified!.checkedAt)).not.toBeNaN();
    expect(JSON.stringify(verified)).not.toMatch(/https?:|\/\//);
  });

  test("serving another chain fails (lasting) naming both; expectedChainId accepts it", async () => {
    const { node, publicNetwork } = await nodeOf(protocol);
    const other = OTHER_CHAIN[protocol] ?? "5";
    rehearse(node.id, { chainId: other });
    const expected = EXPECTED_CHAIN_IDS[publicNetwork][0];
    const tokens = [node.id, other, publicNetwork, expected, "verify.expectedChainId"];
    const error = await failure(verify([node]), ...tokens);
    expect(error).toMatchObject({ name: "VerifyError", lasting: true });
    const expectedChainId = protocol === "ethereum" || protocol === "avalanche" ? "0x5" : other;
    const [checked] = await verify([node], { expectedChainId });
    expect(checked.verified!.chainId).toBe(other);
  });

  test("a stalled head fails with its age and the bound; a larger maxHeadAgeSeconds accepts it", async () => {
    const { node } = await nodeOf(protocol);
    const limit = PROTOCOL_CHAINS[protocol].maxHeadAgeSeconds;
    rehearse(node.id, { stalledSeconds: limit + 500 });
    const error = await failure(verify([node]), node.id);
    expect(error.message).toMatch(new RegExp(`\\b(${limit + 500}|${limit + 501}) s\\b.*\\b${limit} s\\b`));
    const [checked] = await verify([node], { maxHeadAgeSeconds: limit + 1000 });
    expect(checked.verified!.headAgeSeconds).toBeGreaterThanOrEqual(limit + 500);
  });
});

describe("what the endpoint does to the check", () => {
  test("rotated credentials are refused (401); the service's new ones pass", async () => {
    const { node } = await nodeOf("polygon-pos");
    emulator().admin.rotateCredentials(node.id);
    await failure(verify([node]), node.id, "401");
    await expect(verify([await client().getNode(node.id)])).resolves.toHaveLength(1);
  });

  // Each check's timeout, and the slow answer, lie past the test's own timeout: a check that waited for
  // either would fail the test, so each ends before its timeout fires (the slow one, before the answer).
  test.each([
    [{ answer: "refuse" }, /\((E[A-Z]+|socket hang up)\)/, 300],
    [{ answer: "503" }, /\b503\b/, 300],
    [{ answer: "slow", delayMs: 600_000 }, /\b0\.5 s\b/, 0.5],
    [{ answer: "huge" }, /\b1048576\b/, 300],
    [{ answer: "not-json" }, /\btext\/html\b/, 300],
  ] as const)("%j fails at once naming it", async (behaviour, expected, timeoutSeconds) => {
    const { node } = await nodeOf("bsc");
    rehearse(node.id, behaviour);
    const error = await failure(verify([node], { timeoutSeconds }), node.id);
    expect(error.message).toMatch(expected);
  });

  test("a node not running, or showing no endpoint, fails without a request to it, naming both and waitFor", async () => {
    const { node } = await nodeOf("fantom");
    emulator().admin.setNodeStatus(node.id, "stopped");
    const stopped = await client().getNode(node.id);
    emulator().admin.setNodeStatus(node.id, "running");
    const listed = await client().listAllNodes(
      { network: emulator().fixtures.consortiumNetwork },
      { limit: 100 },
    );
    const foreign = listed.find((n) => !n.details.httpsEndpoint)!;
    emulator().resetRequests();
    const error = await failure(verify([stopped, { ...foreign, status: "running" }]), "2 of 2", "waitFor");
    expect(error.message).toMatch(
      new RegExp(`${node.id}: [^;]*\\bstopped\\b.*${foreign.id}: [^;]*\\bHTTPS\\b`),
    );
    expect(requests().filter((r) => r.route.startsWith("/node/"))).toEqual([]);
  });

  test("the key appended to a bare endpoint, or basic auth alone, both pass; wrong basic auth is refused", async () => {
    const { node } = await nodeOf("gnosis");
    const d = node.details;
    const bare = d.httpsEndpoint!.replace(`/${d.authKey}`, "");
    await expect(verify([{ ...node, details: { ...d, httpsEndpoint: bare } }])).resolves.toHaveLength(1);
    const basicOnly = { ...d, httpsEndpoint: bare, authKey: undefined };
    await expect(verify([{ ...node, details: basicOnly }])).resolves.toHaveLength(1);
    const wrong = { ...basicOnly, authPassword: "not-the-password" };
    await failure(verify([{ ...node, details: wrong }]), "401");
  });

  test("the lookups check after the wait; a lasting failure ends the wait at once, a passing one ends it", async () => {
    const { node } = await nodeOf("cronos");
    emulator().admin.setNodeEndpoint(node.id, { chainId: "7" });
    // A wait past the test's own timeout: only a wait that ends at once lets the test pass.
    const waitFor = { status: "running" as const, timeoutSeconds: 300, intervalSeconds: 0.1 };
    const error = await failure(readNode("getNodeOutput", { id: node.id, waitFor, verify: true }, connect));
    expect(error).toBeInstanceOf(VerifyError);
    emulator().admin.setNodeEndpoint(node.id, { chainId: null, stalledSeconds: 1000 });
    const quick = { ...waitFor, timeoutSeconds: 1 };
    const timedOut = await failure(
      readNode("getNodeOutput", { id: node.id, waitFor: quick, verify: true }, connect),
    );
    expect(timedOut).toBeInstanceOf(WaitTimeoutError);
    // It names the call and the last check's failure.
    expect(timedOut.message).toMatch(
      new RegExp(`^getNodeOutput ${node.id}: .*\\b1 s\\b.*${node.id}\\b.*\\b10\\d\\d s\\b`),
    );
    setTimeout(() => emulator().admin.setNodeEndpoint(node.id, { stalledSeconds: null }), 500);
    const passed = await readNode("getNodeOutput", { id: node.id, waitFor, verify: true }, connect);
    expect(passed.verified!.headAgeSeconds).toBeLessThan(10);
  });

  test("getNodes checks every node it lists; the listing and the network lookups only GET the service", async () => {
    emulator().resetRequests();
    const args = { network: emulator().fixtures.networkWithNodes, status: "running", verify: true } as const;
    const nodes = await listNodes("getNodes", args, connect);
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) expect(n.verified!.chainId).toBe("1");
    const api = requests().filter((r) => r.path.startsWith("/v1/"));
    expect(new Set(api.map((r) => r.method))).toEqual(new Set(["GET"]));
  });

  test.each([
    ["yes", "verify"],
    [{ timeoutSeconds: 0 }, "verify.timeoutSeconds"],
    [{ maxHeadAgeSeconds: -1 }, "verify.maxHeadAgeSeconds"],
    [{ expectedChainId: "" }, "verify.expectedChainId"],
    [{ maxHeadAge: 5 }, "verify.maxHeadAge"],
  ] as const)("verify %j is refused before any request, naming %s", async (verify, field) => {
    emulator().resetRequests();
    const error = await failure(
      readNode("getNode", { id: "ND-100-000-001", verify: verify as never }, connect),
      field,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(requests()).toEqual([]);
  });
});

describe("against a server of this test", () => {
  let server: ScriptedServer;
  beforeAll(async () => void (server = await startScriptedServer()));
  afterAll(() => server.close());
  /** A JSON-RPC node answering eth_chainId with `chain` and a head dated `seconds`. */
  const evm =
    (chain: unknown, seconds: number): Script =>
    (_req, res, body) => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const head = { number: "0x10", timestamp: `0x${seconds.toString(16)}` };
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: method === "eth_chainId" ? chain : head }));
    };
  const details = (httpsEndpoint: string) => ({ httpsEndpoint, authKey: "k3y-0123456789" });
  const node = (id: string, url: string) =>
    ({ id, name: id, network: "NW-900-000-1", status: "running", details: details(url) }) as Node;
  const known = { publicNetwork: "ethereum-mainnet" as const };
  const check = (nodes: Node[]) =>
    verifyNodes("getNode", nodes, checkVerify("getNode", true)!, client(), known);

  test("a redirect is not followed: the credentials never reach its target", async () => {
    server.always({ status: 302, headers: { Location: `${server.url}/elsewhere` } });
    await failure(check([node("ND-900-000-001", server.url)]), "ND-900-000-001", "302");
    expect(server.hits.length).toBeGreaterThan(0);
    expect(server.hits.filter((h) => h.url.startsWith("/elsewhere"))).toEqual([]);
  });

  test("a node list that ignores the protocol filter tells no protocol: not checked, said so", async () => {
    const ignoring = {
      apiUrl: "https://ignoring.example/",
      async *listNodes() {
        yield node("ND-900-000-009", "https://ignoring.example/rpc");
      },
    } as unknown as NodeServiceClient;
    const settings = checkVerify("getNode", true)!;
    const nodes = [node("ND-900-000-003", "https://n.example")];
    const tokens = ["ND-900-000-003", "NW-900-000-1", "protocol"];
    await failure(verifyNodes("getNode", nodes, settings, ignoring), ...tokens);
  });

  test("a head dated in the future, or a chain id that is no string, is not taken as fresh", async () => {
    server.fallback = evm("0x1", Date.now()); // milliseconds read as seconds: far ahead
    const future = await failure(check([node("ND-900-000-004", server.url)]), "ND-900-000-004");
    expect(future.message).toMatch(/\b16\b.* \d+ s in the future/);
    server.fallback = evm(1, Math.floor(Date.now() / 1000));
    await failure(check([node("ND-900-000-005", server.url)]), "ND-900-000-005", "chain id");
  });

  test("plain http:// off loopback is not called", async () => {
    await failure(check([node("ND-900-000-002", "http://192.0.2.1:8545")]), "ND-900-000-002");
    expect(messages[messages.length - 1]).toMatch(/plain http:/);
  });
});

test("no failure message held a credential or an endpoint URL", () => {
  expect(messages.length).toBeGreaterThan(20);
  expect(leaked(emulator(), messages)).toEqual([]);
  expect(messages.filter((m) => m.includes("/node/"))).toEqual([]);
});
