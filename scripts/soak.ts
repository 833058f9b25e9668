/**
 * `npm run soak` (docs/reliability.md): for `--minutes` (default 10, or SOAK_MINUTES; `--quick`: 2),
 * against emulators faulting 25% of requests, engine cycles of two programs (`./soak/cycles.ts`)
 * and one plugin process across at least `--calls` calls (`./soak/plugin-calls.ts`), then a
 * secrets audit and the faucet's sends. `--keep` keeps the engine sandbox. Exits 1 when a goal is missed.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "util";
import { NodeServiceClient } from "../src/api";
import { startEmulator } from "../src/emulator";
import type { RunningEmulator } from "../src/emulator";
import { findSecrets } from "../test/helpers/audit";
import { createEngineSandbox, provisionEngine } from "./engine-sandbox";
import {
  captureOutput,
  capturedOutput,
  commandLine,
  say,
  unhandled,
  watchUnhandled,
} from "./reliability/common";
import { SOAK_FAULTS, faultShare, mbFromKb, ms, n, quantile, transcripts, x } from "./soak/common";
import { MAX_ATTEMPTS, runCycles } from "./soak/cycles";
import { writeProjects } from "./soak/programs";
import type { CyclesResult } from "./soak/cycles";
import { HTTP_GAP_MS, WARMUP_CALLS, runPluginSoak } from "./soak/plugin-calls";
import type { PluginSoakResult } from "./soak/plugin-calls";
import { sourceState } from "./source-state";

const GOALS = { rssGrowthMb: 32, cleanRatio: 10, driftRatio: 1.5, minCalls: 10_000 };

function options() {
  const { values } = parseArgs({
    options: {
      minutes: { type: "string", default: process.env.SOAK_MINUTES },
      quick: { type: "boolean", default: false },
      seed: { type: "string", default: "1" },
      calls: { type: "string", default: String(GOALS.minCalls) },
      keep: { type: "boolean", default: false },
    },
  });
  const args = {
    minutes: Number(values.minutes ?? (values.quick ? 2 : 10)),
    quick: values.quick,
    seed: Number(values.seed),
    calls: Number(values.calls),
    keep: values.keep,
  };
  if (!(args.minutes > 0)) throw new Error("--minutes must be a positive number");
  if (!Number.isSafeInteger(args.seed) || args.seed < 0)
    throw new Error("--seed must be a non-negative integer");
  if (!Number.isSafeInteger(args.calls) || args.calls < 1)
    throw new Error("--calls must be a positive integer");
  return args;
}

/**
 * The network the YAML program adopts: the primary organization's network with the most nodes,
 * other than the TypeScript program's and the consortium network. Listed before any fault is set.
 */
async function yamlNetwork(emulator: RunningEmulator): Promise<string> {
  const client = new NodeServiceClient({
    apiUrl: emulator.url,
    apiKey: emulator.apiKey,
    maxRequestsPerSecond: 0,
  });
  const counts = new Map<string, number>();
  for (const node of await client.listAllNodes({}, { limit: 100_000 })) {
    counts.set(node.network, (counts.get(node.network) ?? 0) + 1);
  }
  const skip = new Set([emulator.fixtures.networkWithNodes, emulator.fixtures.consortiumNetwork]);
  const best = [...counts]
    .filter(([id]) => !skip.has(id))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (!best) throw new Error("the emulator has no second network with nodes");
  return best[0];
}

/** Faults injected into an emulator's requests (estimated from those it retained). */
function faultCount(emulator: RunningEmulator): { total: number; faulted: number } {
  const { total } = emulator.requestStats();
  const retained = emulator.requests();
  return {
    total,
    faulted: Math.round((retained.filter((r) => r.fault).length * total) / Math.max(1, retained.length)),
  };
}

/** A figure; without `met`, for information. */
interface Figure {
  figure: string;
  value: string;
  goal: string;
  met?: boolean;
}

const zero = (figure: string, count: number): Figure => ({
  figure,
  value: n(count),
  goal: "0",
  met: count === 0,
});

/** The duplicate faucet sends: each address's sends beyond the drips created for it. */
function faucetFigures(emulator: RunningEmulator, cycles: CyclesResult): Figure[] {
  const counts = emulator.faucetSendCounts();
  const creations = new Map<string, { all: number; sent: number }>();
  for (const d of cycles.drips.values()) {
    const c = creations.get(d.address) ?? { all: 0, sent: 0 };
    c.all++;
    if (d.outcome === "sent") c.sent++;
    creations.set(d.address, c);
  }
  let duplicates = 0;
  for (const [address, sends] of Object.entries(counts.byAddress)) {
    duplicates += Math.max(0, sends - (creations.get(address.toLowerCase())?.all ?? 0));
  }
  let sentNotRecorded = 0;
  for (const [address, c] of creations) {
    if (c.sent > 0 && (counts.byAddress[address] ?? 0) === 0) sentNotRecorded++;
  }
  const drips = [...cycles.drips.values()];
  const sent = drips.filter((d) => d.outcome === "sent").length;
  const unknown = drips.length - sent;
  const unknownSent = drips.filter(
    (d) => d.outcome !== "sent" && (counts.byAddress[d.address] ?? 0) > 0,
  ).length;
  return [
    zero(
      `duplicate faucet sends (the emulator's count per address beyond the FaucetDrip creations for it; ${n(drips.length)} creations: ${sent} \`sent\`, ${unknown} \`unknown\` of which ${unknownSent} did send; ${n(counts.total)} sends)`,
      duplicates,
    ),
    zero("creations reported `sent` with no send in the emulator's count", sentNotRecorded),
  ];
}

/** The median of the RSS samples (kB) whose call numbers are in [from, to]. */
const rssWindow = (p: PluginSoakResult, from: number, to: number): number =>
  quantile(
    p.rss.filter((s) => s.calls >= from && s.calls <= to).map((s) => s.kb),
    0.5,
  );

function pluginFigures(p: PluginSoakResult): Figure[] {
  const last = p.rss[p.rss.length - 1].calls;
  const window = 1_000;
  const startKb = rssWindow(p, WARMUP_CALLS, WARMUP_CALLS + window);
  const endKb = rssWindow(p, last - window, last);
  const growthKb = endKb - startKb;
  const peak = Math.max(...p.rss.map((s) => s.kb));
  const clean = p.timed.filter((c) => !c.faulted && c.plainMs !== undefined);
  const all = p.timed.filter((c) => c.plainMs !== undefined);
  const lat = (calls: typeof all, whole = false) => {
    const [plugin, plain] = [calls.map((c) => (whole ? c.ms : c.servedMs)), calls.map((c) => c.plainMs!)];
    const [p50, p99] = [quantile(plugin, 0.5), quantile(plugin, 0.99)];
    return { p50, p99, plain50: quantile(plain, 0.5), plain99: quantile(plain, 0.99) };
  };
  const c = lat(clean);
  const w = lat(clean, true);
  const a = lat(all, true);
  const afterWarmup = clean.filter((t) => t.at > WARMUP_CALLS);
  const fifth = Math.max(1, Math.floor(afterWarmup.length / 5));
  const first = lat(afterWarmup.slice(0, fifth));
  const final = lat(afterWarmup.slice(-fifth));
  const failed = [...p.failures.values()].reduce((s, v) => s + v, 0);
  const httpCalls = p.timed.length + failed;
  const kinds = Object.entries(p.byKind)
    .sort((l, r) => r[1] - l[1])
    .map(([k, v]) => `${k} ${n(v)}`)
    .join(", ");
  return [
    {
      figure: `calls to one plugin process (${(p.durationMs / 60_000).toFixed(1)} min): ${kinds}`,
      value: n(p.calls),
      goal: `>= ${n(GOALS.minCalls)}`,
      met: p.calls >= GOALS.minCalls,
    },
    {
      figure: `plugin RSS growth: median of the samples of calls ${n(WARMUP_CALLS)}-${n(WARMUP_CALLS + window)} (after the warm-up) ${mbFromKb(startKb)}, of the last ${n(window)} calls ${mbFromKb(endKb)}; single samples ${mbFromKb(p.rss[0].kb)} -> ${mbFromKb(p.rss[p.rss.length - 1].kb)}, peak ${mbFromKb(peak)}`,
      value: mbFromKb(growthKb),
      goal: `<= ${GOALS.rssGrowthMb} MB`,
      met: growthKb / 1024 <= GOALS.rssGrowthMb,
    },
    {
      figure: `p50 of the plugin's calls that reached the service and met no fault (${n(clean.length)}), from the arrival of their first request, against the plain client's time for the same requests`,
      value: `${ms(c.p50)} vs ${ms(c.plain50)}: ${x(c.p50 / c.plain50)}`,
      goal: `<= ${GOALS.cleanRatio}x`,
      met: c.p50 / c.plain50 <= GOALS.cleanRatio,
    },
    {
      figure: "p99 of the same",
      value: `${ms(c.p99)} vs ${ms(c.plain99)}: ${x(c.p99 / c.plain99)}`,
      goal: `<= ${GOALS.cleanRatio}x`,
      met: c.p99 / c.plain99 <= GOALS.cleanRatio,
    },
    {
      figure: `p50 of the same, the last fifth of them (${n(fifth)}) against the first fifth after the warm-up`,
      value: `${ms(final.p50)} vs ${ms(first.p50)}: ${x(final.p50 / first.p50)}`,
      goal: `<= ${GOALS.driftRatio}x`,
      met: final.p50 / first.p50 <= GOALS.driftRatio,
    },
    {
      figure: "p50 / p99 of the same, whole: the limiter's waits after the faults' 429s included",
      value: `${ms(w.p50)} / ${ms(w.p99)}`,
      goal: "(counted)",
    },
    {
      figure: `p50 / p99 of every successful call that reached the service (${n(all.length)}; ${all.filter((t) => t.faulted).length} met faults and were retried), against the plain client's clean time for them`,
      value: `${ms(a.p50)} / ${ms(a.p99)} vs ${ms(a.plain50)} / ${ms(a.plain99)}: ${x(a.p50 / a.plain50)} / ${x(a.p99 / a.plain99)}`,
      goal: "(retry waits included)",
    },
    {
      figure: "p50 / p99 of the calls that stay in the plugin (Check of an adopted network, Diff)",
      value: `${ms(quantile(p.localMs, 0.5))} / ${ms(quantile(p.localMs, 0.99))}`,
      goal: "",
    },
    {
      figure: `plugin calls that failed after the client's retries, of ${n(httpCalls)} that reached the service (${n(p.requests)} requests, ${n(p.faultedRequests)} faulted)`,
      value: `${n(failed)} (${((100 * failed) / Math.max(1, httpCalls)).toFixed(1)}%)`,
      goal: "(an unreadable 200 is not retried)",
    },
  ];
}

function cycleFigures(c: CyclesResult): Figure[] {
  const total = c.cycles.dynamic + c.cycles.yaml;
  return [
    {
      figure: `cycles run (up, refresh, rename out of band + up --refresh, destroy, adopt again), in ${(c.durationMs / 60_000).toFixed(1)} min: TypeScript on the dynamic providers ${c.cycles.dynamic}, YAML on the plugin ${c.cycles.yaml}`,
      value: n(total),
      goal: ">= 1 per program",
      met: c.cycles.dynamic >= 1 && c.cycles.yaml >= 1,
    },
    {
      figure: `engine steps run again after a failure (of ${n(c.steps)} steps)`,
      value: n(c.retries.length),
      goal: "(counted)",
    },
    zero(`engine steps that failed on all ${MAX_ATTEMPTS} attempts`, c.failedSteps.length),
    zero(
      `state mismatches (state vs emulator after every step: network id and declared name, the service's name, drip, networkName output, no pending operation; ${n(c.checks)} checks)`,
      c.mismatches.length,
    ),
  ];
}

/** Prints the rows as a Markdown table (pasteable into docs/reliability.md). */
function printTable(rows: Figure[]): void {
  const line = (c: string[]) => say(`| ${c.join(" | ")} |`);
  line(["figure", "value", "goal", "met"]);
  line(["---", "---", "---", "---"]);
  for (const r of rows)
    line([r.figure, r.value, r.goal, r.met === undefined ? "" : r.met ? "PASS" : "**FAIL**"]);
}

/** Counts of a list of causes, most frequent first. */
function tally(causes: string[]): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const c of causes) m.set(c, (m.get(c) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<number> {
  const args = commandLine(
    "npm run soak [-- --minutes N] [--quick] [--seed N] [--calls N] [--keep]",
    options,
  );
  captureOutput();
  watchUnhandled();
  // The programs and the plugin must use only the connection settings given to them here.
  delete process.env.BLOCKCHAIN_API_URL;
  delete process.env.BLOCKCHAIN_API_KEY;
  const started = performance.now();
  const engine = provisionEngine();
  const engineVersion = execFileSync(path.join(engine, "pulumi"), ["version"]).toString().trim();
  const rerun = `npm run soak --${args.quick ? " --quick" : ""} --minutes ${args.minutes} --seed ${args.seed}${args.calls !== GOALS.minCalls ? ` --calls ${args.calls}` : ""}`;
  say(
    `soak: ${args.minutes} min, seed ${args.seed}, at least ${n(args.calls)} plugin calls; rerun with: ${rerun}`,
  );
  say(
    `node ${process.version}, ${process.platform}/${process.arch}; engine ${engineVersion}; source: ${sourceState()}`,
  );
  say(
    `faults on every request of every emulator: ${Math.round(faultShare() * 100)}% (${Object.entries(
      SOAK_FAULTS,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")})`,
  );

  // The cycles' emulator counts every faucet send (no daily limit: a second send is counted, not refused).
  const cyclesEmulator = await startEmulator({
    port: 0,
    seed: args.seed,
    faucetDailyLimit: 1_000_000,
    requestLogCapacity: 200_000,
  });
  const pluginEmulator = await startEmulator({ port: 0, seed: args.seed, requestLogCapacity: 1_000 });
  const networks = {
    dynamic: cyclesEmulator.fixtures.networkWithNodes,
    yaml: await yamlNetwork(cyclesEmulator),
  };
  cyclesEmulator.setFaults(SOAK_FAULTS);
  pluginEmulator.setFaults(SOAK_FAULTS);
  cyclesEmulator.resetRequests();

  const sandbox = await createEngineSandbox({
    engineDir: engine,
    name: "soak",
    extraEnv: { PULUMI_SKIP_CONFIRMATIONS: "true", BLOCKCHAIN_API_KEY: "", BLOCKCHAIN_API_URL: "" },
  });
  // The FaucetDrip journal of the engine's providers, in the sandbox.
  sandbox.envVars.BLOCKCHAIN_FAUCET_JOURNAL_DIR = path.join(sandbox.dir, "faucet-journal");
  const log = (line: string) =>
    say(`  [${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const projects = writeProjects();
  say(
    `networks: TypeScript program ${networks.dynamic}, YAML program ${networks.yaml}; engine sandbox ${sandbox.dir}`,
  );

  let exitCode = 0;
  try {
    const deadline = performance.now() + args.minutes * 60_000;
    let cyclesRunning = true;
    const [cyclesOutcome, pluginOutcome] = await Promise.allSettled([
      runCycles({
        seed: args.seed,
        sandbox,
        emulator: cyclesEmulator,
        networks,
        projects,
        deadline,
        log,
      }).finally(() => (cyclesRunning = false)),
      runPluginSoak({
        seed: args.seed,
        emulator: pluginEmulator,
        calls: args.calls,
        deadline,
        running: () => cyclesRunning,
        log,
      }),
    ]);
    if (cyclesOutcome.status === "rejected") throw cyclesOutcome.reason;
    if (pluginOutcome.status === "rejected") throw pluginOutcome.reason;
    const cycles = cyclesOutcome.value;
    const plugin = pluginOutcome.value;

    say("");
    // What went wrong and why, printed before the audit (which reads everything printed).
    if (cycles.retries.length > 0) {
      say(`engine steps run again, by cause:`);
      for (const [cause, count] of tally(cycles.retries.map((r) => `${r.stack} ${r.step}: ${r.cause}`)))
        say(`  ${count} x ${cause}`);
    }
    for (const f of cycles.failedSteps) say(`failed for good: ${f.stack} ${f.step}: ${f.cause}`);
    for (const m of cycles.mismatches.slice(0, 20))
      say(`mismatch: ${m.stack} cycle ${m.cycle} after ${m.step}: ${m.problems.join("; ")}`);
    if (plugin.failures.size > 0) {
      say(`plugin calls that failed, by cause:`);
      for (const [cause, count] of [...plugin.failures].sort((a, b) => b[1] - a[1]))
        say(`  ${count} x ${cause}`);
    }
    say(
      `plugin RSS every 1,000 calls (calls: MB): ${plugin.rss
        .filter((s, i) => s.calls % 1000 === 0 || i === plugin.rss.length - 1)
        .map((s) => `${n(s.calls)}: ${(s.kb / 1024).toFixed(1)}`)
        .join(", ")}`,
    );
    say(`calls reaching the service start >= ${HTTP_GAP_MS} ms after the previous one ended`);
    for (const u of unhandled.slice(0, 5)) {
      const e = u.error;
      say(
        `${u.what}: ${e instanceof Error ? `${e.name}: ${e.stack ?? e.message}` : String(e)}`.slice(0, 1500),
      );
    }
    // The secrets audit: every file of the sandbox and the projects, everything the engine, the plugin and this run printed.
    const secrets = [
      ...new Set([cyclesEmulator, pluginEmulator].flatMap((e) => [...e.secrets(), e.apiKey, e.adminKey])),
    ];
    const files = [sandbox.dir, projects.dynamic, projects.yaml]
      .filter((d) => fs.existsSync(d))
      .flatMap((d) => fs.readdirSync(d, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.join(e.path, e.name));
    const texts = { ...transcripts, "plugin stderr": plugin.stderr, "soak output": capturedOutput.join("") };
    const findings = findSecrets(secrets, { files, texts });
    for (const f of findings.slice(0, 20)) say(`secret found: ${f.secret} in ${f.where}`);
    const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    const chars = Object.values(texts).reduce((sum, t) => sum + t.length, 0);

    const faults = faultCount(cyclesEmulator);
    const pluginFaults = faultCount(pluginEmulator);
    const share = (faults.faulted + pluginFaults.faulted) / Math.max(1, faults.total + pluginFaults.total);
    const figures: Figure[] = [
      {
        figure: `faults injected: cycles' emulator ${n(faults.faulted)} of ${n(faults.total)} requests, plugin's emulator ${n(pluginFaults.faulted)} of ${n(pluginFaults.total)} (the plugin's and the plain client's)`,
        value: `${(100 * share).toFixed(1)}%`,
        goal: "20-30%",
        met: share >= 0.2 && share <= 0.3,
      },
      ...cycleFigures(cycles),
      zero(
        `plaintext hits of secrets (${secrets.length} secrets of the emulators and their keys, in ${n(files.length)} files of the backend and projects, ${(bytes / 1e6).toFixed(1)} MB, and ${n(Object.keys(texts).length)} engine transcripts and outputs, ${(chars / 1e6).toFixed(1)} M characters)`,
        findings.length,
      ),
      ...faucetFigures(cyclesEmulator, cycles),
      ...pluginFigures(plugin),
      zero("unhandled rejections or uncaught exceptions in this process", unhandled.length),
    ];

    say("");
    say(`Soak figures (${((performance.now() - started) / 60_000).toFixed(1)} min, seed ${args.seed}):`);
    say("");
    printTable(figures);
    const missed = figures.filter((f) => f.met === false);
    say("");
    say(
      missed.length === 0
        ? `all ${figures.filter((f) => f.met !== undefined).length} goals met`
        : `${missed.length} goal(s) missed: ${missed.map((f) => f.figure.split(" (")[0]).join("; ")}`,
    );
    exitCode = missed.length === 0 ? 0 : 1;
  } finally {
    await cyclesEmulator.close();
    await pluginEmulator.close();
    if (args.keep) say(`kept the engine sandbox: ${sandbox.dir}; the projects: ${projects.root}`);
    else {
      sandbox.cleanup();
      fs.rmSync(projects.root, { recursive: true, force: true });
    }
  }
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
