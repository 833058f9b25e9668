/**
 * Reliability figures anyone can rerun: `npm run reliability [-- --seed N]`.
 *
 * Every figure runs against the in-process emulator, or against a small hostile HTTP server on
 * 127.0.0.1 (port 0) started here, from a printed, settable seed:
 *
 * 1. converge under 30% transient faults (listings and Network provider operations, compared
 *    with a fault-free run of the same sequence);
 * 2. no second faucet send (1,000 fault-injected FaucetDrip creates);
 * 3. bad input (a generated corpus fed to the client, its constructor and the providers);
 * 4. hostile responses (non-JSON, wrong shapes, endless pages, 1 GB bodies, gzip bombs, slow
 *    bodies, redirects, junk Retry-After);
 * 5. leak scan of every error and log line produced above: every API key, and every credential
 *    the client had read, must be absent; echoes of credentials a client never read are counted
 *    apart, for information (no client can recognise a bare password it has never seen).
 *
 * Options: `--seed N` (default 1), `--only 1,3` (run some sections), `--details` (every problem
 * line, not the first few), `--quick` (fewer runs, for
 * development; the goals' minimum sizes are then not met and the run says so).
 * Exits with status 1 when a goal is missed.
 */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { CommandLine } from "./command-line";
import {
  Goal,
  captureOutput,
  scrub,
  settings,
  enterSection,
  say,
  seconds,
  table,
  unhandled,
  watchUnhandled,
  zeroGoal,
} from "./reliability/common";
import { runConverge } from "./reliability/converge";
import { sourceState } from "./source-state";
import { runFaucet } from "./reliability/faucet";
import { runBadInput } from "./reliability/bad-input";
import { runHostile } from "./reliability/hostile";
import { runLeakScan } from "./reliability/leaks";

interface Args {
  seed: number;
  only: Set<number>;
  quick: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { seed: 1, only: new Set([1, 2, 3, 4, 5]), quick: false };
  const line = new CommandLine(argv);
  for (const a of line) {
    if (a === "--seed" || a.startsWith("--seed=")) {
      const seed = Number(line.value("--seed"));
      if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer`);
      args.seed = seed;
    } else if (a === "--only" || a.startsWith("--only=")) {
      args.only = new Set(
        line
          .value("--only")
          .split(",")
          .map((s) => Number(s.trim())),
      );
    } else if (a === "--details") {
      settings.details = true;
    } else if (a === "--quick") {
      args.quick = true;
    } else if (a === "--help" || a === "-h") {
      say("npm run reliability [-- --seed N] [--only 1,2,3,4,5] [--quick] [--details]");
      process.exit(0);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(a)} (try --help)`);
    }
  }
  return args;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  captureOutput();
  watchUnhandled();
  const journal = mkdtempSync(join(tmpdir(), "reliability-faucet-journal-"));
  process.env.BLOCKCHAIN_FAUCET_JOURNAL_DIR = journal;
  // The providers must use only the connection settings given to them here.
  delete process.env.BLOCKCHAIN_API_URL;
  delete process.env.BLOCKCHAIN_API_KEY;
  const started = performance.now();
  say(`reliability run: seed ${args.seed}${args.quick ? " (quick: reduced sizes)" : ""}`);
  say(`rerun with: npm run reliability -- --seed ${args.seed}`);
  say(`node ${process.version}, ${process.platform}/${process.arch}; source: ${sourceState()}`);

  const goals: Goal[] = [];
  const timings: Array<[string, number]> = [];
  const section = async (n: number, name: string, run: () => Promise<Goal[]>) => {
    if (!args.only.has(n)) return;
    enterSection(name);
    const t = performance.now();
    goals.push(...(await run()));
    timings.push([name, performance.now() - t]);
  };
  try {
    await section(1, "1 converge", () =>
      runConverge({ seed: args.seed, runs: args.quick ? 24 : 200, concurrency: 20 }),
    );
    await section(2, "2 faucet", () => runFaucet({ seed: args.seed, creates: args.quick ? 200 : 1000 }));
    await section(3, "3 bad input", () => runBadInput({ seed: args.seed }));
    await section(4, "4 hostile", () => runHostile({ seed: args.seed, quick: args.quick }));
    await section(5, "5 leak scan", () => runLeakScan(args.seed));
  } finally {
    rmSync(journal, { recursive: true, force: true });
  }

  goals.push(zeroGoal("all", "unhandled rejections or uncaught exceptions (whole run)", unhandled.length));
  if (args.quick) {
    goals.push({
      section: "run",
      figure: "full sizes (--quick reduces them)",
      value: "quick",
      goal: "full",
      met: false,
    });
  }
  const total = performance.now() - started;
  table(
    `Summary (seed ${args.seed}, ${seconds(total)}: ${timings.map(([n, ms]) => `${n.split(" ")[0]} ${seconds(ms)}`).join(", ")})`,
    ["section", "figure", "value", "goal", "met"],
    goals.map((g) => [g.section, g.figure, g.value, g.goal, g.informational ? "-" : g.met ? "yes" : "NO"]),
  );
  for (const u of unhandled.slice(0, 5)) {
    const text =
      u.error instanceof Error ? `${u.error.name}: ${u.error.message.split("\n")[0]}` : typeof u.error;
    say(`  ${u.what} in section ${u.section}: ${scrub(text).slice(0, 160)}`);
  }
  const scored = goals.filter((g) => !g.informational);
  const missed = scored.filter((g) => !g.met);
  const informational = goals.length - scored.length;
  say("");
  say(
    (missed.length === 0
      ? `all ${scored.length} goals met`
      : `${missed.length} of ${scored.length} goals missed: ${missed.map((g) => `${g.section}: ${g.figure}`).join("; ")}`) +
      (informational > 0
        ? ` (${informational} informational figure${informational === 1 ? "" : "s"}, no goal)`
        : ""),
  );
  return missed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `reliability run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
