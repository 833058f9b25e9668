/** getNode / getNodes with `waitFor` against the emulator; the wait's own rules are in the pure tier. */
import { getNode, getNodes } from "../../src/functions";
import { withEmulator } from "../helpers/emulator";

const emulator = withEmulator();
const conn = () => ({ apiUrl: emulator().url, apiKey: emulator().apiKey });

test("getNode waits until the node reaches the status", async () => {
  const id = emulator().fixtures.beaconNode;
  emulator().admin.setNodeStatus(id, "starting");
  const timer = setTimeout(() => emulator().admin.setNodeStatus(id, "running"), 300);
  const node = await getNode({
    id,
    ...conn(),
    waitFor: { status: "running", timeoutSeconds: 10, intervalSeconds: 0.1 },
  });
  clearTimeout(timer);
  expect(node.status).toBe("running");
  const polls = emulator()
    .requests()
    .filter((r) => r.path === `/v1/nodes/${id}/`).length;
  expect(polls).toBeGreaterThan(1);
});

test("getNodes fails with a clear timeout error naming the nodes still elsewhere", async () => {
  const network = emulator().fixtures.networkWithNodes;
  const [first] = await getNodes({ ...conn(), network });
  emulator().admin.setNodeStatus(first.id, "maintenance");
  await expect(
    getNodes({
      ...conn(),
      network,
      waitFor: { status: "running", timeoutSeconds: 0.3, intervalSeconds: 0.1 },
    }),
  ).rejects.toThrow(new RegExp(`^getNodes: .*\\b0\\.3 s\\b.*\\brunning\\b.*${first.id} \\(maintenance\\)`));
  emulator().admin.setNodeStatus(first.id, "running");
});
