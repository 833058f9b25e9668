/** Provider methods called directly (no Pulumi engine), against the emulator over real HTTP: what they tell the engine at preview, at up and after a refresh. */
import * as pulumi from "@pulumi/pulumi";
import { setProviderConfig } from "../../src/provider/calls";
import * as faucet from "../../src/provider/faucet-drip";
import * as net from "../../src/provider/network";
import { secretOutputs } from "../../src/provider/table";
import { FaucetDrip } from "../../src/resources/faucet-drip";
import { Network } from "../../src/resources/network";
import { NODE_SECRET_FIELDS } from "../../src/model";
import { UNKNOWN } from "../../src/settings";
import { withEmulator } from "../helpers/emulator";
import { withEnv } from "../helpers/env";

const emulator = withEmulator();
withEnv({ BLOCKCHAIN_API_URL: undefined, BLOCKCHAIN_API_KEY: undefined }, { each: true });
/** The stack config the provider reads: the emulator's URL and key, with `extra` on top ("" for none). */
const useConfig = (extra: Record<string, string> = {}) =>
  setProviderConfig(
    (key) => ({ "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey, ...extra })[key],
  );
const NO_CONFIG = { "blockchain:apiUrl": "", "blockchain:apiKey": "" };
beforeEach(() => useConfig());
afterAll(() => setProviderConfig(undefined));

describe("Network provider", () => {
  test("check rejects invalid inputs naming the rule, and accepts unknowns", async () => {
    const bad = await net.checkNetwork(
      {},
      { networkId: "ND-1-2", name: "", project: "PR-x", apiUrl: "http://api.example.com" },
    );
    const byField = Object.fromEntries(bad.failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byField).sort()).toEqual(["apiUrl", "name", "networkId", "project"]);
    expect(byField.networkId).toMatch(/network id.*NW-/);
    expect(byField.project).toMatch(/project id.*PR-/);
    expect(byField.apiUrl).toMatch(/HTTPS|https/);
    const missing = await net.checkNetwork({}, {});
    expect(missing.failures.map((f) => f.property)).toEqual(["networkId"]);
    const unknown = await net.checkNetwork(
      {},
      { networkId: UNKNOWN, name: UNKNOWN, project: UNKNOWN, apiKey: UNKNOWN },
    );
    expect(unknown.failures).toEqual([]);
  });

  // Adopt and rename: dynamic-provider-host.test.ts, "Create adopts, Diff/Update rename in place, …"; drift:
  // "diff: every changed property …" below; destroy: plugin.test.ts, "Update (from the refreshed state) … Delete …".
  test("an adopted network moves to another project", async () => {
    const { networkWithNodes: id, otherProject } = emulator().fixtures;
    const created = await net.createNetwork({ networkId: id, name: "adopted" });
    const moved = await net.updateNetwork(id, created.outs, {
      networkId: id,
      name: "adopted",
      project: otherProject,
    });
    expect(moved.outs.project).toBe(otherProject);
    expect(emulator().admin.getNetwork(id)!.project).toBe(otherProject);
  });

  // A network the service does not have, and its fix: messages.test.ts, "no such id (404) on Network (resource, up)".
  test("adopting another organization's network fails with the service's 404", async () => {
    await expect(net.createNetwork({ networkId: emulator().fixtures.foreignNetwork })).rejects.toThrow(/404/);
  });

  test.each([
    ["alone", undefined, ["--secret blockchain:apiKey"]],
    ["while BLOCKCHAIN_API_KEY holds another", "env", ["BLOCKCHAIN_API_KEY", "pulumi config rm"]],
  ])(
    "a key from stack config refused (401), %s: the error names the network and the key's source, never the key",
    async (_when, env, tokens) => {
      if (env) process.env.BLOCKCHAIN_API_KEY = emulator().apiKey;
      useConfig({ "blockchain:apiKey": "stale-key-1234567890" });
      const id = emulator().fixtures.networkWithNodes;
      const err = (await net.readNetwork(id, {} as net.NetworkOutputs).catch((e: Error) => e)) as Error;
      for (const token of ["401", id, "blockchain:apiKey", ...tokens]) expect(err.message).toContain(token);
      expect(`${err.message}${err.stack}`).not.toContain("stale-key-1234567890");
      expect(err.message).not.toContain(emulator().apiKey);
    },
  );
});

describe("FaucetDrip provider", () => {
  const address = "0x52908400098527886E0F7030069857D2E4169EE7";
  const recorded: faucet.FaucetDripOutputs = {
    address,
    outcome: "sent",
    amountSent: "1",
    transaction: "https://x.example/tx/0xabc",
    note: "",
  };

  test("update sends nothing, keeps the recorded outcome and takes over only the connection inputs; read accepts missing props", async () => {
    const olds = { ...recorded, apiKey: "old-key" };
    const before = emulator().requestStats().total;
    const { outs } = await faucet.updateFaucetDrip("drip", olds, { address, apiUrl: emulator().url });
    expect(outs).toEqual({ ...recorded, apiUrl: emulator().url });
    expect(emulator().requestStats().total).toBe(before);
    expect(await faucet.readFaucetDrip("drip", olds)).toEqual({ id: "drip", props: olds });
    expect(await faucet.readFaucetDrip("drip", undefined)).toEqual({ id: "drip", props: undefined });
  });
});

describe("Network check at preview: adoption and call settings", () => {
  test("check only reads (GET): a new networkId is looked up among the nodes; one the service cannot show is up's to name", async () => {
    emulator().resetRequests();
    const id = emulator().fixtures.networkWithNodes;
    expect((await net.checkNetwork({}, { networkId: id })).failures).toEqual([]);
    // An empty network and a missing one look the same to a reader: the check passes, `up` names it.
    expect((await net.checkNetwork({}, { networkId: "NW-999-999-9" })).failures).toEqual([]);
    const checks = emulator().requests();
    await expect(net.createNetwork({ networkId: "NW-999-999-9" })).rejects.toThrow(/NW-999-999-9.*\b404\b/s);
    expect(checks.map((r) => r.method)).toEqual(checks.map(() => "GET"));
    // The key's probe (no network) is made once per process, by whichever check comes first.
    expect(checks.map((r) => r.query.network).filter(Boolean)).toEqual([id, "NW-999-999-9"]);
    // An adopted id is not looked up again.
    const before = emulator().requests().length;
    expect((await net.checkNetwork({ networkId: id }, { networkId: id, name: "x" })).failures).toEqual([]);
    expect(emulator().requests().length).toBe(before);
  });

  test("timeoutMs, deadlineMs and maxRetries: wrong arguments name the property; a wrong stack config names where it came from", async () => {
    const bad = await net.checkNetwork(
      {},
      { networkId: emulator().fixtures.networkWithNodes, timeoutMs: -1, deadlineMs: "soon", maxRetries: 2.5 },
    );
    const byField = Object.fromEntries(bad.failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byField).sort()).toEqual(["deadlineMs", "maxRetries", "timeoutMs"]);
    expect(byField.maxRetries).toMatch(/an integer from 0 to 100/);
    const good = await net.checkNetwork(
      {},
      { networkId: emulator().fixtures.networkWithNodes, timeoutMs: 5000, deadlineMs: 20000, maxRetries: 0 },
    );
    expect(good.failures).toEqual([]);
    useConfig({ "blockchain:deadlineMs": "ten minutes" });
    const fromConfig = await net.checkNetwork({}, { networkId: emulator().fixtures.networkWithNodes });
    const reason = expect.stringMatching(/blockchain:deadlineMs.*"ten minutes"/);
    expect(fromConfig.failures).toEqual([{ property: "", reason }]);
  });

  test("a change of a call setting updates in place; state without them shows no change", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const created = await net.createNetwork({ networkId: id });
    expect(created.outs).not.toHaveProperty("deadlineMs");
    expect((await net.diffNetwork(id, created.outs, { networkId: id })).changes).toBe(false);
    expect(await net.diffNetwork(id, created.outs, { networkId: id, deadlineMs: 90000 })).toMatchObject({
      changes: true,
      replaces: [],
      diffs: ["deadlineMs"],
    });
  });
});

describe("Network outputs", () => {
  test("nodes as the functions return them: metadata and masked endpoints only; connections apart, with the endpoints and credentials", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const { outs } = await net.createNetwork({ networkId: id });
    expect(outs.nodes.length).toBeGreaterThan(0);
    const secrets = emulator().secrets();
    for (const node of outs.nodes) {
      expect(node).toMatchObject({ id: expect.stringMatching(/^ND-/), network: id });
      for (const field of [...NODE_SECRET_FIELDS, "details"]) expect(node).not.toHaveProperty(field);
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

  test("diff: every changed property with its kind: update, add, delete in place; networkId replaces", async () => {
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

  test("read: the managed inputs get their current values (for the diff after a refresh); the others are left out", async () => {
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

  test("state written before managedInputs existed, and a read without state (its settings from the stack config): no inputs (the engine keeps its own)", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const { outs } = await net.createNetwork({ networkId: id });
    const { managedInputs: _, ...legacy } = outs;
    expect(await net.readNetwork(id, legacy as net.NetworkOutputs)).not.toHaveProperty("inputs");
    const read = await net.readNetwork(id, undefined);
    expect(read).toMatchObject({ id, props: { networkId: id, protocol: "bsc" } });
    expect(read).not.toHaveProperty("inputs");
    for (const setting of ["apiKey", "apiUrl"]) expect(read.props).not.toHaveProperty(setting);
    expect(JSON.stringify(read.props)).not.toMatch(/undefined/);
  });
});

describe("check: the connection settings wherever they come from, and the key once", () => {
  const networkId = () => emulator().fixtures.networkWithNodes;

  test("a stack-config URL gets the argument's checks; the reason names its source and fix", async () => {
    useConfig({ "blockchain:apiUrl": "http://api.example.com" });
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

  test("missing settings fail with the command that sets them; unknown inputs are not reported", async () => {
    useConfig(NO_CONFIG);
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
    useConfig({ "blockchain:apiKey": wrongKey });
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
    useConfig({ "blockchain:apiKey": "bad\u0001key-1234567890" });
    const before = emulator().requestStats().total;
    const { failures } = await net.checkNetwork({}, { networkId: networkId() });
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toMatch(/control character/);
    expect(failures[0].reason).toContain("blockchain:apiKey");
    // The fix, once.
    expect(failures[0].reason.match(/pulumi config set --secret blockchain:apiKey/g)).toHaveLength(1);
    expect(emulator().requestStats().total).toBe(before);
  });
});

describe("errors of the constructors", () => {
  test("Network and FaucetDrip refuse the import option (networkId adopts) with a ResourceError without a stack, before registering anything", () => {
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
