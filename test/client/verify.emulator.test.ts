/**
 * `verify`: each node's own endpoint called as an app would, against the emulator's nodes (every
 * protocol family) and against small servers of this test (redirects, concurrency): chain id right
 * and wrong, head fresh and stale, credentials good and rotated, down, slow, huge, not JSON.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { InvalidInputError, type Node, type NodeServiceClient } from "../../src/api";
import {
  EXPECTED_CHAIN_IDS,
  PROTOCOL_CHAINS,
  PUBLIC_NETWORKS,
  type Protocol,
  type PublicNetwork,
} from "../../src/model";
import { readNode, listNodes, type Connect } from "../../src/functions/lookups";
import { checkVerify, verifyNodes, VerifyError, type VerifyOptions } from "../../src/functions/verify";
import { WaitTimeoutError } from "../../src/functions/wait";
import { testClient } from "../helpers/client";
import { withEmulator } from "../helpers/emulator";

const emulator = withEmulator({ seed: 11, quiet: true });
const client = () => testClient(emulator().url, emulator().apiKey);
const connect: Connect = (_args, use) => use(client());
const messages: string[] = [];

/** The node as the service shows it now. */
const fresh = (id: string) => client().getNode(id);

/** A running node of `protocol` that shows its endpoint, and its network's public network. */
async function nodeOf(protocol: Protocol): Promise<{ node: Node; publicNetwork: PublicNetwork }> {
  const names = (Object.keys(PUBLIC_NETWORKS) as PublicNetwork[]).filter(
    (n) => PUBLIC_NETWORKS[n] === protocol,
  );
  for (const publicNetwork of names) {
    const nodes = await client().listAllNodes({ publicNetwork, status: "running" }, { limit: 1000 });
    const node = nodes.find(
      (n) => n.details.httpsEndpoint && n.organization === emulator().fixtures.organization,
    );
    if (node) return { node, publicNetwork };
  }
  throw new Error(`no running ${protocol} node in the seed`);
}

async function verify(nodes: Node[], options: boolean | VerifyOptions = true) {
  return verifyNodes("getNodes", nodes, checkVerify("getNodes", options)!, client());
}

/** The failure of `promise`, kept for the audit at the end. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => new Error("expected a failure"),
    (e: Error) => e,
  );
  messages.push(error.message);
  return error;
}

const FAMILIES: Protocol[] = ["ethereum", "avalanche", "bitcoin", "near", "starknet", "tezos"];

describe.each(FAMILIES)("a %s node", (protocol) => {
  test("answers its network's chain with a fresh head; verified holds no URL", async () => {
    const { node, publicNetwork } = await nodeOf(protocol);
    const [checked] = await verify([node]);
    const { verified } = checked;
    expect(verified).toMatchObject({ chainId: EXPECTED_CHAIN_IDS[publicNetwork][0] });
    expect(verified!.headBlock).toBeGreaterThan(0);
    expect(verified!.headAgeSeconds).toBeLessThanOrEqual(PROTOCOL_CHAINS[protocol].blockSeconds + 1);
    expect(Date.parse(verified!.checkedAt)).not.toBeNaN();
    expect(JSON.stringify(verified)).not.toMatch(/https?:|\/\//);
  });

  test("serving another chain fails naming both; expectedChainId accepts it", async () => {
    const { node, publicNetwork } = await nodeOf(protocol);
    const other =
      protocol === "starknet"
        ? "SN_OTHER"
        : protocol === "tezos"
          ? "NetXotherchain1"
          : protocol === "bitcoin"
            ? "regtest"
            : protocol === "near"
              ? "localnet"
              : "5";
    emulator().admin.setNodeEndpoint(node.id, { chainId: other });
    try {
      const error = await failure(verify([node]));
      expect(error).toBeInstanceOf(VerifyError);
      expect(error.message).toContain(
        `getNodes: ${node.id} failed its endpoint check: wrong chain: it serves ${other}, ${publicNetwork} is ${EXPECTED_CHAIN_IDS[publicNetwork].join(" or ")}.`,
      );
      expect(error.message).toContain("verify.expectedChainId");
      const expectedChainId = protocol === "ethereum" || protocol === "avalanche" ? "0x5" : other;
      const [checked] = await verify([node], { expectedChainId });
      expect(checked.verified!.chainId).toBe(other);
    } finally {
      emulator().admin.setNodeEndpoint(node.id, { chainId: null });
    }
  });

  test("a stalled head fails with its age; a larger maxHeadAgeSeconds accepts it", async () => {
    const { node } = await nodeOf(protocol);
    const limit = PROTOCOL_CHAINS[protocol].maxHeadAgeSeconds;
    emulator().admin.setNodeEndpoint(node.id, { stalledSeconds: limit + 500 });
    try {
      const error = await failure(verify([node]));
      expect(error.message).toMatch(
        new RegExp(
          `its head block \\d+ is (${limit + 500}|${limit + 501}) s old \\(at most ${limit} s accepted\\)`,
        ),
      );
      const [checked] = await verify([node], { maxHeadAgeSeconds: limit + 1000 });
      expect(checked.verified!.headAgeSeconds).toBeGreaterThanOrEqual(limit + 500);
    } finally {
      emulator().admin.setNodeEndpoint(node.id, { stalledSeconds: null });
    }
  });
});

describe("what the endpoint does to the check", () => {
  test("rotated credentials are refused; the service's new ones pass", async () => {
    const { node } = await nodeOf("polygon-pos");
    emulator().admin.rotateCredentials(node.id);
    const error = await failure(verify([node]));
    expect(error.message).toContain(
      `${node.id} failed its endpoint check: its credentials were refused (HTTP 401)`,
    );
    expect(error.message).toContain("if they were just rotated, run again");
    await expect(verify([await fresh(node.id)])).resolves.toHaveLength(1);
  });

  test.each([
    [{ answer: "refuse" }, /it could not be reached \((ECONNRESET|socket hang up|[^)]+)\)/],
    [{ answer: "503" }, /it answered HTTP 503/],
    [{ answer: "slow", delayMs: 5000 }, /no answer within 0.5 s/],
    [{ answer: "huge" }, /its answer passed the 1048576 bytes read at most/],
    [{ answer: "not-json" }, /it answered HTTP 200 with something that is not JSON \(text\/html\)/],
  ] as const)("%j fails naming it", async (behaviour, expected) => {
    const { node } = await nodeOf("bsc");
    emulator().admin.setNodeEndpoint(node.id, behaviour);
    try {
      const started = Date.now();
      const error = await failure(verify([node], { timeoutSeconds: 0.5 }));
      expect(error.message).toMatch(expected);
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      emulator().admin.setNodeEndpoint(node.id, { answer: "normal" });
    }
  });

  test("a node not running, or showing no endpoint, fails without a request to it", async () => {
    const { node } = await nodeOf("fantom");
    emulator().admin.setNodeStatus(node.id, "stopped");
    const stopped = await fresh(node.id);
    emulator().admin.setNodeStatus(node.id, "running");
    const foreign = (
      await client().listAllNodes({ network: emulator().fixtures.consortiumNetwork }, { limit: 100 })
    ).find((n) => !n.details.httpsEndpoint)!;
    emulator().resetRequests();
    const error = await failure(verify([stopped, { ...foreign, status: "running" }]));
    expect(error.message).toContain(
      `2 of 2 nodes failed their endpoint check: ${node.id}: it is stopped, not running; ${foreign.id}: it shows no HTTPS endpoint to this API key.`,
    );
    expect(error.message).toContain('add waitFor: { status: "running" }');
    expect(error.message).toContain("use an API key of the node's organization");
    expect(
      emulator()
        .requests()
        .filter((r) => r.route.startsWith("/node/")),
    ).toEqual([]);
  });

  test("the key appended to a bare endpoint, or basic auth alone, both pass; wrong basic auth is refused", async () => {
    const { node } = await nodeOf("gnosis");
    const d = node.details;
    const bare = d.httpsEndpoint!.replace(`/${d.authKey}`, "");
    await expect(verify([{ ...node, details: { ...d, httpsEndpoint: bare } }])).resolves.toHaveLength(1);
    const basicOnly = { ...d, httpsEndpoint: bare, authKey: undefined };
    await expect(verify([{ ...node, details: basicOnly }])).resolves.toHaveLength(1);
    const wrong = { ...basicOnly, authPassword: "not-the-password" };
    const error = await failure(verify([{ ...node, details: wrong }]));
    expect(error.message).toContain("its credentials were refused (HTTP 401)");
  });

  test("the lookups check after the wait; a lasting failure ends the wait at once, a passing one ends it", async () => {
    const { node } = await nodeOf("cronos");
    emulator().admin.setNodeEndpoint(node.id, { chainId: "7" });
    const started = Date.now();
    const waitFor = { status: "running" as const, timeoutSeconds: 20, intervalSeconds: 0.1 };
    const error = await failure(readNode("getNodeOutput", { id: node.id, waitFor, verify: true }, connect));
    expect(error).toBeInstanceOf(VerifyError);
    expect(Date.now() - started).toBeLessThan(10_000);
    emulator().admin.setNodeEndpoint(node.id, { chainId: null, stalledSeconds: 1000 });
    const timedOut = await failure(
      readNode(
        "getNodeOutput",
        { id: node.id, waitFor: { ...waitFor, timeoutSeconds: 1 }, verify: true },
        connect,
      ),
    );
    expect(timedOut).toBeInstanceOf(WaitTimeoutError);
    expect(timedOut.message).toMatch(
      /^getNodeOutput ND-[\d-]+: timed out after 1 s waiting for status running and a passing endpoint check; the last endpoint check: ND-[\d-]+ failed its endpoint check: its head block \d+ is 10\d\d s old/,
    );
    setTimeout(() => emulator().admin.setNodeEndpoint(node.id, { stalledSeconds: null }), 500);
    const passed = await readNode("getNodeOutput", { id: node.id, waitFor, verify: true }, connect);
    expect(passed.verified!.headAgeSeconds).toBeLessThan(10);
  });

  test("getNodes checks every node it lists; the listing and the network lookups only GET the service", async () => {
    emulator().resetRequests();
    const nodes = await listNodes(
      "getNodes",
      { network: emulator().fixtures.networkWithNodes, status: "running", verify: true },
      connect,
    );
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) expect(n.verified!.chainId).toBe("1");
    const api = emulator()
      .requests()
      .filter((r) => r.path.startsWith("/v1/"));
    expect(new Set(api.map((r) => r.method))).toEqual(new Set(["GET"]));
  });

  test("a verify that is not one is refused before any request, naming each field", async () => {
    for (const [verify, field] of [
      ["yes", "verify"],
      [{ timeoutSeconds: 0 }, "verify.timeoutSeconds"],
      [{ maxHeadAgeSeconds: -1 }, "verify.maxHeadAgeSeconds"],
      [{ expectedChainId: "" }, "verify.expectedChainId"],
      [{ maxHeadAge: 5 }, "verify.maxHeadAge"],
    ] as const) {
      emulator().resetRequests();
      const error = await failure(
        readNode("getNode", { id: "ND-100-000-001", verify: verify as never }, connect),
      );
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.message).toContain(field);
      expect(emulator().requests()).toEqual([]);
    }
  });
});

describe("against servers of this test", () => {
  const servers: http.Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));
  async function serve(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const node = (id: string, httpsEndpoint: string, authKey = "k3y-0123456789"): Node =>
    ({
      id,
      name: id,
      network: "NW-900-000-1",
      status: "running",
      details: { httpsEndpoint, authKey },
    }) as Node;
  const known = { publicNetwork: "ethereum-mainnet" as const };

  test("a redirect is not followed: the credentials never reach its target", async () => {
    const reached: string[] = [];
    const target = await serve((req, res) => {
      reached.push(`${req.url} ${req.headers.authorization ?? ""}`);
      res.end("{}");
    });
    const url = await serve((_req, res) => {
      res.writeHead(302, { Location: `${target}/elsewhere` });
      res.end();
    });
    const error = await failure(
      verifyNodes("getNode", [node("ND-900-000-001", url)], checkVerify("getNode", true)!, client(), known),
    );
    expect(error.message).toContain("it answered a redirect (HTTP 302), not followed");
    expect(reached).toEqual([]);
  });

  test("a node list that ignores the protocol filter tells no protocol: not checked, said so", async () => {
    const ignoring = {
      apiUrl: "https://ignoring.example/",
      async *listNodes() {
        yield node("ND-900-000-009", "https://ignoring.example/rpc");
      },
    } as unknown as NodeServiceClient;
    const settings = checkVerify("getNode", true)!;
    const error = await failure(
      verifyNodes("getNode", [node("ND-900-000-003", "https://n.example")], settings, ignoring),
    );
    expect(error.message).toContain(
      "ND-900-000-003 failed its endpoint check: the node list does not tell one protocol this package checks for its network NW-900-000-1",
    );
  });

  test("a head dated in the future, or a chain id that is no string, is not taken as fresh", async () => {
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        const seconds = req.url!.includes("ms") ? Date.now() : Math.floor(Date.now() / 1000);
        const chain = req.url!.includes("number") ? 1 : "0x1";
        const result =
          method === "eth_chainId" ? chain : { number: "0x10", timestamp: `0x${seconds.toString(16)}` };
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
      });
    });
    const settings = checkVerify("getNode", true)!;
    const check = (path: string) =>
      failure(verifyNodes("getNode", [node("ND-900-000-004", `${url}/${path}`)], settings, client(), known));
    expect((await check("ms")).message).toMatch(/its head block 16 is dated \d+ s in the future/);
    expect((await check("number")).message).toContain(
      "its answers lack the chain id or the head block that evm calls give",
    );
  });

  test("plain http:// off loopback is not called", async () => {
    const error = await failure(
      verifyNodes(
        "getNode",
        [node("ND-900-000-002", "http://192.0.2.1:8545")],
        checkVerify("getNode", true)!,
        client(),
        known,
      ),
    );
    expect(error.message).toContain(
      "its HTTPS endpoint is plain http:// on a non-loopback host: not checked",
    );
  });

  test("at most 8 checks are in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const url = await serve((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () =>
        setTimeout(() => {
          inFlight--;
          const { id, method } = JSON.parse(body) as { id: number; method: string };
          const result =
            method === "eth_chainId"
              ? "0x1"
              : { number: "0x10", timestamp: `0x${Math.floor(Date.now() / 1000).toString(16)}` };
          res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
        }, 100),
      );
    });
    const nodes = Array.from({ length: 24 }, (_, i) => node(`ND-900-001-${String(i).padStart(3, "0")}`, url));
    const checked = await verifyNodes("getNodes", nodes, checkVerify("getNodes", true)!, client(), known);
    expect(checked).toHaveLength(24);
    // Two calls per EVM check, made at once: 8 checks in flight are 16 requests.
    expect(most).toBeLessThanOrEqual(16);
    expect(most).toBeGreaterThan(2);
  });

  test("at most 8 checks are in flight in the process, across 10 separate calls", async () => {
    let inFlight = 0;
    let most = 0;
    const url = await serve((req, res) => {
      most = Math.max(most, ++inFlight);
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () =>
        setTimeout(() => {
          inFlight--;
          const { id, method } = JSON.parse(body) as { id: number; method: string };
          const result =
            method === "eth_chainId"
              ? "0x1"
              : { number: "0x10", timestamp: `0x${Math.floor(Date.now() / 1000).toString(16)}` };
          res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
        }, 50),
      );
    });
    const settings = checkVerify("getNodes", true)!;
    const calls = Array.from({ length: 10 }, (_, c) =>
      verifyNodes(
        "getNodes",
        Array.from({ length: 3 }, (_, i) => node(`ND-900-002-${c}${i}`, url)),
        settings,
        client(),
        known,
      ),
    );
    expect((await Promise.all(calls)).flat()).toHaveLength(30);
    // Two calls per EVM check, made at once: 8 checks in flight are 16 requests.
    expect(most).toBeLessThanOrEqual(16);
    expect(most).toBeGreaterThan(2);
  });
});

test("no failure message held a credential or an endpoint URL", () => {
  expect(messages.length).toBeGreaterThan(20);
  const leaked = emulator()
    .secrets()
    .filter((s) => messages.some((m) => m.includes(s)));
  expect(leaked).toEqual([]);
  expect(messages.filter((m) => m.includes("/node/"))).toEqual([]);
});
