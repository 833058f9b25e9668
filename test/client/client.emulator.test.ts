import {
  NetworkError,
  Node,
  NodeServiceClientOptions,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
} from "../../src/api";
import { collect, failureRecorder, renderings, testClient } from "../helpers/client";
import { leaked, withEmulator } from "../helpers/emulator";

const PAGE_SIZE = 4;
// The faucet's clock runs two days ahead, so its nextFaucetAvailable is always days away.
const emulator = withEmulator({
  seed: 7,
  pageSize: PAGE_SIZE,
  now: () => new Date(Date.now() + 2 * 86_400_000),
});
let all: Node[];
const errors: unknown[] = [];
let addressCounter = 0;

const requests = () => emulator().requests();
const client = (options: Partial<NodeServiceClientOptions> = {}) =>
  testClient(emulator().url, emulator().apiKey, options);
const fails = failureRecorder(errors);
/** A fresh, all-lowercase address: the faucet sends once per address per day. */
const freshAddress = () => `0x${(++addressCounter).toString(16).padStart(40, "0")}`;
const ids = (nodes: Node[]) => nodes.map((n) => n.id).sort();

beforeAll(async () => void (all = await client().listAllNodes(undefined, { limit: 1000 })));

describe("list nodes", () => {
  it("follows next over several pages, each node once", async () => {
    emulator().resetRequests();
    const nodes = await collect(client().listNodes());
    expect(nodes.length).toBeGreaterThan(PAGE_SIZE * 3);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    const pages = requests().filter((r) => r.path === "/v1/nodes/");
    expect(pages.length).toBe(Math.ceil(nodes.length / PAGE_SIZE));
    expect(pages.map((r) => r.query.page)).toEqual([
      undefined,
      ...Array.from({ length: pages.length - 1 }, (_, i) => String(i + 2)),
    ]);
    expect(ids(nodes)).toEqual(ids(all));
  });

  it("pages fetched ahead, with faults on list pages: the same nodes in the same order as a walk of one page at a time", async () => {
    const retry = { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 6 };
    const walk = (maxConcurrentRequests: number) =>
      client({ maxConcurrentRequests, retry }).listAllNodes(undefined, { limit: 1000 });
    const sequential = await walk(1);
    expect(sequential.length).toBeGreaterThan(PAGE_SIZE * 10);
    emulator().resetRequests();
    const faults = [{ status: 503 }, { status: 502 }, { drop: true }, { status: 504 }] as const;
    emulator().enqueueFaults(faults.map((fault) => ({ ...fault, match: { path: "/v1/nodes/" } })));
    expect((await walk(8)).map((n) => n.id)).toEqual(sequential.map((n) => n.id));
    const statuses = requests().map((r) => r.status);
    expect(statuses.filter((s) => s !== 200).length).toBe(4);
    expect(statuses.filter((s) => s === 200).length).toBe(Math.ceil(sequential.length / PAGE_SIZE));
  });
});

describe("get node", () => {
  it("returns one node", async () => {
    const node = await client().getNode(emulator().fixtures.beaconNode);
    expect(node).toEqual(all.find((n) => n.id === emulator().fixtures.beaconNode));
  });

  it("an unknown node → NotFoundError", async () => {
    const e = await fails(client().getNode("ND-999-999-999"));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e).toMatchObject({ operation: "getNode", resourceId: "ND-999-999-999" });
    expect(e).toMatchObject({ status: 404, code: "not_found" });
    for (const token of ["getNode", "ND-999-999-999", "not_found"]) expect(e.message).toContain(token);
  });
});

describe("networks", () => {
  it("readNetwork is a PATCH with {} and returns the network with its nodes", async () => {
    emulator().resetRequests();
    const { networkWithNodes: id, project } = emulator().fixtures;
    const network = await client().readNetwork(id);
    expect(network).toMatchObject({ id, project, protocol: "ethereum", publicNetwork: "ethereum-mainnet" });
    expect(network.nodes.length).toBe(4);
    expect(requests().map((r) => [r.method, r.path])).toEqual([["PATCH", `/v1/networks/${id}/`]]);
  });

  it("updateNetwork renames, and moves to another project of the organization", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const renamed = await client().updateNetwork(id, { name: "Renamed by test" });
    expect(renamed.name).toBe("Renamed by test");
    expect((await client().readNetwork(id)).name).toBe("Renamed by test");
    expect(emulator().admin.getNetwork(id)?.name).toBe("Renamed by test");
    const moved = await client().updateNetwork(id, { project: emulator().fixtures.project });
    expect(moved.project).toBe(emulator().fixtures.project);
    const back = await client().updateNetwork(id, {
      project: emulator().fixtures.otherProject,
      name: "Scratch",
    });
    expect(back).toMatchObject({ project: emulator().fixtures.otherProject, name: "Scratch" });
  });

  it("delete: 204 deleted, then 404 alreadyGone", async () => {
    const id = emulator().fixtures.emptyNetwork;
    expect(await client().deleteNetwork(id)).toEqual({ status: "deleted" });
    expect(await client().deleteNetwork(id)).toEqual({ status: "alreadyGone" });
    expect(await fails(client().readNetwork(id))).toBeInstanceOf(NotFoundError);
  });
});

it("faucet: sends 500000000000000000 wei, then 429 with nextFaucetAvailable", async () => {
  const c = client();
  const result = await c.requestTestTokens(emulator().fixtures.faucetAddress);
  expect(result.amountSent).toBe("500000000000000000");
  expect(result.transaction).toMatch(/^https:\/\/.*\/tx\/0x[0-9a-f]{64}$/);
  const e = await fails(c.requestTestTokens(emulator().fixtures.faucetAddress));
  expect(e).toBeInstanceOf(RateLimitedError);
  expect(e.status).toBe(429);
  expect(Date.parse(e.nextFaucetAvailable!)).toBeGreaterThan(Date.now());
  expect(e.message).toContain(e.nextFaucetAvailable);
  expect(e.attempts).toBe(1);
});

describe("retries through injected faults", () => {
  it("a dropped connection, twice, then success", async () => {
    emulator().resetRequests();
    emulator().enqueueFaults([{ drop: true }, { drop: true }]);
    expect((await client().readNetwork(emulator().fixtures.networkWithNodes)).id).toBeDefined();
    expect(requests().map((r) => r.status)).toEqual([0, 0, 200]);
  });

  it.each([
    ["a connection dropped after processing", { drop: true, after: "processing" }, NetworkError, {}],
    ["a timeout (the emulator processes it anyway)", { delayMs: 300 }, TimeoutError, { timeoutMs: 100 }],
  ] as const)("faucet: %s is not retried; the send happened", async (_what, fault, type, options) => {
    const before = emulator().faucetSends().length;
    emulator().resetRequests();
    emulator().enqueueFaults([{ ...fault, match: { method: "POST" } }]);
    const e = await fails(client(options).requestTestTokens(freshAddress()));
    expect(e).toBeInstanceOf(type);
    expect(e.mayHaveBeenProcessed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const posts = requests().filter((r) => r.method === "POST");
    expect([posts.length, emulator().faucetSends().length]).toEqual([1, before + 1]);
  });
});

it("no error carries an API key or a node credential", () => {
  expect(errors.length).toBeGreaterThanOrEqual(5);
  const texts = errors.map((e) => renderings(e).join("\n"));
  expect(leaked(emulator(), texts)).toEqual([]);
});
