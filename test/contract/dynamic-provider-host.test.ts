/** Each provider serialized as `pulumi.dynamic.Resource` does it, driven through `@pulumi/pulumi`'s real dynamic-provider host over gRPC, against the emulator. */
import * as fs from "fs";
import * as path from "path";
import * as os from "os";
import { makeProvider, providerFor, RUNTIME_SPECIFIER } from "../../src/resources/shell";
import { withEmulator } from "../helpers/emulator";
import { DiffAnswer, PluginClient, pluginPool, serializeProvider } from "../helpers/plugin-client";

const root = path.resolve(__dirname, "..", "..");
const NETWORK_URN = "urn:pulumi:dev::contract::pulumi-nodejs:dynamic/blockchain:Network::main";
const FAUCET_URN = "urn:pulumi:dev::contract::pulumi-nodejs:dynamic/blockchain:FaucetDrip::drip";

const emulator = withEmulator({ pageSize: 5 });
/** Every host started here, stopped after the tests. */
const hosts = pluginPool();
afterAll(hosts.stop);
let host: PluginClient;
let networkProvider: string;
let faucetProvider: string;

beforeAll(async () => {
  networkProvider = await serializeProvider(providerFor("network"));
  faucetProvider = await serializeProvider(providerFor("faucetDrip"));
  const { BLOCKCHAIN_API_KEY: _key, BLOCKCHAIN_API_URL: _url, ...env } = process.env;
  host = await startHost(root, env);
});
/** The host for a project in `cwd`, configured for the emulator. */
async function startHost(cwd: string, env?: NodeJS.ProcessEnv): Promise<PluginClient> {
  const client = await PluginClient.dynamicProviderHost(cwd, env);
  hosts.started.push(client);
  await client.configure({ "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey });
  return client;
}

/** Absolute paths of this machine that a serialized provider could capture. */
const machinePaths = [
  root,
  os.homedir(),
  os.tmpdir(),
  process.cwd(),
  __dirname,
  path.dirname(require.resolve("@pulumi/pulumi/package.json")),
].filter((p) => p.length > 1);

test("serialized providers contain no API key, no emulator URL, no absolute path of this machine, and stay small", () => {
  for (const [name, text] of [
    ["Network", networkProvider],
    ["FaucetDrip", faucetProvider],
  ]) {
    expect(text).not.toContain(emulator().apiKey);
    expect(text).not.toContain(emulator().url);
    expect(text).toContain("pulumi-blockchain-nodes/provider-runtime");
    for (const machinePath of machinePaths) expect(text).not.toContain(machinePath);
    // No quoted absolute path at all (POSIX or Windows): state moves between machines.
    expect(text).not.toMatch(/["'`](?:\/|[A-Za-z]:\\)[^"'`\s]+["'`]/);
    // Printed so the figure shows in the test log; the bound guards against capturing modules by value.
    console.log(`serialized ${name} provider: ${Buffer.byteLength(text)} bytes`);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4 * 1024);
  }
});

describe("Network through the dynamic-provider host", () => {
  const withProvider = (props: Record<string, unknown>) => ({ ...props, __provider: networkProvider });

  test("Create adopts, Diff/Update rename in place, Read sees drift and deletion, Delete is refused with nodes", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const inputs = withProvider({ networkId: id, name: "contract-net" });
    const { failures } = await host.check(NETWORK_URN, {}, inputs);
    expect(failures).toEqual([]);

    const created = await host.create(NETWORK_URN, inputs);
    expect(created.id).toBe(id);
    expect(created.properties).toMatchObject({ networkId: id, name: "contract-net", protocol: "ethereum" });
    // The shape of nodes and connections, and managedInputs: providers.test.ts, "nodes as the functions return
    // them: …" and "read: the managed inputs get their current values …".
    expect(JSON.stringify(created.properties)).not.toContain(emulator().apiKey);
    expect(emulator().admin.getNetwork(id)!.name).toBe("contract-net");

    const olds = created.properties;
    expect(await host.diff(NETWORK_URN, id, olds, inputs)).toMatchObject({
      changes: "DIFF_NONE",
      replaces: [],
    });
    // Pulumi's dynamic-provider host forwards no detailedDiff; one that does must forward these kinds.
    const kinds = (diff: DiffAnswer) => Object.values(diff.detailedDiff).map((d) => d.kind);
    const rename = await host.diff(NETWORK_URN, id, olds, { ...inputs, name: "renamed" });
    expect(rename).toMatchObject({ changes: "DIFF_SOME", replaces: [] });
    expect(kinds(rename)).toEqual(rename.hasDetailedDiff ? ["UPDATE"] : []);
    const replace = await host.diff(NETWORK_URN, id, olds, {
      ...inputs,
      networkId: emulator().fixtures.emptyNetwork,
    });
    expect(replace).toMatchObject({ changes: "DIFF_SOME", replaces: ["networkId"] });
    expect(kinds(replace)).toEqual(replace.hasDetailedDiff ? ["UPDATE_REPLACE"] : []);

    const updated = await host.update(NETWORK_URN, id, olds, { ...inputs, name: "renamed" });
    expect(updated.properties.name).toBe("renamed");
    expect(emulator().admin.getNetwork(id)!.name).toBe("renamed");

    emulator().admin.renameNetwork(id, "changed-in-console");
    const drifted = await host.read(NETWORK_URN, id, updated.properties);
    expect(drifted.id).toBe(id);
    expect(drifted.properties.name).toBe("changed-in-console");
    // Read hands the engine the inputs that match the service (what the program sets, current
    // values), so that preview --diff after a refresh shows name: "changed-in-console" => "renamed".
    expect(drifted.inputs).toEqual({
      networkId: id,
      name: "changed-in-console",
      __provider: networkProvider,
    });

    // Destroy forgets an adopted network by default; the network stays.
    await expect(host.delete(NETWORK_URN, id, drifted.properties)).resolves.toBeUndefined();
    expect(emulator().admin.getNetwork(id)).toBeDefined();
  });

  test("an expected failure is one message naming the network and forceDestroy, with no trace, and the host prints nothing", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const created = await host.create(NETWORK_URN, withProvider({ networkId: id, forceDestroy: true }));
    const before = host.stderr().length;
    const err = (await host.delete(NETWORK_URN, id, created.properties).catch((e: Error) => e)) as Error;
    for (const token of [id, "forceDestroy"]) expect(err.message).toContain(token);
    expect(err.message).not.toMatch(/\n\s+at /);
    // Pulumi's host prints `${error}: ${error.stack}` for a failed Check, Diff, Read or Delete: the
    // engine would show the message a second time, with the trace. The runtime drops that copy.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(host.stderr().slice(before)).toBe("");
  });

  test("Read of a network deleted out of band returns an empty id; Delete of a gone network succeeds", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const created = await host.create(NETWORK_URN, withProvider({ networkId: id, forceDestroy: true }));
    emulator().admin.deleteNetwork(id);
    const gone = await host.read(NETWORK_URN, id, created.properties);
    expect(gone.id).toBe("");
    await expect(host.delete(NETWORK_URN, id, created.properties)).resolves.toBeUndefined();
  });

  test("Delete removes an empty adopted network with forceDestroy", async () => {
    const id = emulator().fixtures.emptyNetwork;
    const created = await host.create(NETWORK_URN, withProvider({ networkId: id, forceDestroy: true }));
    await host.delete(NETWORK_URN, id, created.properties);
    expect(emulator().admin.getNetwork(id)).toBeUndefined();
  });
});

test("FaucetDrip through the host: Create requests tokens once, records the exact wei amount; a second request names the next possible time", async () => {
  const address = emulator().fixtures.faucetAddress;
  const inputs = { address, __provider: faucetProvider };
  const sends = () => emulator().faucetSendCount(address);
  const created = await host.create(FAUCET_URN, inputs);
  expect(created.properties.amountSent).toMatch(/^[0-9]+$/);
  expect(created.properties.transaction).toMatch(/^https:\/\//);
  expect(sends()).toBe(1);
  await expect(host.create(FAUCET_URN, inputs)).rejects.toThrow(/\d{4}-\d{2}-\d{2}T/);
  const same = await host.diff(FAUCET_URN, created.id, created.properties, inputs);
  expect(same).toMatchObject({ changes: "DIFF_NONE", replaces: [] });
  await host.delete(FAUCET_URN, created.id, created.properties);
  expect(sends()).toBe(1);
});

describe("provider runtime loading", () => {
  test("by package name alone, from a project that has the package installed", async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "pbn-project-"));
    fs.mkdirSync(path.join(project, "node_modules"));
    fs.symlinkSync(root, path.join(project, "node_modules", "pulumi-blockchain-nodes"), "dir");
    const byName = await serializeProvider(makeProvider("network", RUNTIME_SPECIFIER));
    expect(byName).not.toContain(root);
    try {
      const other = await startHost(project);
      const networkId = emulator().fixtures.networkWithNodes;
      expect((await other.create(NETWORK_URN, { networkId, __provider: byName })).id).toBe(networkId);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  test("from a checkout of the package (a subfolder, no node_modules of its own), with no path in state", async () => {
    const other = await startHost(path.join(root, "examples", "quickstart"));
    const networkId = emulator().fixtures.networkWithNodes;
    const read = await other.read(NETWORK_URN, networkId, { networkId, __provider: networkProvider });
    expect(read.id).toBe(networkId);
  });

  test("a runtime that cannot be found fails with an install hint", async () => {
    const missing = await serializeProvider(
      makeProvider("network", "pulumi-blockchain-nodes-missing/provider-runtime"),
    );
    const inputs = { networkId: emulator().fixtures.networkWithNodes, __provider: missing };
    await expect(host.create(NETWORK_URN, inputs)).rejects.toThrow(/npm install/);
  });
});
