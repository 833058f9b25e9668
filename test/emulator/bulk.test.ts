import { startEmulator } from "../../src/emulator";
import { parseCliArgs } from "../../src/emulator/cli";
import { buildDataset } from "../../src/emulator/data/seed";
import type { Dataset } from "../../src/emulator/data/seed";
import { listAll } from "../helpers/emulator";

function primaryNetworks(d: Dataset): string[] {
  const projects = new Set(
    d.projects.filter((p) => p.organization === d.fixtures.organization).map((p) => p.id),
  );
  return d.networks.filter((n) => projects.has(n.project)).map((n) => n.id);
}

describe("bulk data (nodes / networks)", () => {
  test("adds the nodes and networks to the primary organization, deterministically per seed", () => {
    const base = buildDataset(9);
    const bulk = buildDataset(9, { networks: 100, nodes: 2000 });
    expect(buildDataset(9, { networks: 100, nodes: 2000 })).toEqual(bulk);
    expect(buildDataset(9, { networks: 0, nodes: 0 })).toEqual(base);
    expect(buildDataset(10, { networks: 100, nodes: 2000 }).nodes).not.toEqual(bulk.nodes);
    // The well-known ids stay; the faucet address is drawn after the nodes, so it changes.
    expect({ ...bulk.fixtures, faucetAddress: "" }).toEqual({ ...base.fixtures, faucetAddress: "" });
    expect(bulk.nodes).toHaveLength(base.nodes.length + 2000);
    expect(primaryNetworks(bulk)).toHaveLength(primaryNetworks(base).length + 100);
    expect(new Set(bulk.nodes.map((n) => n.id)).size).toBe(bulk.nodes.length);
    const primary = (d: Dataset) => d.nodes.filter((n) => n.organization === d.fixtures.organization);
    expect(primary(bulk)).toHaveLength(primary(base).length + 2000);
    const byNetwork = (d: Dataset, id: string) => d.nodes.filter((n) => n.network === id).length;
    for (const fixture of [
      bulk.fixtures.emptyNetwork,
      bulk.fixtures.secondEmptyNetwork,
      bulk.fixtures.networkWithNodes,
      bulk.fixtures.consortiumNetwork,
    ]) {
      expect(byNetwork(bulk, fixture)).toBe(byNetwork(base, fixture));
    }
  });

  test("a listing of 10,000 generated nodes, in pages of the set size", async () => {
    const emulator = await startEmulator({ seed: 2, nodes: 10_000, pageSize: 100, requestLogCapacity: 0 });
    try {
      const nodes = await listAll(emulator);
      expect(nodes.length).toBeGreaterThanOrEqual(10_000);
      expect(emulator.requestStats().total).toBe(Math.ceil(nodes.length / 100));
    } finally {
      await emulator.close();
    }
  });

  test("repeated list queries see every change made between them", async () => {
    const emulator = await startEmulator({ seed: 4, nodes: 300, pageSize: 50 });
    try {
      const running = await listAll(emulator, "status=running");
      await listAll(emulator, "status=running");
      expect(emulator.admin.setNodeStatus(running[0].id, "stopped")).toBe(true);
      const after = await listAll(emulator, "status=running");
      expect(after.map((n) => n.id)).toEqual(running.slice(1).map((n) => n.id));
      const network = running[1].network;
      expect(emulator.admin.removeNodes(network)).toBeGreaterThan(0);
      expect((await listAll(emulator)).some((n) => n.network === network)).toBe(false);
    } finally {
      await emulator.close();
    }
  });

  test("options are checked; the command's flags map to them", async () => {
    await expect(startEmulator({ nodes: -1 })).rejects.toThrow(RangeError);
    await expect(startEmulator({ networks: 1.5 })).rejects.toThrow(/networks/);
    expect(parseCliArgs(["--nodes", "10000", "--networks", "100", "--page-size", "100"])).toEqual({
      action: "serve",
      output: "text",
      options: { quiet: true, nodes: 10_000, networks: 100, pageSize: 100 },
    });
    expect(() => parseCliArgs(["--nodes", "many"])).toThrow(/--nodes must be an integer/);
  });
});
