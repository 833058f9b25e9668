/**
 * Pages fetched ahead against the emulator: the same nodes in the same order as a walk of one page
 * at a time, also when list pages fail and are retried, and the pages are requested by number.
 */
import { testClient } from "../helpers/client";
import { withEmulator } from "../helpers/emulator";

const emulator = withEmulator({ pageSize: 7, nodes: 150 });

const client = (maxConcurrentRequests: number) =>
  testClient(emulator().url, emulator().apiKey, {
    maxConcurrentRequests,
    maxRequestsPerSecond: 0,
    retry: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 6 },
  });

test("the parallel listing equals the sequential walk, with faults on list pages", async () => {
  const sequential = await client(1).listAllNodes(undefined, { limit: 1000 });
  expect(sequential.length).toBeGreaterThan(7 * 10);
  emulator().resetRequests();
  emulator().enqueueFaults([
    { status: 503, match: { path: "/v1/nodes/" } },
    { status: 502, match: { path: "/v1/nodes/" } },
    { drop: true, match: { path: "/v1/nodes/" } },
    { status: 504, match: { path: "/v1/nodes/" } },
  ]);
  const parallel = await client(8).listAllNodes(undefined, { limit: 1000 });
  expect(parallel.map((n) => n.id)).toEqual(sequential.map((n) => n.id));
  const statuses = emulator()
    .requests()
    .map((r) => r.status);
  expect(statuses.filter((s) => s !== 200).length).toBe(4);
  expect(statuses.filter((s) => s === 200).length).toBe(Math.ceil(sequential.length / 7));
});
