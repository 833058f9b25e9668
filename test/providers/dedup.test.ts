/** No duplicate work in one run: one listing per arguments, one read per node; `waitFor` polls alone. */
import {
  getNode,
  getNodeConnectionsOutput,
  getNodeOutput,
  getNodes,
  getNodesOutput,
} from "../../src/functions";
import { withEmulator } from "../helpers/emulator";
import { valueOf as settle } from "../program/outputs";

// A fresh emulator (a new URL) for each test: no listing of another test is shared.
const emulator = withEmulator({}, { each: true });

const listings = () =>
  emulator()
    .requests()
    .filter((r) => r.path === "/v1/nodes/").length;

test("the same getNodes / getNodesOutput / getNodeConnectionsOutput arguments make one listing", async () => {
  const args = {
    apiUrl: emulator().url,
    apiKey: emulator().apiKey,
    network: emulator().fixtures.networkWithNodes,
  };
  const before = listings();
  const results = await Promise.all([
    getNodes(args),
    getNodes({ ...args }),
    settle(getNodesOutput(args)),
    settle(getNodeConnectionsOutput(args)),
  ]);
  expect(results[0].length).toBeGreaterThan(0);
  expect(results[1]).toEqual(results[0]);
  // The Output form holds the same metadata, and the endpoints and credentials besides.
  expect(results[2]).toEqual(results[0].map((n) => expect.objectContaining(n)));
  expect(results[3].map((c) => c.id)).toEqual(results[0].map((n) => n.id));
  // Later in the same run: still no new listing.
  await getNodes(args);
  expect(listings() - before).toBe(1);
  // Other arguments are another listing.
  await getNodes({ ...args, status: "running" });
  expect(listings() - before).toBe(2);
});

test("concurrent getNode calls of one id make one request; waitFor polls on its own", async () => {
  const id = emulator().fixtures.beaconNode;
  const reads = () =>
    emulator()
      .requests()
      .filter((r) => r.path === `/v1/nodes/${id}/`).length;
  const args = { id, apiUrl: emulator().url, apiKey: emulator().apiKey };
  const before = reads();
  const nodes = await Promise.all([getNode(args), getNode({ ...args }), settle(getNodeOutput(args))]);
  expect(nodes.map((n) => n.id)).toEqual([id, id, id]);
  expect(reads() - before).toBe(1);
  const waiting = {
    ...args,
    waitFor: { status: "running" as const, timeoutSeconds: 10, intervalSeconds: 0.1 },
  };
  await Promise.all([getNode(waiting), getNode(waiting)]);
  expect(reads() - before).toBe(3);
});

test("a failed listing is forgotten: a later call tries again", async () => {
  const args = {
    apiUrl: emulator().url,
    apiKey: "wrong-key-0123456789abcdef",
    network: emulator().fixtures.networkWithNodes,
  };
  const before = listings();
  await expect(getNodes(args)).rejects.toThrow(/\b401\b/);
  await expect(getNodes(args)).rejects.toThrow(/\b401\b/);
  expect(listings() - before).toBe(2);
});
