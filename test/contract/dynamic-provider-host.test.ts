/**
 * Contract tier: each provider serialized exactly as `pulumi.dynamic.Resource` does it and
 * driven through `@pulumi/pulumi`'s real dynamic-provider host over gRPC, against the emulator.
 */
import * as fs from "fs";
import * as path from "path";
import * as os from "os";
import { makeProvider, providerFor, RUNTIME_SPECIFIER } from "../../src/resources/provider-shell";
import { withEmulator } from "../helpers/emulator";
import { ProviderHost, serializeProvider } from "../helpers/provider-host";

const root = path.resolve(__dirname, "..", "..");
const NETWORK_URN = "urn:pulumi:dev::contract::pulumi-nodejs:dynamic/blockchain:Network::main";
const FAUCET_URN = "urn:pulumi:dev::contract::pulumi-nodejs:dynamic/blockchain:FaucetDrip::drip";

beforeAll(() => {
  if (!fs.existsSync(path.join(root, "dist", "resources", "provider-runtime.js"))) {
    throw new Error(
      "dist/ is missing: the contract tier runs the compiled provider runtime; run `npm run build` first",
    );
  }
});

const emulator = withEmulator({ pageSize: 5 });
let host: ProviderHost;
let networkProvider: string;
let faucetProvider: string;

beforeAll(async () => {
  networkProvider = await serializeProvider(providerFor("network"));
  faucetProvider = await serializeProvider(providerFor("faucetDrip"));
  const env = { ...process.env };
  delete env.BLOCKCHAIN_API_KEY;
  delete env.BLOCKCHAIN_API_URL;
  host = await ProviderHost.start({ cwd: root, env });
  await host.configure({ "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey });
});

afterAll(async () => {
  await host?.stop();
});

describe("serialized providers", () => {
  test("contain no API key, no emulator URL, and stay small", () => {
    for (const [name, text] of [
      ["Network", networkProvider],
      ["FaucetDrip", faucetProvider],
    ]) {
      expect(text).not.toContain(emulator().apiKey);
      expect(text).not.toContain(emulator().url);
      expect(text).toContain("pulumi-blockchain-nodes/provider-runtime");
      // Printed so the figure shows in the test log; the bound guards against capturing modules by value.
      console.log(`serialized ${name} provider: ${Buffer.byteLength(text)} bytes`);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4 * 1024);
    }
  });
});

describe("Network through the dynamic-provider host", () => {
  const withProvider = (props: Record<string, unknown>) => ({ ...props, __provider: networkProvider });

  test("Check rejects a malformed id and an empty name, naming the rule", async () => {
    const { failures } = await host.check(
      NETWORK_URN,
      {},
      withProvider({ networkId: "NW-1/../x", name: " " }),
    );
    expect(failures.map((f) => f.property).sort()).toEqual(["name", "networkId"]);
    expect(failures.find((f) => f.property === "networkId")!.reason).toMatch(/NW-.*digit groups/);
    expect(failures.find((f) => f.property === "name")!.reason).toMatch(/non-empty/);
  });

  test("Check tolerates unknown inputs during preview", async () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const { failures } = await host.check(
      NETWORK_URN,
      {},
      withProvider({ networkId: unknown, name: unknown }),
    );
    expect(failures).toEqual([]);
  });

  test("Create adopts, Diff/Update rename in place, Read sees drift and deletion, Delete is refused with nodes", async () => {
    const id = emulator().fixtures.networkWithNodes;
    const inputs = withProvider({ networkId: id, name: "contract-net" });
    const { failures } = await host.check(NETWORK_URN, {}, inputs);
    expect(failures).toEqual([]);

    const created = await host.create(NETWORK_URN, inputs);
    expect(created.id).toBe(id);
    expect(created.properties).toMatchObject({ networkId: id, name: "contract-net", protocol: "ethereum" });
    expect(Array.isArray(created.properties.nodes)).toBe(true);
    expect((created.properties.nodes as unknown[]).length).toBeGreaterThan(0);
    expect(JSON.stringify(created.properties)).not.toContain(emulator().apiKey);
    expect(emulator().admin.getNetwork(id)!.name).toBe("contract-net");

    const olds = created.properties;
    expect(await host.diff(id, NETWORK_URN, olds, inputs)).toEqual({ changes: "none", replaces: [] });
    expect(await host.diff(id, NETWORK_URN, olds, { ...inputs, name: "renamed" })).toEqual({
      changes: "some",
      replaces: [],
    });
    expect(
      await host.diff(id, NETWORK_URN, olds, { ...inputs, networkId: emulator().fixtures.emptyNetwork }),
    ).toEqual({
      changes: "some",
      replaces: ["networkId"],
    });

    const updated = await host.update(id, NETWORK_URN, olds, { ...inputs, name: "renamed" });
    expect(updated.properties.name).toBe("renamed");
    expect(emulator().admin.getNetwork(id)!.name).toBe("renamed");

    emulator().admin.renameNetwork(id, "changed-in-console");
    const drifted = await host.read(id, NETWORK_URN, updated.properties);
    expect(drifted.id).toBe(id);
    expect(drifted.properties.name).toBe("changed-in-console");

    await expect(host.delete(id, NETWORK_URN, drifted.properties)).rejects.toThrow(/delete its nodes|nodes/);
    expect(emulator().admin.getNetwork(id)).toBeDefined();
  });

  test("Read of a network deleted out of band returns an empty id; Delete of a gone network succeeds", async () => {
    const id = emulator().fixtures.secondEmptyNetwork;
    const created = await host.create(NETWORK_URN, withProvider({ networkId: id }));
    emulator().admin.deleteNetwork(id);
    const gone = await host.read(id, NETWORK_URN, created.properties);
    expect(gone.id).toBe("");
    await expect(host.delete(id, NETWORK_URN, created.properties)).resolves.toBeUndefined();
  });

  test("Delete removes an empty adopted network", async () => {
    const id = emulator().fixtures.emptyNetwork;
    const created = await host.create(NETWORK_URN, withProvider({ networkId: id }));
    await host.delete(id, NETWORK_URN, created.properties);
    expect(emulator().admin.getNetwork(id)).toBeUndefined();
  });
});

describe("FaucetDrip through the dynamic-provider host", () => {
  const withProvider = (props: Record<string, unknown>) => ({ ...props, __provider: faucetProvider });

  test("Check validates the address and its EIP-55 checksum", async () => {
    const bad = await host.check(FAUCET_URN, {}, withProvider({ address: "0x123" }));
    expect(bad.failures[0].property).toBe("address");
    const address = emulator().fixtures.faucetAddress;
    const flipped =
      address.slice(0, 2) +
      [...address.slice(2)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
    const checksum = await host.check(FAUCET_URN, {}, withProvider({ address: flipped }));
    expect(checksum.failures[0].reason).toMatch(/EIP-55/);
  });

  test("Create requests tokens once, records the exact wei amount; a second request names the next possible time", async () => {
    const address = emulator().fixtures.faucetAddress;
    const created = await host.create(FAUCET_URN, withProvider({ address }));
    expect(created.properties.amountSent).toMatch(/^[0-9]+$/);
    expect(created.properties.transaction).toMatch(/^https:\/\//);
    expect(
      emulator()
        .faucetSends()
        .filter((s) => s.address === address),
    ).toHaveLength(1);
    await expect(host.create(FAUCET_URN, withProvider({ address }))).rejects.toThrow(
      /can be used again at \d{4}-\d{2}-\d{2}T/,
    );
    expect(await host.diff(created.id, FAUCET_URN, created.properties, withProvider({ address }))).toEqual({
      changes: "none",
      replaces: [],
    });
    await host.delete(created.id, FAUCET_URN, created.properties);
    expect(
      emulator()
        .faucetSends()
        .filter((s) => s.address === address),
    ).toHaveLength(1);
  });

  test("Update sends nothing and keeps the recorded outcome (amountSent, transaction, outcome, note)", async () => {
    const address = "0x" + "ab".repeat(20);
    const created = await host.create(FAUCET_URN, withProvider({ address }));
    const updated = await host.update(
      created.id,
      FAUCET_URN,
      created.properties,
      withProvider({ address, apiUrl: emulator().url }),
    );
    const { apiUrl, __provider, ...recorded } = updated.properties;
    const { __provider: _, ...before } = created.properties;
    expect(recorded).toEqual(before);
    expect(recorded).toMatchObject({ outcome: "sent", amountSent: expect.stringMatching(/^[0-9]+$/) });
    expect(apiUrl).toBe(emulator().url);
    expect(__provider).toBe(faucetProvider);
    expect(
      emulator()
        .faucetSends()
        .filter((s) => s.address === address),
    ).toHaveLength(1);
  });
});

describe("provider runtime loading", () => {
  test("by package name alone, from a project that has the package installed", async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "pbn-project-"));
    fs.mkdirSync(path.join(project, "node_modules"));
    fs.symlinkSync(root, path.join(project, "node_modules", "pulumi-blockchain-nodes"), "dir");
    const byName = await serializeProvider(makeProvider("network", [RUNTIME_SPECIFIER]));
    expect(byName).not.toContain(root);
    const other = await ProviderHost.start({ cwd: project, env: { PATH: process.env.PATH } });
    try {
      await other.configure({ "blockchain:apiUrl": emulator().url, "blockchain:apiKey": emulator().apiKey });
      const created = await other.create(NETWORK_URN, {
        networkId: emulator().fixtures.networkWithNodes,
        __provider: byName,
      });
      expect(created.id).toBe(emulator().fixtures.networkWithNodes);
    } finally {
      await other.stop();
      fs.rmSync(project, { recursive: true, force: true });
    }
  });

  test("a runtime that cannot be found fails with an install hint", async () => {
    const missing = await serializeProvider(
      makeProvider("network", ["pulumi-blockchain-nodes-missing/provider-runtime"]),
    );
    await expect(
      host.create(NETWORK_URN, { networkId: emulator().fixtures.networkWithNodes, __provider: missing }),
    ).rejects.toThrow(/npm install pulumi-blockchain-nodes/);
  });
});
