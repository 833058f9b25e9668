/**
 * Performance figures anyone can rerun: `npm run bench [-- --strict] [--only listing,provider,refresh,throughput]`.
 *
 * Prints a table: each figure, its baseline measured in the same run, the ratio, the target and
 * whether it is met. Every emulator runs in a process of its own (`scripts/bench/emulator-child.ts`)
 * so that its CPU and memory are not the measured client's. Sections:
 *
 * 1. listing 10,000 nodes (50 ms latency, pages of 100): `listAllNodes` against a sequential walk,
 *    the floor max(P/R, ceil(P/C) x L), peak RSS growth; then under the default limiter;
 * 2. the serialized `__provider` size of Network and FaucetDrip, and the dynamic-provider host's
 *    cold start to a first Network read against a bare Node.js process making the same call;
 * 3. `pulumi refresh` of 100 adopted networks under the real engine (needs the engine and `dist/`);
 * 4. the emulator's throughput on loopback, to show it is not the bottleneck.
 *
 * A missed target is printed, not fatal; with `--strict` the script then exits with status 1.
 */
import { table } from "./bench/common";
import { sourceState } from "./source-state";
import type { Row } from "./bench/common";
import { runListing } from "./bench/listing";
import { runProvider } from "./bench/provider";
import { runRefresh } from "./bench/refresh";
import { runThroughput } from "./bench/throughput";

const SECTIONS = {
  listing: runListing,
  provider: runProvider,
  refresh: runRefresh,
  throughput: runThroughput,
} as const;
type Section = keyof typeof SECTIONS;

function parseArgs(argv: string[]): { strict: boolean; only: Section[] } {
  let strict = false;
  let only = Object.keys(SECTIONS) as Section[];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--strict") strict = true;
    else if (a === "--only" || a.startsWith("--only=")) {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      only = (v ?? "").split(",").map((s) => s.trim()) as Section[];
      for (const s of only) if (!(s in SECTIONS)) throw new Error(`unknown section ${JSON.stringify(s)}`);
    } else if (a === "--help" || a === "-h") {
      console.log(`npm run bench [-- --strict] [--only ${Object.keys(SECTIONS).join(",")}]`);
      process.exit(0);
    } else throw new Error(`unknown argument ${JSON.stringify(a)} (try --help)`);
  }
  return { strict, only };
}

async function main(): Promise<number> {
  const { strict, only } = parseArgs(process.argv.slice(2));
  delete process.env.BLOCKCHAIN_API_URL;
  delete process.env.BLOCKCHAIN_API_KEY;
  const started = performance.now();
  const log = (line: string) => console.log(`  ${line}`);
  console.log(
    `bench: node ${process.version}, ${process.platform}/${process.arch}; source: ${sourceState()}`,
  );
  const rows: Row[] = [];
  for (const name of only) {
    const t = performance.now();
    console.log(`${name}...`);
    rows.push(...(await SECTIONS[name](log)));
    log(`(${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
  console.log(`\n${table(rows)}\n`);
  const missed = rows.filter((r) => r.met === false);
  console.log(
    `${missed.length === 0 ? "every target met" : `${missed.length} target(s) missed`}; ` +
      `total ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return strict && missed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
