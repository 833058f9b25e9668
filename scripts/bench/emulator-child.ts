/**
 * The benchmark's emulator, in a process of its own (so its CPU and memory are not the
 * client's): `node emulator-child.js '<EmulatorOptions as JSON>'`. Prints one JSON line (url,
 * keys, fixtures, and the ids of the bulk networks), then serves until killed.
 */
import { startEmulator } from "../../src/emulator";
import type { EmulatorOptions } from "../../src/emulator";
import { buildDataset } from "../../src/emulator/data/seed";

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? "{}") as EmulatorOptions;
  const emulator = await startEmulator({ requestLogCapacity: 0, ...options });
  // The same seed and size give the same data: the bulk networks are the dataset's last ones.
  const dataset = buildDataset(options.seed ?? 1, {
    networks: options.networks ?? 0,
    nodes: options.nodes ?? 0,
  });
  const bulkNetworks = (options.networks ?? 0) > 0 ? dataset.networks.slice(-(options.networks ?? 0)) : [];
  process.stdout.write(
    `${JSON.stringify({
      url: emulator.url,
      apiKey: emulator.apiKey,
      adminKey: emulator.adminKey,
      fixtures: emulator.fixtures,
      bulkNetworks: bulkNetworks.map((n) => n.id),
    })}\n`,
  );
  process.on("message", () => {
    const counts: Record<string, number> = {};
    for (const r of emulator.requests()) counts[r.status] = (counts[r.status] ?? 0) + 1;
    emulator.resetRequests();
    process.send!(counts);
  });
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.on("disconnect", stop);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
