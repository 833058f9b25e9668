/** A program using Network under `pulumi.runtime.setMocks` (the functions: functions.test.ts). */
import * as pulumi from "@pulumi/pulumi";
import { withEmulator } from "../helpers/emulator";
import { mockedSdk, valueOf } from "./outputs";

type Registered = { type: string; name: string; inputs: Record<string, unknown> };
const registered: Registered[] = [];

const sdk = mockedSdk((args) => {
  registered.push({ type: args.type, name: args.name, inputs: args.inputs });
  const state = { ...args.inputs, nodes: [{ id: "ND-1-1-1", details: { authKey: "mock-auth-key" } }] };
  return { id: `${args.name}-id`, state };
});

const emulator = withEmulator({ pageSize: 4 });

test("Network registers the dynamic type with connections and apiKey as secret outputs (nodes readable), the key as a secret input", async () => {
  let seen: pulumi.ResourceTransformationArgs | undefined;
  const net = new sdk.Network(
    "main",
    {
      networkId: emulator().fixtures.networkWithNodes,
      name: "program-net",
      apiUrl: emulator().url,
      apiKey: emulator().apiKey,
    },
    { transformations: [(args) => void (seen = args)] },
  );
  expect(await valueOf(net.networkId)).toBe(emulator().fixtures.networkWithNodes);
  expect(await pulumi.isSecret(net.networkId)).toBe(false);
  expect(await pulumi.isSecret(net.name)).toBe(false);
  // The engine marks these secret from additionalSecretOutputs (mocks do not apply it).
  const secretOutputs = (seen!.opts as pulumi.CustomResourceOptions).additionalSecretOutputs;
  expect(secretOutputs).toEqual(expect.arrayContaining(["connections", "apiKey"]));
  expect(secretOutputs).not.toContain("nodes");
  expect(await pulumi.isSecret(seen!.props.apiKey as pulumi.Output<string>)).toBe(true);
  const reg = registered.find((r) => r.name === "main")!;
  expect(reg.type).toBe("pulumi-nodejs:dynamic/blockchain:Network");
  expect(typeof reg.inputs.__provider).toBe("string");
  expect(reg.inputs.__provider as string).not.toContain(emulator().apiKey);
});
