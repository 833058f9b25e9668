/**
 * The benchmark's emulator, in a process of its own (so its CPU and memory are not the
 * client's): forked as `emulator-child.js '<EmulatorOptions as JSON>'`. Sends what it serves (url,
 * keys, fixtures, and the ids of the bulk networks), then serves until killed; answers the
 * messages `requests` (how many it answered) and `statuses` (its answers by status since the last).
 */
import { startEmulator, type EmulatorOptions } from "../../src/emulator";
import { buildDataset } from "../../src/emulator/data/seed";
import { countBy } from "../harness";

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? "{}") as EmulatorOptions;
  const emulator = await startEmulator({ requestLogCapacity: 0, ...options });
  // The same seed and size give the same data: the bulk networks are the dataset's last ones.
  const bulk = options.networks ?? 0;
  const dataset = buildDataset(options.seed ?? 1, { networks: bulk, nodes: options.nodes ?? 0 });
  const bulkNetworks = bulk > 0 ? dataset.networks.slice(-bulk).map((n) => n.id) : [];
  const { url, apiKey, adminKey, fixtures } = emulator;
  process.send!({ url, apiKey, adminKey, fixtures, bulkNetworks });
  process.on("message", (what) => {
    if (what === "requests") return void process.send!(emulator.requestStats().total);
    const counts = countBy(emulator.requests().map((r) => String(r.status)));
    emulator.resetRequests();
    process.send!(Object.fromEntries(counts));
  });
  const stop = () => void emulator.close().then(() => process.exit(0));
  for (const signal of ["SIGTERM", "SIGINT", "disconnect"]) process.on(signal, stop);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
