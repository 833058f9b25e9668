import util from "node:util";
import {
  ApiError,
  ConflictError,
  NetworkError,
  Node,
  NodeServiceClient,
  NodeServiceClientOptions,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from "../../src/api";
import { collect, failureRecorder, testClient } from "../helpers/client";
import { withEmulator } from "../helpers/emulator";

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

function client(options: Partial<NodeServiceClientOptions> = {}): NodeServiceClient {
  return testClient(emulator().url, emulator().apiKey, options);
}

/** Awaits a rejection, keeps the error for the key audit, and returns it. */
const fails = failureRecorder(errors);

/** A fresh, all-lowercase address: the faucet sends once per address per day. */
function freshAddress(): string {
  addressCounter++;
  return `0x${addressCounter.toString(16).padStart(40, "0")}`;
}

function ids(nodes: Node[]): string[] {
  return nodes.map((n) => n.id).sort();
}

beforeAll(async () => {
  all = await client().listAllNodes(undefined, { limit: 1000 });
});

describe("list nodes", () => {
  it("follows next over several pages, each node once", async () => {
    emulator().resetRequests();
    const nodes = await collect(client().listNodes());
    expect(nodes.length).toBeGreaterThan(PAGE_SIZE * 3);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    const pages = emulator()
      .requests()
      .filter((r) => r.path === "/v1/nodes/");
    expect(pages.length).toBe(Math.ceil(nodes.length / PAGE_SIZE));
    expect(pages.map((r) => r.query.page)).toEqual([
      undefined,
      ...Array.from({ length: pages.length - 1 }, (_, i) => String(i + 2)),
    ]);
    expect(ids(nodes)).toEqual(ids(all));
  });

  it("includes the fixtures' nodes and maps details", () => {
    const beacon = all.find((n) => n.id === emulator().fixtures.beaconNode);
    expect(beacon?.network).toBe(emulator().fixtures.networkWithNodes);
    expect(beacon?.details.beaconEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/);
    expect(beacon?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(beacon?.creator?.organization.id).toBe(emulator().fixtures.organization);
  });

  it.each([
    ["name", (a: Node, b: Node) => a.name <= b.name],
    ["-name", (a: Node, b: Node) => a.name >= b.name],
    ["created_at", (a: Node, b: Node) => a.createdAt <= b.createdAt],
    ["-created_at", (a: Node, b: Node) => a.createdAt >= b.createdAt],
  ] as const)("orders by %s across pages", async (orderBy, inOrder) => {
    const nodes = await collect(client().listNodes({ orderBy }));
    expect(ids(nodes)).toEqual(ids(all));
    for (let i = 1; i < nodes.length; i++) expect(inOrder(nodes[i - 1], nodes[i])).toBe(true);
    if (orderBy.endsWith("created_at")) {
      const times = nodes.map((n) => Date.parse(n.createdAt));
      const sorted = [...times].sort((a, b) => (orderBy.startsWith("-") ? b - a : a - b));
      expect(times).toEqual(sorted);
    }
  });
});

describe("get node", () => {
  it("returns one node", async () => {
    const node = await client().getNode(emulator().fixtures.beaconNode);
    expect(node).toEqual(all.find((n) => n.id === emulator().fixtures.beaconNode));
  });

  it("a node of another organization in a shared network has no credentials", async () => {
    const foreign = all.find((n) => n.organization !== emulator().fixtures.organization);
    expect(foreign).toBeDefined();
    const node = await client().getNode(foreign!.id);
    expect(node.details.httpsEndpoint).toBeUndefined();
    expect(node.details.authPassword).toBeUndefined();
  });

  it("an unknown node → NotFoundError", async () => {
    const e = await fails(client().getNode("ND-999-999-999"));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e).toMatchObject({
      operation: "getNode",
      resourceId: "ND-999-999-999",
      status: 404,
      code: "not_found",
    });
    for (const token of ["getNode", "ND-999-999-999", "not_found"]) expect(e.message).toContain(token);
  });
});

describe("networks", () => {
  it("readNetwork is a PATCH with {} and returns the network with its nodes", async () => {
    emulator().resetRequests();
    const network = await client().readNetwork(emulator().fixtures.networkWithNodes);
    expect(network).toMatchObject({
      id: emulator().fixtures.networkWithNodes,
      project: emulator().fixtures.project,
      protocol: "ethereum",
      publicNetwork: "ethereum-mainnet",
    });
    expect(network.nodes.length).toBe(4);
    expect(
      emulator()
        .requests()
        .map((r) => [r.method, r.path]),
    ).toEqual([["PATCH", `/v1/networks/${emulator().fixtures.networkWithNodes}/`]]);
  });

  it("updateNetwork renames", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const renamed = await client().updateNetwork(id, { name: "Renamed by test" });
    expect(renamed.name).toBe("Renamed by test");
    expect((await client().readNetwork(id)).name).toBe("Renamed by test");
    expect(emulator().admin.getNetwork(id)?.name).toBe("Renamed by test");
  });

  it("updateNetwork moves to another project of the organization", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const moved = await client().updateNetwork(id, { project: emulator().fixtures.project });
    expect(moved.project).toBe(emulator().fixtures.project);
    const back = await client().updateNetwork(id, {
      project: emulator().fixtures.otherProject,
      name: "Scratch",
    });
    expect(back).toMatchObject({ project: emulator().fixtures.otherProject, name: "Scratch" });
  });

  it("moving to a project of another organization → ValidationError with fields", async () => {
    const e = await fails(
      client().updateNetwork(emulator().fixtures.secondEmptyNetwork, {
        project: emulator().fixtures.foreignProject,
      }),
    );
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.status).toBe(400);
    expect(e.fields).toHaveProperty("project");
  });

  it("a network of another organization → NotFoundError", async () => {
    const e = await fails(client().readNetwork(emulator().fixtures.foreignNetwork));
    expect(e).toBeInstanceOf(NotFoundError);
  });

  it("deleting a network that has nodes → ConflictError (409)", async () => {
    const e = await fails(client().deleteNetwork(emulator().fixtures.networkWithNodes));
    expect(e).toBeInstanceOf(ConflictError);
    expect(e).toMatchObject({ status: 409, operation: "deleteNetwork" });
  });

  it("delete: 204 deleted, then 404 alreadyGone", async () => {
    const id = emulator().fixtures.emptyNetwork;
    expect(await client().deleteNetwork(id)).toEqual({ status: "deleted" });
    expect(await client().deleteNetwork(id)).toEqual({ status: "alreadyGone" });
    expect(await fails(client().readNetwork(id))).toBeInstanceOf(NotFoundError);
  });

  it("another organization's key cannot see the network", async () => {
    const other = client({ apiKey: emulator().keys[emulator().fixtures.otherOrganization] });
    expect(await fails(other.readNetwork(emulator().fixtures.networkWithNodes))).toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe("faucet", () => {
  it("sends 500000000000000000 wei, then 429 with nextFaucetAvailable", async () => {
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
});

describe("authentication", () => {
  it("a wrong key → UnauthorizedError that never shows the key", async () => {
    const wrong = "wrong-key-0123456789abcdef0123";
    const e = await fails(client({ apiKey: wrong }).getNode(emulator().fixtures.beaconNode));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e).toMatchObject({ status: 401, kind: "unauthorized" });
    expect(`${e.message}${e.stack}${JSON.stringify(e)}${util.inspect(e)}`).not.toContain(wrong);
  });
});

describe("retries through injected faults", () => {
  it("a dropped connection, twice, then success", async () => {
    emulator().resetRequests();
    emulator().enqueueFaults([{ drop: true }, { drop: true }]);
    expect((await client().readNetwork(emulator().fixtures.networkWithNodes)).id).toBeDefined();
    expect(
      emulator()
        .requests()
        .map((r) => r.status),
    ).toEqual([0, 0, 200]);
  });

  it("faucet: a connection dropped after processing is not retried; the send happened", async () => {
    const before = emulator().faucetSends().length;
    emulator().resetRequests();
    emulator().enqueueFaults([{ drop: true, after: "processing", match: { method: "POST" } }]);
    const e = await fails(client().requestTestTokens(freshAddress()));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.mayHaveBeenProcessed).toBe(true);
    expect(emulator().requests()).toHaveLength(1);
    expect(emulator().faucetSends().length).toBe(before + 1);
  });

  it("faucet: a timeout is not retried; the emulator processed it anyway", async () => {
    const before = emulator().faucetSends().length;
    emulator().resetRequests();
    emulator().enqueueFaults([{ delayMs: 300, match: { method: "POST" } }]);
    const e = await fails(client({ timeoutMs: 100 }).requestTestTokens(freshAddress()));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.mayHaveBeenProcessed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      emulator()
        .requests()
        .filter((r) => r.method === "POST"),
    ).toHaveLength(1);
    expect(emulator().faucetSends().length).toBe(before + 1);
  });
});

describe("no secret leaks", () => {
  it("no error carries an API key or a node credential", () => {
    expect(errors.length).toBeGreaterThanOrEqual(10);
    const secrets = emulator().secrets();
    for (const error of errors) {
      const e = error as ApiError;
      const text = `${e.message}\n${e.stack}\n${JSON.stringify(e)}\n${util.inspect(e, { depth: 10 })}`;
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
