/** What the providers tell the engine at preview and after a refresh, called against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import { FaucetDrip } from "../../src/resources/faucet-drip";
import * as faucet from "../../src/provider/faucet-drip";
import { Network } from "../../src/resources/network";
import { secretOutputs } from "../../src/provider/table";
import * as net from "../../src/provider/network";
import { setProviderConfig } from "../../src/provider/calls";
import { network as networkRuntime } from "../../src/resources/provider-runtime";
import { UNKNOWN } from "../../src/settings";
import { withEmulator } from "../helpers/emulator";

const emulator = withEmulator();
const savedEnv = { url: process.env.BLOCKCHAIN_API_URL, key: process.env.BLOCKCHAIN_API_KEY };

/** The provider's stack config: the emulator's URL and key unless overridden. */
function useConfig(values: { apiUrl?: string; apiKey?: string } = {}): void {
  const config = { apiUrl: emulator().url, apiKey: emulator().apiKey, ...values };
  setProviderConfig((key) =>
    key === "blockchain:apiUrl" ? config.apiUrl : key === "blockchain:apiKey" ? config.apiKey : undefined,
  );
}

beforeAll(() => {
  delete process.env.BLOCKCHAIN_API_URL;
  delete process.env.BLOCKCHAIN_API_KEY;
});
beforeEach(() => useConfig());
afterAll(() => {
  setProviderConfig(undefined);
  if (savedEnv.url !== undefined) process.env.BLOCKCHAIN_API_URL = savedEnv.url;
  if (savedEnv.key !== undefined) process.env.BLOCKCHAIN_API_KEY = savedEnv.key;
});

describe("Network outputs: nodes as the functions return them, connections apart", () => {
  test("nodes hold metadata and masked endpoints only; connections hold the endpoints and credentials", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const { outs } = await net.createNetwork({ networkId: id });
    expect(outs.nodes.length).toBeGreaterThan(0);
    const secrets = emulator().secrets();
    for (const node of outs.nodes) {
      expect(node).toMatchObject({ id: expect.stringMatching(/^ND-/), network: id });
      for (const field of [
        "httpsEndpoint",
        "wssEndpoint",
        "authKey",
        "authPassword",
        "authUsername",
        "details",
      ]) {
        expect(node).not.toHaveProperty(field);
      }
      if (node.httpsEndpointMasked !== undefined) expect(node.httpsEndpointMasked).toContain("***");
    }
    for (const secret of secrets) expect(JSON.stringify(outs.nodes)).not.toContain(secret);
    expect(outs.connections.map((c) => c.id)).toEqual(outs.nodes.map((n) => n.id));
    const wire = emulator().admin.getNode(outs.nodes[0].id)!;
    expect(outs.connections[0]).toMatchObject({
      id: wire.id,
      name: wire.name,
      httpsEndpoint: wire.details.https_endpoint,
    });
    expect(JSON.stringify(outs)).not.toMatch(/undefined/);
    // The engine keeps connections (and the key) secret; nodes stay readable.
    expect(secretOutputs(net.NETWORK_PROPERTIES)).toEqual(["connections", "apiKey"]);
  });
});

describe("diff: every changed property with its kind", () => {
  test("update, add, delete in place; networkId replaces", async () => {
    const id = emulator().fixtures.consortiumNetwork;
    const { outs } = await net.createNetwork({ networkId: id, name: "declared" });
    expect(await net.diffNetwork(id, outs, { networkId: id, name: "declared" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      diffs: [],
      detailedDiff: {},
    });
    const changed = await net.diffNetwork(id, outs, {
      networkId: id,
      name: "other",
      project: emulator().fixtures.otherProject,
      apiUrl: emulator().url,
    });
    expect(changed.detailedDiff).toEqual({
      name: { kind: "update", inputDiff: false },
      project: { kind: "update", inputDiff: false },
      apiUrl: { kind: "add", inputDiff: false },
    });
    const dropped = await net.diffNetwork(id, { ...outs, apiKey: "old-key" }, { networkId: id });
    expect(dropped.detailedDiff).toEqual({ apiKey: { kind: "delete", inputDiff: false } });
    const replaced = await net.diffNetwork(id, outs, { networkId: emulator().fixtures.emptyNetwork });
    expect(replaced).toMatchObject({ changes: true, replaces: ["networkId"] });
    expect(replaced.detailedDiff).toEqual({ networkId: { kind: "update-replace", inputDiff: false } });
    // Drift: the old value is the refreshed output, so the change shows `old => new`.
    emulator().admin.renameNetwork(id, "console-name");
    const read = await net.readNetwork(id, outs);
    const drift = await net.diffNetwork(id, read.props, { networkId: id, name: "declared" });
    expect(drift.detailedDiff).toEqual({ name: { kind: "update", inputDiff: false } });
  });

  test("FaucetDrip: a new address is an update-replace", async () => {
    const olds: faucet.FaucetDripOutputs = {
      address: "0x" + "ab".repeat(20),
      outcome: "sent",
      amountSent: "1",
      transaction: "https://explorer.example/tx/0xabc",
      note: "",
    };
    expect(await faucet.diffFaucetDrip("d", olds, { address: "0x" + "cd".repeat(20) })).toEqual({
      changes: true,
      replaces: ["address"],
      deleteBeforeReplace: false,
      diffs: ["address"],
      detailedDiff: { address: { kind: "update-replace", inputDiff: false } },
    });
    expect((await faucet.diffFaucetDrip("d", olds, { address: olds.address })).detailedDiff).toEqual({});
  });
});

describe("read: the inputs that match the service, for the diff after a refresh", () => {
  test("the managed inputs get their current values; the others are left out", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const named = await net.createNetwork({ networkId: id, name: "declared", apiUrl: emulator().url });
    expect(named.outs.managedInputs).toEqual(["name"]);
    emulator().admin.renameNetwork(id, "console-name");
    const read = await net.readNetwork(id, named.outs);
    expect(read.props.name).toBe("console-name");
    expect(read.props.managedInputs).toEqual(["name"]);
    expect(read.inputs).toEqual({ networkId: id, name: "console-name", apiUrl: emulator().url });

    const unnamed = await net.updateNetwork(id, read.props, { networkId: id });
    expect(unnamed.outs.managedInputs).toEqual([]);
    expect((await net.readNetwork(id, unnamed.outs)).inputs).toEqual({ networkId: id });
  });

  test("state written before managedInputs existed, and a read without state: no inputs (the engine keeps its own)", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const { outs } = await net.createNetwork({ networkId: id });
    const { managedInputs: _, ...legacy } = outs;
    expect(await net.readNetwork(id, legacy as net.NetworkOutputs)).not.toHaveProperty("inputs");
    expect(await net.readNetwork(id, undefined)).not.toHaveProperty("inputs");
  });
});

describe("check: the connection settings wherever they come from, and the key once", () => {
  const networkId = () => emulator().fixtures.networkWithNodes;

  test("a stack-config URL gets the argument's checks; the reason names its source and fix", async () => {
    useConfig({ apiUrl: "http://api.example.com" });
    const { failures } = await net.checkNetwork({}, { networkId: networkId() });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ property: "" });
    // The https form to use, and the command that sets it where it came from.
    for (const token of ["https://api.example.com", "pulumi config set blockchain:apiUrl"])
      expect(failures[0].reason).toContain(token);
    const drip = await faucet.checkFaucetDrip({}, { address: emulator().fixtures.faucetAddress });
    expect(drip.failures[0].reason).toContain("blockchain:apiUrl");
    // An argument wins over the config: then the config is not checked.
    expect((await net.checkNetwork({}, { networkId: networkId(), apiUrl: emulator().url })).failures).toEqual(
      [],
    );
  });

  test("a URL from the environment, a key pasted into the URL: the reason never shows the key", async () => {
    useConfig({ apiUrl: "", apiKey: "" });
    process.env.BLOCKCHAIN_API_KEY = emulator().apiKey;
    process.env.BLOCKCHAIN_API_URL = `http://api.example.com/${emulator().apiKey}`;
    try {
      const { failures } = await faucet.checkFaucetDrip({}, { address: emulator().fixtures.faucetAddress });
      expect(failures).toHaveLength(1);
      expect(failures[0].reason).toContain("BLOCKCHAIN_API_URL");
      expect(failures[0].reason).not.toContain("blockchain:apiUrl");
      expect(failures[0].reason).not.toContain(emulator().apiKey);
    } finally {
      delete process.env.BLOCKCHAIN_API_URL;
      delete process.env.BLOCKCHAIN_API_KEY;
    }
  });

  test("missing settings fail with the command that sets them; unknown inputs are not reported", async () => {
    useConfig({ apiUrl: "", apiKey: "" });
    const { failures } = await net.checkNetwork({}, { networkId: networkId() });
    expect(failures.map((f) => f.reason)).toEqual([
      expect.stringContaining("pulumi config set blockchain:apiUrl"),
      expect.stringContaining("pulumi config set --secret blockchain:apiKey"),
    ]);
    const before = emulator().requestStats().total;
    for (const apiUrl of [UNKNOWN, emulator().url]) {
      const { failures: none } = await net.checkNetwork(
        {},
        { networkId: networkId(), apiUrl, apiKey: UNKNOWN },
      );
      expect(none).toEqual([]);
    }
    expect(emulator().requestStats().total).toBe(before);
  });

  test("a wrong key: one request per URL and key in this process, none when other inputs are invalid", async () => {
    const wrongKey = `wrong-key-${Date.now()}-abcdef`;
    useConfig({ apiKey: wrongKey });
    const listings = () =>
      emulator()
        .requests()
        .filter((r) => r.route === "/v1/nodes/").length;
    const before = listings();
    expect((await net.checkNetwork({}, { networkId: "NW-bad" })).failures.map((f) => f.property)).toEqual([
      "networkId",
    ]);
    expect(listings()).toBe(before);
    for (let i = 0; i < 3; i++) {
      const { failures } = await net.checkNetwork({}, { networkId: networkId() });
      expect(failures).toHaveLength(1);
      expect(failures[0].reason).not.toContain("listNodes");
      for (const token of ["Network", "401", "blockchain:apiKey"])
        expect(failures[0].reason).toContain(token);
      expect(failures[0].reason).not.toContain(wrongKey);
    }
    const drip = await faucet.checkFaucetDrip({}, { address: emulator().fixtures.faucetAddress });
    expect(drip.failures[0].reason).toContain("401");
    expect(listings()).toBe(before + 1);
    // The key as an argument: the failure names the property, and the fix is the argument.
    const asArgument = await net.checkNetwork({}, { networkId: networkId(), apiKey: `${wrongKey}-2` });
    expect(asArgument.failures.map((f) => f.property)).toEqual(["apiKey"]);
    expect(asArgument.failures[0].reason).not.toMatch(/blockchain:apiKey|BLOCKCHAIN_API_KEY/);
  });

  test("a key that cannot be sent in a header, from the stack config: refused with the fix, nothing sent", async () => {
    useConfig({ apiKey: "bad\u0001key-1234567890" });
    const before = emulator().requestStats().total;
    const { failures } = await net.checkNetwork({}, { networkId: networkId() });
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toMatch(/control character/);
    expect(failures[0].reason).toContain("blockchain:apiKey");
    expect(emulator().requestStats().total).toBe(before);
  });
});

describe("errors of the provider runtime: one message, no trace", () => {
  test("the refused delete says what works, and its stack is its first line", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const { outs } = await networkRuntime.create({ networkId: id, forceDestroy: true });
    const err = (await networkRuntime.delete(id, outs).catch((e: Error) => e)) as Error;
    for (const token of [id, "forceDestroy"]) expect(err.message).toContain(token);
    expect(err.stack).toBe(`${err.name}: ${err.message}`);
  });
});

describe("constructors refuse the import option, saying that networkId adopts", () => {
  test("Network and FaucetDrip throw a ResourceError without a stack, before registering anything", () => {
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as pulumi.ResourceError;
      }
      throw new Error("nothing thrown");
    };
    const err = thrown(() => new Network("main", { networkId: "NW-100-000-1" }, { import: "NW-100-000-1" }));
    expect(pulumi.ResourceError.isInstance(err)).toBe(true);
    expect(err.hideStack).toBe(true);
    // It shows the constructor call that adopts instead.
    expect(err.message).toContain('networkId: "NW-100-000-1" }');
    const drip = thrown(() => new FaucetDrip("tokens", { address: "0x" + "ab".repeat(20) }, { import: "x" }));
    expect(pulumi.ResourceError.isInstance(drip)).toBe(true);
    expect(drip.message).toMatch(/cannot be imported/);
    const noArgs = thrown(() => new Network("main", undefined as never));
    expect(noArgs.message).toMatch(/networkId: "NW-…"/);
  });
});
