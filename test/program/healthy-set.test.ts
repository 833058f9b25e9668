/** A healthy set in a TypeScript program (setMocks, the emulator): the nodes left out in one warning, under the call's parent. */
import * as pulumi from "@pulumi/pulumi";
import { withEmulator } from "../helpers/emulator";
import { mockedSdk, valueOf } from "./outputs";

const sdk = mockedSdk();

const emulator = withEmulator({ seed: 11, quiet: true });
const [A, B, C, D] = ["ND-100-000-001", "ND-100-000-002", "ND-100-000-003", "ND-100-000-004"];

afterEach(() => {
  jest.restoreAllMocks();
  for (const id of [A, B, C])
    emulator().admin.setNodeEndpoint(id, { answer: "normal", stalledSeconds: null });
});

test("getNodesOutput with verify { minVerified: 2 }: the two that pass, freshest first; one warning under the call's parent names both left out", async () => {
  emulator().admin.setNodeEndpoint(A, { stalledSeconds: 40 });
  emulator().admin.setNodeEndpoint(B, { answer: "refuse" });
  emulator().admin.setNodeEndpoint(C, { stalledSeconds: 900 });
  const warn = jest.spyOn(pulumi.log, "warn").mockResolvedValue();
  const parent = new pulumi.ComponentResource("test:index:App", "app");
  const nodes = sdk.getNodesOutput(
    {
      apiUrl: emulator().url,
      apiKey: emulator().apiKey,
      network: emulator().fixtures.networkWithNodes,
      verify: { minVerified: 2 },
    },
    { parent },
  );
  const list = await valueOf(nodes);
  expect(list.map((n) => n.id)).toEqual([D, A]);
  expect(list.every((n) => n.httpsEndpoint?.includes("/node/"))).toBe(true);
  const lines = warn.mock.calls.filter(([m]) => m.includes("passed the endpoint check"));
  expect(lines).toHaveLength(1);
  const [[message, resource]] = lines;
  expect(resource).toBe(parent);
  expect(message).toMatch(/^getNodesOutput: 2 of 4 .*\bminVerified 2\b/);
  for (const id of [B, C]) expect(message).toContain(`${id}: `);
  for (const secret of emulator().secrets()) expect(message).not.toContain(secret);
});
