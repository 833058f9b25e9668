/**
 * `verify.minVerified`, a healthy set, against the emulator's four nodes of `NW-100-000-1`
 * (ethereum-mainnet): the nodes that pass, freshest head first; each node left out named in one
 * warning; fewer than asked fail with one message; with `waitFor`, the wait ends once enough pass.
 */
import { InvalidInputError } from "../../src/api";
import { listNodes, readNode, type Connect } from "../../src/functions/lookups";
import { VerifyError } from "../../src/functions/verify";
import { WaitTimeoutError } from "../../src/functions/wait";
import { rejection, testClient } from "../helpers/client";
import { leaked, withEmulator } from "../helpers/emulator";

const emulator = withEmulator({ seed: 11, quiet: true });
const connect: Connect = (_args, use) => use(testClient(emulator().url, emulator().apiKey));
const [A, B, C, D] = ["ND-100-000-001", "ND-100-000-002", "ND-100-000-003", "ND-100-000-004"];
/** Every message and warning of the file, audited for credentials at the end. */
const said: string[] = [];

// The four nodes run and answer normally; each test's rehearsals are undone after it.
afterEach(() => {
  for (const id of [A, B, C, D]) {
    emulator().admin.setNodeEndpoint(id, { stalledSeconds: null, chainId: null, answer: "normal" });
    emulator().admin.setNodeStatus(id, "running");
  }
});

/** The warnings of the last {@link healthySet} call, whether it passed or failed. */
let lastWarnings: string[] = [];

/** The network's nodes checked with `verify`, and the warnings the call gave. */
async function healthySet(verify: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const warnings: string[] = (lastWarnings = []);
  const warn = (message: string) => void warnings.push(message);
  const args = { network: emulator().fixtures.networkWithNodes, verify, ...more };
  const nodes = await listNodes("getNodesOutput", args, connect, { warn }).finally(() =>
    said.push(...warnings),
  );
  return { ids: nodes.map((n) => n.id), nodes, warnings };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = (await rejection(promise)) as Error;
  said.push(error.message);
  return error;
}

/** One node refusing connections, one with its head 900 s old. */
function twoBad(): void {
  emulator().admin.setNodeEndpoint(B, { answer: "refuse" });
  emulator().admin.setNodeEndpoint(C, { stalledSeconds: 900 });
}

/** B named as left out, and C with its head's age and the bound. */
function namesTwoBad(message: string): void {
  expect(message).toContain(`${B}: `);
  expect(message).toMatch(new RegExp(`${C}: [^;]*\\b9\\d\\d s\\b[^;]*\\b120 s\\b`));
}

describe("a healthy set of the network's four nodes, one refusing and one stalled", () => {
  test.each([
    ["A's head 40 s old, D's fresh", A, [D, A]],
    ["D's head 40 s old, A's fresh", D, [A, D]],
  ])(
    "minVerified 2: the two that pass, freshest head first (%s); one warning names both left out",
    async (_label, older, order) => {
      twoBad();
      emulator().admin.setNodeEndpoint(older, { stalledSeconds: 40 });
      const { ids, warnings } = await healthySet({ minVerified: 2 });
      expect(ids).toEqual(order);
      expect(warnings).toEqual([expect.stringMatching(/^getNodesOutput: 2 of 4 .*\bminVerified 2\b/)]);
      namesTwoBad(warnings[0]);
      for (const id of order) expect(warnings[0]).not.toContain(id);
    },
  );

  test("minVerified 3: one message naming both nodes that failed, how many passed, and the settings to raise; without minVerified every node must pass, as before: the same two fail the call", async () => {
    twoBad();
    const error = await failure(healthySet({ minVerified: 3 }));
    expect(error).toBeInstanceOf(VerifyError);
    expect(error.message).toMatch(/^getNodesOutput: 2 of 4 .*verify\.minVerified\b.*\b3\b/);
    namesTwoBad(error.message);
    for (const field of ["verify.maxHeadAgeSeconds", "verify.timeoutSeconds"])
      expect(error.message).toContain(field);
    expect(lastWarnings).toEqual([]);
    const all = await failure(healthySet({}));
    expect(all).toBeInstanceOf(VerifyError);
    expect(all.message).toMatch(/^getNodesOutput: 2 of 4 /);
    expect(all.message).not.toContain("minVerified");
    namesTwoBad(all.message);
  });

  test("every node passing: all four, no warning", async () => {
    const { ids, warnings } = await healthySet({ minVerified: 2 });
    expect([...ids].sort()).toEqual([A, B, C, D]);
    expect(warnings).toEqual([]);
  });

  test("more asked than nodes match: one message saying how many matched", async () => {
    const error = await failure(healthySet({ minVerified: 5 }));
    expect(error).toMatchObject({ name: "VerifyError", lasting: true });
    expect(error.message).toMatch(/^getNodesOutput: 4 of 4 .*verify\.minVerified\b.*\b5\b/);
  });
});

describe("with waitFor", () => {
  const waitFor = { status: "running", timeoutSeconds: 60, intervalSeconds: 0.1 } as const;

  test("one node stopped and one on another chain (lasting): minVerified 2 ends the wait with the two that pass; minVerified 3 waits until the stopped one runs and passes", async () => {
    emulator().admin.setNodeStatus(A, "stopped");
    emulator().admin.setNodeEndpoint(B, { chainId: "5" });
    const two = await healthySet({ minVerified: 2 }, { waitFor });
    expect([[...two.ids].sort(), two.warnings.length]).toEqual([[C, D], 1]);
    expect(two.warnings[0]).toMatch(new RegExp(`${A}: [^;]*\\bstopped\\b`));
    expect(two.warnings[0]).toMatch(new RegExp(`${B}: [^;]*\\b5\\b.*ethereum-mainnet`));
    const { admin } = emulator();
    setTimeout(() => admin.setNodeStatus(A, "running"), 500);
    const three = await healthySet({ minVerified: 3 }, { waitFor });
    expect([[...three.ids].sort(), three.warnings.length]).toEqual([[A, C, D], 1]);
    expect(three.warnings[0]).toContain(`${B}: `);
    expect(three.warnings[0]).not.toContain(A);
  });

  test("minVerified 4 with one node on another chain: no wait can mend it, the wait ends at once with the check's message", async () => {
    emulator().admin.setNodeEndpoint(B, { chainId: "5" });
    const error = await failure(healthySet({ minVerified: 4 }, { waitFor }));
    expect(error).toBeInstanceOf(VerifyError);
    expect(error).not.toBeInstanceOf(WaitTimeoutError);
    expect(error.message).toMatch(/\b3 of 4 .*verify\.minVerified\b.*\b4\b/);
  });

  test("minVerified 3 with two nodes stalled (mendable): the timeout names the last check", async () => {
    twoBad();
    const error = await failure(
      healthySet({ minVerified: 3 }, { waitFor: { ...waitFor, timeoutSeconds: 1 } }),
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.message).toMatch(/\b2 of 4 .*verify\.minVerified\b.*\b3\b/);
  });
});

describe("minVerified checked with the other verify fields", () => {
  test.each([0, -1, 1.5, "2", NaN])(
    "%p is refused before any request, naming verify.minVerified",
    async (value) => {
      emulator().resetRequests();
      const error = await failure(healthySet({ minVerified: value }));
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.message).toContain("verify.minVerified");
      expect(emulator().requests()).toEqual([]);
    },
  );

  test("getNode takes minVerified 1 (one node, as without it) and refuses 2, nothing sent", async () => {
    const one = await readNode("getNode", { id: A, verify: { minVerified: 1 } }, connect);
    expect(one.verified!.chainId).toBe("1");
    emulator().resetRequests();
    const error = await failure(readNode("getNode", { id: A, verify: { minVerified: 2 } }, connect));
    expect(error).toBeInstanceOf(InvalidInputError);
    for (const token of ["verify.minVerified", "getNodes"]) expect(error.message).toContain(token);
    expect(emulator().requests()).toEqual([]);
  });
});

test("no message or warning held a credential or an endpoint URL", () => {
  expect(said.length).toBeGreaterThan(10);
  expect(leaked(emulator(), said)).toEqual([]);
  expect(said.filter((m) => /\/node\/|:\/\//.test(m))).toEqual([]);
});
