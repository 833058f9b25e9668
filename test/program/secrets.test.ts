/**
 * Program tier: a program using getNode/getNodes and Network under `pulumi.runtime.setMocks`.
 * The functions call the emulator over real HTTP; resource registration is mocked.
 */
import * as pulumi from "@pulumi/pulumi";
import { withEmulator } from "../helpers/emulator";

type Registered = { type: string; name: string; inputs: Record<string, unknown> };
const registered: Registered[] = [];

pulumi.runtime.setMocks(
  {
    newResource(args) {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs });
      const state = { ...args.inputs, nodes: [{ id: "ND-1-1-1", details: { authKey: "mock-auth-key" } }] };
      return { id: `${args.name}-id`, state };
    },
    call(args) {
      return args.inputs;
    },
  },
  "program",
  "test",
  false,
);

// Loaded after setMocks, as a program would be.
const sdk: typeof import("../../src") = require("../../src");
const {
  NODE_SECRET_FIELDS,
}: typeof import("../../src/functions/node-result") = require("../../src/functions/node-result");

/** Every endpoint URL and credential of a node: secret wherever it appears. */
const SECRET_FIELDS = [
  "httpsEndpoint",
  "wssEndpoint",
  "graphqlEndpoint",
  "beaconEndpoint",
  "authUsername",
  "authPassword",
  "authKey",
] as const;

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

const emulator = withEmulator({ pageSize: 4 });

describe("getNode / getNodes", () => {
  test("the secret fields are every endpoint and credential of a node", () => {
    expect(NODE_SECRET_FIELDS).toEqual(SECRET_FIELDS);
  });

  test("endpoints and credentials are secret Outputs; metadata is plain; masked twins carry no credential", async () => {
    const nodes = await sdk.getNodes({
      apiUrl: emulator().url,
      apiKey: emulator().apiKey,
      network: emulator().fixtures.networkWithNodes,
    });
    expect(nodes.length).toBeGreaterThan(1);
    for (const node of nodes) {
      expect(typeof node.id).toBe("string");
      expect(typeof node.name).toBe("string");
      expect(typeof node.region).toBe("string");
      expect(typeof node.status).toBe("string");
      for (const field of SECRET_FIELDS) {
        expect(pulumi.Output.isInstance(node[field])).toBe(true);
        expect(await pulumi.isSecret(node[field])).toBe(true);
      }
      const https = await valueOf(node.httpsEndpoint);
      const key = await valueOf(node.authKey);
      expect(https).toBeDefined();
      expect(typeof node.httpsEndpointMasked).toBe("string");
      expect(node.httpsEndpointMasked).not.toContain(key!);
      expect(node.httpsEndpointMasked).not.toBe(https);
      expect(node.httpsEndpointMasked).toContain("***");
    }
  });

  test("getNodeOutput with a secret key: the result is not secret as a whole, its credentials are", async () => {
    const [first] = await sdk.getNodes({
      apiUrl: emulator().url,
      apiKey: emulator().apiKey,
      orderBy: "name",
    });
    const out = sdk.getNodeOutput({
      id: pulumi.output(first.id),
      apiUrl: emulator().url,
      apiKey: pulumi.secret(emulator().apiKey),
    });
    expect(await pulumi.isSecret(out)).toBe(false);
    expect(await valueOf(out.name)).toBe(first.name);
    expect(await pulumi.isSecret(out.name)).toBe(false);
    const endpoint = out.apply((n) => n.httpsEndpoint);
    expect(await pulumi.isSecret(endpoint)).toBe(true);
  });

  test("getNodesOutput keeps metadata readable and the masked twins non-secret", async () => {
    const out = sdk.getNodesOutput({
      apiUrl: emulator().url,
      apiKey: pulumi.secret(emulator().apiKey),
      protocol: "ethereum",
    });
    expect(await pulumi.isSecret(out)).toBe(false);
    const names = out.apply((ns) => ns.map((n) => n.name));
    expect(await pulumi.isSecret(names)).toBe(false);
    const masked = out.apply((ns) => ns.map((n) => n.httpsEndpointMasked));
    expect(await pulumi.isSecret(masked)).toBe(false);
    const endpoints = out.apply((ns) => pulumi.all(ns.map((n) => n.httpsEndpoint)));
    expect(await pulumi.isSecret(endpoints)).toBe(true);
  });
});

describe("a refused API key: the error keeps its class and says where the key came from", () => {
  const wrongKey = "wrong-key-1234567890";

  async function refusal(run: () => Promise<unknown>): Promise<InstanceType<typeof sdk.UnauthorizedError>> {
    const err = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(sdk.UnauthorizedError);
    const e = err as InstanceType<typeof sdk.UnauthorizedError>;
    expect(e.kind).toBe("unauthorized");
    expect(`${e.message}${e.stack}`).not.toContain(wrongKey);
    return e;
  }

  test("from the apiKey argument", async () => {
    const e = await refusal(() =>
      sdk.getNode({ id: emulator().fixtures.beaconNode, apiUrl: emulator().url, apiKey: wrongKey }),
    );
    expect(e.message).toMatch(/the apiKey argument: pass the right key/);
  });

  test("from the stack config", async () => {
    pulumi.runtime.setConfig("blockchain:apiKey", wrongKey);
    try {
      const e = await refusal(() => sdk.getNodes({ apiUrl: emulator().url }));
      expect(e.message).toMatch(/`pulumi config set --secret blockchain:apiKey <key>`/);
      expect(e.stack).toMatch(/`pulumi config set --secret blockchain:apiKey <key>`/);
    } finally {
      pulumi.runtime.setConfig("blockchain:apiKey", "");
    }
  });

  test("from the environment", async () => {
    const saved = process.env.BLOCKCHAIN_API_KEY;
    process.env.BLOCKCHAIN_API_KEY = wrongKey;
    try {
      const e = await refusal(() => sdk.getNodes({ apiUrl: emulator().url }));
      expect(e.message).toMatch(/environment variable BLOCKCHAIN_API_KEY: export the right one/);
    } finally {
      if (saved === undefined) delete process.env.BLOCKCHAIN_API_KEY;
      else process.env.BLOCKCHAIN_API_KEY = saved;
    }
  });
});

describe("Network", () => {
  test("registers the dynamic type with nodes and apiKey as secret outputs, the key as a secret input", async () => {
    let seen: pulumi.ResourceTransformationArgs | undefined;
    const net = new sdk.Network(
      "main",
      {
        networkId: emulator().fixtures.networkWithNodes,
        name: "program-net",
        apiUrl: emulator().url,
        apiKey: emulator().apiKey,
      },
      {
        transformations: [
          (args) => {
            seen = args;
            return undefined;
          },
        ],
      },
    );
    expect(await valueOf(net.networkId)).toBe(emulator().fixtures.networkWithNodes);
    expect(await pulumi.isSecret(net.networkId)).toBe(false);
    expect(await pulumi.isSecret(net.name)).toBe(false);
    // The engine marks these secret from additionalSecretOutputs (mocks do not apply it).
    expect((seen!.opts as pulumi.CustomResourceOptions).additionalSecretOutputs).toEqual(
      expect.arrayContaining(["nodes", "apiKey"]),
    );
    expect(await pulumi.isSecret(seen!.props.apiKey as pulumi.Output<string>)).toBe(true);
    const reg = registered.find((r) => r.name === "main")!;
    expect(reg.type).toBe("pulumi-nodejs:dynamic/blockchain:Network");
    expect(typeof reg.inputs.__provider).toBe("string");
    expect(reg.inputs.__provider as string).not.toContain(emulator().apiKey);
  });
});
