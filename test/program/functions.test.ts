/** Functions under setMocks on the emulator: results compose, secret as a whole; failures are RunErrors. */
import * as pulumi from "@pulumi/pulumi";
import { NodeServiceClient, type Node } from "../../src/api";
import { toNodeConnection } from "../../src/provider";
import { NODE_SECRET_FIELDS, NODE_STATUSES, NODE_TYPES, PROVIDERS, REGIONS } from "../../src/model";
import { withEmulator } from "../helpers/emulator";
import { withEnv } from "../helpers/env";
import { mockedSdk, outputRejection, rejection, valueOf } from "./outputs";

const sdk = mockedSdk();

const TO_JSON_TEXT = "Calling [toJSON] on an [Output<T>]";

const emulator = withEmulator({ pageSize: 4 });
withEnv({ BLOCKCHAIN_API_KEY: undefined, BLOCKCHAIN_API_URL: undefined }, { each: true });
const conn = () => ({ apiUrl: emulator().url, apiKey: emulator().apiKey });

/** The raw nodes of the fixture network, read with the client itself. */
async function rawNodes(): Promise<Node[]> {
  const client = new NodeServiceClient(conn());
  return client.listAllNodes(
    { network: emulator().fixtures.networkWithNodes, orderBy: "name" },
    { limit: 100 },
  );
}

describe("getNode / getNodes: metadata, readable, no secret at all", () => {
  test("plain values (no Output inside), the model's values, masked twins without credentials", async () => {
    const nodes = await sdk.getNodes({ ...conn(), network: emulator().fixtures.networkWithNodes });
    expect(nodes.length).toBeGreaterThan(1);
    const text = JSON.stringify(nodes);
    for (const secret of emulator().secrets()) expect(text).not.toContain(secret);
    expect(text).not.toContain(TO_JSON_TEXT);
    for (const node of nodes) {
      for (const [field, value] of Object.entries(node)) {
        expect(pulumi.Output.isInstance(value)).toBe(false);
        expect(value).not.toBeUndefined();
        expect(NODE_SECRET_FIELDS).not.toContain(field);
      }
      expect(node.id).toMatch(/^ND-/);
      expect(NODE_STATUSES).toContain(node.status);
      expect(REGIONS).toContain(node.region);
      expect(PROVIDERS).toContain(node.provider);
      expect(NODE_TYPES).toContain(node.type);
      expect(node.httpsEndpointMasked).toContain("***");
    }
  });

  test("getNodeOutput / getNodesOutput: metadata, masked twins and every endpoint and credential, secret as a whole", async () => {
    const nodes = sdk.getNodesOutput({ ...conn(), protocol: "ethereum" });
    expect(await pulumi.isSecret(nodes)).toBe(true);
    const id = emulator().fixtures.beaconNode;
    const wire = emulator().admin.getNode(id)!;
    const node = sdk.getNodeOutput({ id, ...conn() });
    // The one-liner: the endpoint, as a secret Output<string>.
    const rpc: pulumi.Output<string> = node.httpsEndpoint;
    expect(await pulumi.isSecret(rpc)).toBe(true);
    expect(await valueOf(rpc)).toBe(wire.details.https_endpoint);
    expect(await valueOf(node.authPassword)).toBe(wire.details.auth_password);
    expect(await valueOf(node.name)).toBe(wire.name);
    expect(await valueOf(node.apply((n) => n.httpsEndpointMasked))).toContain("***");
    // Inside apply, in a template literal and with interpolate: the right string, still secret.
    const first = nodes.apply((ns) => ns[0].httpsEndpoint);
    const env = nodes.apply((ns) => `RPC_URL=${ns[0].httpsEndpoint}`);
    const interpolated = pulumi.interpolate`RPC_URL=${node.httpsEndpoint}`;
    const listed = await valueOf(nodes);
    for (const [out, value] of [
      [first, listed[0].httpsEndpoint],
      [env, `RPC_URL=${listed[0].httpsEndpoint}`],
      [interpolated, `RPC_URL=${wire.details.https_endpoint}`],
    ] as const) {
      expect(await pulumi.isSecret(out)).toBe(true);
      expect(await valueOf(out)).toBe(value);
      expect(value).toMatch(/^(RPC_URL=)?http:\/\/127\.0\.0\.1:\d+\/node\/nd-/);
    }
    // A readable list, from the Output form, in one line.
    const names = pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.name)));
    expect(await pulumi.isSecret(names)).toBe(false);
    expect(await valueOf(names)).toEqual(listed.map((n) => n.name));
    // Every field of NodeConnection is there; "" where the service sent none.
    for (const n of listed) for (const field of NODE_SECRET_FIELDS) expect(typeof n[field]).toBe("string");
  });

  test('another organization\'s node in a shared network: its endpoints and credentials are "" (absent in connections), still secret', async () => {
    const network = emulator().fixtures.consortiumNetwork;
    const nodes = await valueOf(sdk.getNodesOutput({ ...conn(), network }));
    const [theirs, ours] = [false, true].map((own) =>
      nodes.filter((n) => (n.organization === emulator().fixtures.organization) === own),
    );
    expect([theirs.length > 0, ours.length > 0]).toEqual([true, true]);
    for (const n of theirs) for (const field of NODE_SECRET_FIELDS) expect(n[field]).toBe("");
    expect(ours.some((n) => n.httpsEndpoint.startsWith("http"))).toBe(true);
    const connections = sdk.getNodeConnectionsOutput({ ...conn(), network });
    expect(await pulumi.isSecret(connections)).toBe(true);
    const listed = await valueOf(connections);
    expect(listed.map((c) => c.id).sort()).toEqual(nodes.map((n) => n.id).sort());
    for (const c of listed.filter((c) => theirs.some((n) => n.id === c.id)))
      for (const field of NODE_SECRET_FIELDS) expect(c[field]).toBeUndefined();
  });
});

describe("getNodeConnectionsOutput: connection data, secret as a whole, plain strings inside", () => {
  // A secret key is used, and the answer is exactly the connections: nothing else, the key included.
  test("the list: the client's endpoints and credentials, in the list's order, secret", async () => {
    const conns = sdk.getNodeConnectionsOutput({
      apiUrl: emulator().url,
      apiKey: pulumi.secret(emulator().apiKey),
      network: emulator().fixtures.networkWithNodes,
      orderBy: "name",
    });
    expect(await pulumi.isSecret(conns)).toBe(true);
    const value = await valueOf(conns);
    expect(value).toEqual((await rawNodes()).map(toNodeConnection));
    for (const c of value) {
      expect(Object.keys(c)).toEqual(expect.arrayContaining(["id", "name", "httpsEndpoint", "authKey"]));
      for (const v of Object.values(c)) expect(typeof v).toBe("string");
    }
  });

  test("the three snippets, rewritten: correct values, still secret, no toJSON text", async () => {
    const args = {
      apiUrl: emulator().url,
      apiKey: pulumi.secret(emulator().apiKey),
      network: emulator().fixtures.networkWithNodes,
      orderBy: "name" as const,
    };
    const raw = (await rawNodes()).map((n) => n.details);
    const conns = sdk.getNodeConnectionsOutput(args);

    const json = conns.apply((cs) => JSON.stringify(cs.map((c) => ({ rpc: c.httpsEndpoint }))));
    const env = conns.apply((cs) => `RPC_URL=${cs[0].httpsEndpoint}`);
    const interpolated = pulumi.interpolate`RPC_URL=${conns[0].httpsEndpoint}`;

    for (const out of [json, env, interpolated]) {
      expect(await pulumi.isSecret(out)).toBe(true);
      expect(await valueOf(out)).not.toContain(TO_JSON_TEXT);
    }
    expect(JSON.parse(await valueOf(json))).toEqual(raw.map((d) => ({ rpc: d.httpsEndpoint })));
    expect(await valueOf(env)).toBe(`RPC_URL=${raw[0].httpsEndpoint}`);
    expect(await valueOf(interpolated)).toBe(`RPC_URL=${raw[0].httpsEndpoint}`);
  });

  test("id: exactly that node, secret; with filters it is refused, naming them", async () => {
    const id = emulator().fixtures.beaconNode;
    const one = sdk.getNodeConnectionsOutput({ id, ...conn() });
    expect(await pulumi.isSecret(one)).toBe(true);
    const [only, ...rest] = await valueOf(one);
    expect(rest).toEqual([]);
    expect(only.id).toBe(id);
    expect(only.beaconEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/node\/nd-/);

    const e = await outputRejection(sdk.getNodeConnectionsOutput({ id, status: "running", ...conn() }));
    expect(pulumi.RunError.isInstance(e)).toBe(true);
    expect(e.message).toMatch(/\bstatus: .*"running".*\bid\b/);
  });

  test("an unknown id fails as a RunError naming it", async () => {
    const e = await outputRejection(sdk.getNodeConnectionsOutput({ id: "ND-999-999-999", ...conn() }));
    expect(pulumi.RunError.isInstance(e)).toBe(true);
    expect(e.message).toContain("ND-999-999-999");
  });
});

describe("expected failures are pulumi.RunErrors: one message, no trace, one object per message", () => {
  /** The failure of `call`: a RunError named `name`, as its cause is, with no trace. */
  async function runError(call: Promise<unknown>, name: string) {
    const e = await rejection(call);
    expect(pulumi.RunError.isInstance(e)).toBe(true);
    expect(e).toBeInstanceOf(pulumi.RunError);
    expect([e.name, (e.cause as Error).name]).toEqual([name, name]);
    expect(e.stack).not.toMatch(/\n\s+at /);
    return e;
  }

  test("a missing key: the fix, once for every call of the program", async () => {
    const url = emulator().url;
    const a = await runError(sdk.getNodes({ apiUrl: url }), "SettingsError");
    const others = [
      await rejection(sdk.getNode({ id: emulator().fixtures.beaconNode, apiUrl: url })),
      await outputRejection(sdk.getNodesOutput({ apiUrl: url })),
      await outputRejection(sdk.getNodeOutput({ id: emulator().fixtures.beaconNode, apiUrl: url })),
      await outputRejection(sdk.getNodeConnectionsOutput({ apiUrl: url })),
    ];
    expect(a.message).toContain("--secret blockchain:apiKey");
    expect(a.cause).toBeInstanceOf(sdk.SettingsError);
    // One error object, however many calls fail with it: the language host reports it once.
    for (const other of others) expect(other).toBe(a);
  });

  test("a refused key from stack config: the stack-config hint, never the environment's", async () => {
    const wrongKey = "wrong-key-from-config-1234567890";
    const config = pulumi.runtime.allConfig();
    // Stored encrypted, as the refusal of a plain-text key requires.
    pulumi.runtime.setAllConfig({ ...config, "blockchain:apiKey": wrongKey }, ["blockchain:apiKey"]);
    try {
      const e = await runError(sdk.getNodes({ apiUrl: emulator().url }), "UnauthorizedError");
      expect(e.cause).toBeInstanceOf(sdk.UnauthorizedError);
      expect((e.cause as InstanceType<typeof sdk.UnauthorizedError>).kind).toBe("unauthorized");
      expect(e.message).toContain("--secret blockchain:apiKey");
      expect(e.message).not.toMatch(/export|BLOCKCHAIN_API_KEY/);
      expect(`${e.message}${e.stack}`).not.toContain(wrongKey);
    } finally {
      pulumi.runtime.setAllConfig(config, []);
    }
  });

  test("a refused key from the environment: the environment's hint", async () => {
    process.env.BLOCKCHAIN_API_KEY = "wrong-key-from-env-1234567890";
    const e = await runError(sdk.getNodes({ apiUrl: emulator().url }), "UnauthorizedError");
    expect(e.message).toContain("BLOCKCHAIN_API_KEY");
    expect(e.message).not.toContain("blockchain:apiKey");
  });

  test("a plain-http API URL says where it came from and how to replace it there", async () => {
    const url = "http://api.example.com";
    const key = { apiKey: "a-well-formed-key-1234567890" };
    pulumi.runtime.setConfig("blockchain:apiUrl", url);
    try {
      const fromConfig = await runError(sdk.getNodes(key), "InvalidInputError");
      expect(fromConfig.message).toContain("blockchain:apiUrl https://");
    } finally {
      pulumi.runtime.setConfig("blockchain:apiUrl", "");
    }
    process.env.BLOCKCHAIN_API_URL = url;
    const fromEnv = await rejection(sdk.getNodes(key));
    expect(fromEnv.message).toContain("BLOCKCHAIN_API_URL");
    expect(fromEnv.message).not.toContain("blockchain:apiUrl");
    const fromArg = await rejection(sdk.getNode({ ...key, id: "ND-1-2-3", apiUrl: url }));
    expect(fromArg.message).toContain("apiUrl");
    expect(fromArg.message).not.toMatch(/blockchain:apiUrl|BLOCKCHAIN_API_URL/);
  });

  test("an invalid filter, an unknown node, a waitFor timeout", async () => {
    const filter = await runError(
      sdk.getNodes({ ...conn(), region: "mars-1" as never }),
      "InvalidInputError",
    );
    expect(filter.message).toMatch(/region/);
    await runError(sdk.getNode({ ...conn(), id: "ND-999-999-998" }), "NotFoundError");
    const id = emulator().fixtures.beaconNode;
    emulator().admin.setNodeStatus(id, "maintenance");
    try {
      const waitFor = { status: "running", timeoutSeconds: 0.2, intervalSeconds: 0.1 } as const;
      const timeout = await runError(sdk.getNode({ ...conn(), id, waitFor }), "WaitTimeoutError");
      expect(timeout.message).toMatch(/\b0\.2 s\b.*\brunning\b/);
    } finally {
      emulator().admin.setNodeStatus(id, "running");
    }
  });
});

test("settings resolved once per call: one getNodeOutput and one getNodes read each setting's stack config once, settings from the environment", async () => {
  process.env.BLOCKCHAIN_API_URL = emulator().url;
  process.env.BLOCKCHAIN_API_KEY = emulator().apiKey;
  const get = jest.spyOn(pulumi.Config.prototype, "get");
  const reads = () => {
    const counts: Record<string, number> = {};
    for (const [key] of get.mock.calls) counts[key] = (counts[key] ?? 0) + 1;
    get.mockClear();
    return counts;
  };
  const once = { apiUrl: 1, apiKey: 1, timeoutMs: 1, deadlineMs: 1, maxRetries: 1 };
  try {
    const node = await valueOf(sdk.getNodeOutput({ id: emulator().fixtures.beaconNode }));
    expect(node.id).toBe(emulator().fixtures.beaconNode);
    expect(reads()).toEqual(once);
    await sdk.getNodes({ network: emulator().fixtures.networkWithNodes, orderBy: "name" });
    expect(reads()).toEqual(once);
  } finally {
    get.mockRestore();
  }
});
