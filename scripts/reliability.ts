/**
 * `npm run reliability`: the seeded figures no test can give (docs/reliability.md), against
 * in-process emulators and a hostile server; exits 1 when a goal is missed.
 */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { parseArgs } from "util";
import { captureOutput, enterSection, environment, say, script, seconds, seedOf, table } from "./harness";
import { unhandled, verdict, watchUnhandled, zero, type Figure } from "./harness";
import { scrub, settings } from "./reliability/common";
import { runConverge } from "./reliability/converge";
import { runFaucet } from "./reliability/faucet";
import { runHostile } from "./reliability/hostile";
import { runLeakScan } from "./reliability/leaks";

function options() {
  const { values } = parseArgs({
    options: {
      seed: { type: "string", default: "1" },
      only: { type: "string", default: "1,2,3,4" },
      details: { type: "boolean", default: false },
    },
  });
  settings.details = values.details;
  return { seed: seedOf(values.seed), only: values.only.split(",").map((s) => Number(s.trim())) };
}

async function main({ seed, only }: ReturnType<typeof options>): Promise<number> {
  captureOutput();
  watchUnhandled();
  const journal = mkdtempSync(join(tmpdir(), "reliability-faucet-journal-"));
  process.env.BLOCKCHAIN_FAUCET_JOURNAL_DIR = journal;
  const started = performance.now();
  say(`reliability run: seed ${seed}`);
  say(`rerun with: npm run reliability -- --seed ${seed}`);
  say(environment());

  const sections: Array<[string, () => Promise<Figure[]>]> = [
    ["1 converge", () => runConverge(seed)],
    ["2 faucet", () => runFaucet(seed)],
    ["3 hostile", () => runHostile(seed)],
    ["4 leak scan", () => runLeakScan(seed)],
  ];
  const goals: Figure[] = [];
  const timings: string[] = [];
  try {
    for (const [i, [section, run]] of sections.entries()) {
      if (!only.includes(i + 1)) continue;
      enterSection(section);
      const t = performance.now();
      goals.push(...(await run()).map((g) => ({ section, ...g })));
      timings.push(`${i + 1} ${seconds(performance.now() - t)}`);
    }
  } finally {
    rmSync(journal, { recursive: true, force: true });
  }

  goals.push({
    section: "all",
    ...zero("unhandled rejections or uncaught exceptions (whole run)", unhandled.length),
  });
  table(
    `Summary (seed ${seed}, ${seconds(performance.now() - started)}: ${timings.join(", ")})`,
    ["section", "figure", "value", "goal", "met"],
    goals.map((g) => [g.section!, g.figure, g.value, g.goal!, g.met ? "yes" : "NO"]),
  );
  for (const u of unhandled.slice(0, 5)) {
    const text =
      u.error instanceof Error ? `${u.error.name}: ${u.error.message.split("\n")[0]}` : typeof u.error;
    say(`  ${u.what} in section ${u.section}: ${scrub(text).slice(0, 160)}`);
  }
  return verdict(goals, (g) => `${g.section}: ${g.figure}`);
}

script("reliability run", "npm run reliability [-- --seed N] [--only 1,2,3,4] [--details]", options, main);
