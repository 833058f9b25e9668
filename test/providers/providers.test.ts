/** Provider methods called directly (no Pulumi engine), against the emulator over real HTTP. */
import { setProviderConfig } from "../../src/provider/calls";
import * as faucet from "../../src/provider/faucet-drip";
import * as net from "../../src/provider/network";
import { UNKNOWN } from "../../src/settings";
import { withEmulator } from "../helpers/emulator";

const emulator = withEmulator();
/** The stack config the provider reads: the emulator's URL and key, with `extra` on top. */
const useConfig = (extra: Record<string, string> = {}) =>
  setProviderConfig(
    (key) => ({ "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey, ...extra })[key],
  );
beforeAll(() => useConfig());
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

  test("adopt, rename, project move, drift, out-of-band delete", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const created = await net.createNetwork({ networkId: id, name: "adopted" });
    expect(created.id).toBe(id);
    expect(created.outs.name).toBe("adopted");
    expect(created.outs.nodes.length).toBeGreaterThan(0);
    expect(JSON.stringify(created.outs)).not.toMatch(/undefined/);

    expect((await net.diffNetwork(id, created.outs, { networkId: id, name: "adopted" })).changes).toBe(false);
    expect(await net.diffNetwork(id, created.outs, { networkId: id })).toMatchObject({ changes: false });
    const renameDiff = await net.diffNetwork(id, created.outs, { networkId: id, name: "renamed" });
    expect(renameDiff).toMatchObject({ changes: true, replaces: [], diffs: ["name"] });

    const renamed = await net.updateNetwork(id, created.outs, { networkId: id, name: "renamed" });
    expect(renamed.outs.name).toBe("renamed");

    const moved = await net.updateNetwork(id, renamed.outs, {
      networkId: id,
      name: "renamed",
      project: emulator().fixtures.otherProject,
    });
    expect(moved.outs.project).toBe(emulator().fixtures.otherProject);
    expect(emulator().admin.getNetwork(id)!.project).toBe(emulator().fixtures.otherProject);

    emulator().admin.renameNetwork(id, "console-name");
    const read = await net.readNetwork(id, moved.outs);
    expect(read).toMatchObject({ id, props: { name: "console-name" } });
    const restore = await net.diffNetwork(id, read.props as net.NetworkOutputs, {
      networkId: id,
      name: "renamed",
    });
    expect(restore.changes).toBe(true);

    // Destroy forgets an adopted network by default: no request; forceDestroy sends the DELETE.
    const deletes = () =>
      emulator()
        .requests()
        .filter((r) => r.method === "DELETE").length;
    const before = deletes();
    await net.deleteNetwork(id, moved.outs);
    expect(deletes()).toBe(before);
    await expect(net.deleteNetwork(id, { ...moved.outs, forceDestroy: true })).rejects.toThrow(
      /still has .* nodes|delete its nodes/,
    );
    expect(deletes()).toBe(before + 1);
    expect(emulator().admin.getNetwork(id)).toBeDefined();
  });

  test("adopting a network that does not exist explains that networks cannot be created", async () => {
    await expect(net.createNetwork({ networkId: "NW-999-999-9" })).rejects.toThrow(
      /cannot be created through the API/,
    );
    await expect(net.createNetwork({ networkId: emulator().fixtures.foreignNetwork })).rejects.toThrow(/404/);
  });

  test("errors never contain the API key", async () => {
    useConfig({ "blockchain:apiKey": "wrong-key-1234567890" });
    try {
      const err = await net
        .readNetwork(emulator().fixtures.networkWithNodes, {} as net.NetworkOutputs)
        .catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/401/);
      expect((err as Error).message).toContain(emulator().fixtures.networkWithNodes);
      // The key came from the stack config: the hint says how to set the right one there.
      expect((err as Error).message).toContain("--secret blockchain:apiKey");
      expect(`${(err as Error).message}${(err as Error).stack}`).not.toContain("wrong-key-1234567890");
    } finally {
      useConfig();
    }
  });
});

describe("a refused key from stack config while BLOCKCHAIN_API_KEY holds another", () => {
  const saved = process.env.BLOCKCHAIN_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.BLOCKCHAIN_API_KEY;
    else process.env.BLOCKCHAIN_API_KEY = saved;
    useConfig();
  });

  test("the 401 says which source the key came from and that it overrides the environment", async () => {
    process.env.BLOCKCHAIN_API_KEY = emulator().apiKey;
    useConfig({ "blockchain:apiKey": "stale-key-1234567890" });
    const err = (await net
      .readNetwork(emulator().fixtures.networkWithNodes, {} as net.NetworkOutputs)
      .catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(/401/);
    for (const token of ["blockchain:apiKey", "BLOCKCHAIN_API_KEY", "pulumi config rm"])
      expect(err.message).toContain(token);
    expect(err.message).not.toContain("stale-key-1234567890");
    expect(err.message).not.toContain(emulator().apiKey);
  });
});

describe("Network provider: read without prior state", () => {
  test("read accepts missing props: the settings come from the stack config", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const read = await net.readNetwork(id, undefined);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ networkId: id, protocol: "ethereum" });
    expect(read.props).not.toHaveProperty("apiKey");
    expect(read.props).not.toHaveProperty("apiUrl");
    expect(JSON.stringify(read.props)).not.toMatch(/undefined/);
  });
});

describe("FaucetDrip provider", () => {
  const address = "0x52908400098527886E0F7030069857D2E4169EE7";

  test("check validates the address and the EIP-55 checksum", async () => {
    expect(
      (await faucet.checkFaucetDrip({}, { address: "0x52908400098527886E0F7030069857D2E4169EE7" })).failures,
    ).toEqual([]);
    expect(
      (await faucet.checkFaucetDrip({}, { address: "0x52908400098527886e0f7030069857d2e4169ee7" })).failures,
    ).toEqual([]);
    const bad = await faucet.checkFaucetDrip({}, { address: "0x52908400098527886E0F7030069857D2E4169Ee7" });
    expect(bad.failures[0]).toMatchObject({ property: "address" });
    expect(bad.failures[0].reason).toMatch(/EIP-55.*0x52908400098527886E0F7030069857D2E4169EE7/);
    expect(
      (await faucet.checkFaucetDrip({}, { address: "52908400098527886E0F7030069857D2E4169EE7" })).failures[0]
        .reason,
    ).toMatch(/0x followed by 40 hex/);
    expect((await faucet.checkFaucetDrip({}, { address: UNKNOWN })).failures).toEqual([]);
  });

  test("update keeps the recorded outcome and takes over only the connection inputs; read accepts missing props", async () => {
    const olds: faucet.FaucetDripOutputs = {
      address,
      outcome: "sent",
      amountSent: "1000000000000000000",
      transaction: "https://explorer.example/tx/0xabc",
      note: "",
      apiKey: "old-key",
    };
    const { outs } = await faucet.updateFaucetDrip("drip", olds, { address, apiUrl: emulator().url });
    expect(outs).toEqual({
      address,
      outcome: "sent",
      amountSent: "1000000000000000000",
      transaction: "https://explorer.example/tx/0xabc",
      note: "",
      apiUrl: emulator().url,
    });
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
    expect(checks.map((r) => r.query.network)).toEqual([id, "NW-999-999-9"]);
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
    try {
      const fromConfig = await net.checkNetwork({}, { networkId: emulator().fixtures.networkWithNodes });
      expect(fromConfig.failures).toEqual([
        {
          property: "",
          reason: expect.stringMatching(/blockchain:deadlineMs.*"ten minutes"/),
        },
      ]);
    } finally {
      useConfig();
    }
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
