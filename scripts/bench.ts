/**
 * `npm run bench`: the figures of docs/performance.md, each with its baseline measured in the same run. Every
 * emulator runs in a process of its own, so its CPU and memory are not the client's.
 */
import { parseArgs } from "node:util";
import { table, type Row } from "./bench/common";
import { environment, say, script, seconds } from "./harness";
import { runBadDays } from "./bench/bad-days";
import { runListing } from "./bench/listing";
import { runProvider } from "./bench/provider";
import { runRefresh } from "./bench/refresh";
import { runThroughput } from "./bench/throughput";
import { runVerify } from "./bench/verify";

const SECTIONS = {
  "bad-days": runBadDays,
  listing: runListing,
  provider: runProvider,
  refresh: runRefresh,
  throughput: runThroughput,
  verify: runVerify,
} as const;
type Section = keyof typeof SECTIONS;

function options(): { strict: boolean; only: Section[] } {
  const { values } = parseArgs({ options: { strict: { type: "boolean" }, only: { type: "string" } } });
  const only = (values.only?.split(",").map((s) => s.trim()) ?? Object.keys(SECTIONS)) as Section[];
  for (const s of only) if (!(s in SECTIONS)) throw new Error(`unknown section ${JSON.stringify(s)}`);
  return { strict: values.strict ?? false, only };
}

async function main({ strict, only }: ReturnType<typeof options>): Promise<number> {
  const started = performance.now();
  const log = (line: string) => say(`  ${line}`);
  say(`bench: ${environment()}`);
  const rows: Row[] = [];
  for (const name of only) {
    const t = performance.now();
    say(`${name}...`);
    rows.push(...(await SECTIONS[name](log)));
    log(`(${seconds(performance.now() - t)})`);
  }
  say(`\n${table(rows)}\n`);
  const missed = rows.filter((r) => r.met === false);
  say(
    `${missed.length === 0 ? "every target met" : `${missed.length} target(s) missed`}; ` +
      `total ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return strict && missed.length > 0 ? 1 : 0;
}

script("bench", `npm run bench [-- --strict] [--only ${Object.keys(SECTIONS)}]`, options, main);
