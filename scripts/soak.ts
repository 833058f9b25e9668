/**
 * `npm run soak` (docs/reliability.md): against emulators faulting 25% of requests, engine cycles of two
 * programs and one plugin process at once, then a secrets audit and the faucet's sends.
 */
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "util";
import { NodeServiceClient } from "../src/api";
import { startEmulator } from "../src/emulator";
import type { FaultOptions, RunningEmulator } from "../src/emulator";
import { findSecrets } from "../test/helpers/audit";
import { EngineRun, engineVersion, filesUnder, provisionEngine } from "./engine-sandbox";
import {
  captureOutput,
  capturedOutput,
  countBy,
  environment,
  markdownTable,
  mb,
  ms,
  n,
  quantile,
  say,
  script,
  seedOf,
  timed,
  unhandled,
  verdict,
  watchUnhandled,
  x,
  zero,
  type Figure,
} from "./harness";
import { MAX_ATTEMPTS, runCycles, type CyclesResult } from "./soak/cycles";
import { HTTP_GAP_MS, WARMUP_CALLS, runPluginSoak, type PluginSoakResult } from "./soak/plugin-calls";
import { writeProjects } from "./soak/programs";

const GOALS = { rssGrowthMb: 32, cleanRatio: 10, driftRatio: 1.5, minCalls: 10_000 };

/**
 * 25% of requests in all: about half refused before processing (429 and 503 asking for an
 * immediate retry, 502/504, dropped), the rest processed, then lost or answered unreadably.
 */
const FAULTS: FaultOptions = {
  rate429: 0.05,
  rate5xx: 0.05,
  dropRate: 0.04,
  dropAfterProcessingRate: 0.04,
  rate5xxAfterProcessing: 0.05,
  malformedRate: 0.02,
  retryAfterSeconds: 0,
};

function options() {
  const { values } = parseArgs({
    options: {
      minutes: { type: "string", default: process.env.SOAK_MINUTES },
      quick: { type: "boolean", default: false },
      seed: { type: "string", default: "1" },
    },
  });
  const minutes = Number(values.minutes ?? (values.quick ? 2 : 10));
  if (!(minutes > 0)) throw new Error("--minutes must be a positive number");
  return { minutes, seed: seedOf(values.seed) };
}

/**
 * The network the YAML program adopts: the primary organization's network with the most nodes,
 * other than the TypeScript program's and the consortium network. Listed before any fault is set.
 */
async function yamlNetwork(emulator: RunningEmulator): Promise<string> {
  const { url: apiUrl, apiKey } = emulator;
  const client = new NodeServiceClient({ apiUrl, apiKey, maxRequestsPerSecond: 0 });
  const counts = countBy((await client.listAllNodes({}, { limit: 100_000 })).map((node) => node.network));
  const skip = [emulator.fixtures.networkWithNodes, emulator.fixtures.consortiumNetwork];
  const best = [...counts]
    .filter(([id]) => !skip.includes(id))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (!best) throw new Error("the emulator has no second network with nodes");
  return best[0];
}

/** Faults injected into an emulator's requests (estimated from those it retained). */
function faultCount(emulator: RunningEmulator): { total: number; faulted: number } {
  const [{ total }, retained] = [emulator.requestStats(), emulator.requests()];
  const faulted = retained.filter((r) => r.fault).length;
  return { total, faulted: Math.round((faulted * total) / Math.max(1, retained.length)) };
}

const fig = (figure: string, value: string, goal: string, met?: boolean) => ({ figure, value, goal, met });
const atMost = (figure: string, value: string, ratio: number, goal: number) =>
  fig(figure, `${value}: ${x(ratio)}`, `<= ${goal}x`, ratio <= goal);

/** The duplicate faucet sends: each address's sends beyond the drips created for it. */
function faucetFigures(emulator: RunningEmulator, cycles: CyclesResult): Figure[] {
  const { byAddress, total } = emulator.faucetSendCounts();
  const drips = [...cycles.drips.values()];
  const created = (address: string) => drips.filter((d) => d.address === address);
  let duplicates = 0;
  for (const [address, sends] of Object.entries(byAddress))
    duplicates += Math.max(0, sends - created(address.toLowerCase()).length);
  const sent = drips.filter((d) => d.outcome === "sent");
  const sentNotRecorded = new Set(sent.filter((d) => !byAddress[d.address]).map((d) => d.address)).size;
  const unknownSent = drips.filter((d) => d.outcome !== "sent" && byAddress[d.address] > 0).length;
  return [
    zero(
      `duplicate faucet sends (the emulator's count per address beyond the FaucetDrip creations for it; ${n(drips.length)} creations: ${sent.length} \`sent\`, ${drips.length - sent.length} \`unknown\` of which ${unknownSent} did send; ${n(total)} sends)`,
      duplicates,
    ),
    zero("creations reported `sent` with no send in the emulator's count", sentNotRecorded),
  ];
}

const mbOf = (v: number): string => mb(v * 1024 * 1024);

function pluginFigures(p: PluginSoakResult, durationMs: number): Figure[] {
  const last = p.rss[p.rss.length - 1];
  /** The median of the RSS samples whose call numbers are in [from, to]. */
  const rssWindow = (from: number, to: number) => {
    const mbs = p.rss.filter((s) => s.calls >= from && s.calls <= to).map((s) => s.mb);
    return quantile(mbs, 0.5);
  };
  const [startMb, endMb] = [
    rssWindow(WARMUP_CALLS, WARMUP_CALLS + 1000),
    rssWindow(last.calls - 1000, last.calls),
  ];
  const growth = endMb - startMb;
  const all = p.timed.filter((c) => c.plainMs !== undefined);
  const clean = all.filter((c) => !c.faulted);
  const lat = (calls: typeof all, whole = false) => {
    const [times, plain] = [calls.map((c) => (whole ? c.ms : c.servedMs)), calls.map((c) => c.plainMs!)];
    const [p50, p99, plain50, plain99] = [times, plain].flatMap((v) => [quantile(v, 0.5), quantile(v, 0.99)]);
    return { p50, p99, plain50, plain99 };
  };
  const [c, w, a] = [lat(clean), lat(clean, true), lat(all, true)];
  const afterWarmup = clean.filter((t) => t.at > WARMUP_CALLS);
  const fifth = Math.max(1, Math.floor(afterWarmup.length / 5));
  const [first, final] = [lat(afterWarmup.slice(0, fifth)), lat(afterWarmup.slice(-fifth))];
  const failed = [...p.failures.values()].reduce((s, v) => s + v, 0);
  const httpCalls = p.timed.length + failed;
  const kinds = Object.entries(p.byKind)
    .sort((l, r) => r[1] - l[1])
    .map(([k, v]) => `${k} ${n(v)}`);
  return [
    fig(
      `calls to one plugin process (${(durationMs / 60_000).toFixed(1)} min): ${kinds.join(", ")}`,
      n(p.calls),
      `>= ${n(GOALS.minCalls)}`,
      p.calls >= GOALS.minCalls,
    ),
    fig(
      `plugin RSS growth: median of the samples of calls ${n(WARMUP_CALLS)}-${n(WARMUP_CALLS + 1000)} (after the warm-up) ${mbOf(startMb)}, of the last 1,000 calls ${mbOf(endMb)}; single samples ${mbOf(p.rss[0].mb)} -> ${mbOf(last.mb)}, peak ${mbOf(Math.max(...p.rss.map((s) => s.mb)))}`,
      mbOf(growth),
      `<= ${GOALS.rssGrowthMb} MB`,
      growth <= GOALS.rssGrowthMb,
    ),
    atMost(
      `p50 of the plugin's calls that reached the service and met no fault (${n(clean.length)}), from the arrival of their first request, against the plain client's time for the same requests`,
      `${ms(c.p50)} vs ${ms(c.plain50)}`,
      c.p50 / c.plain50,
      GOALS.cleanRatio,
    ),
    atMost("p99 of the same", `${ms(c.p99)} vs ${ms(c.plain99)}`, c.p99 / c.plain99, GOALS.cleanRatio),
    atMost(
      `p50 of the same, the last fifth of them (${n(fifth)}) against the first fifth after the warm-up`,
      `${ms(final.p50)} vs ${ms(first.p50)}`,
      final.p50 / first.p50,
      GOALS.driftRatio,
    ),
    fig(
      "p50 / p99 of the same, whole: the limiter's waits after the faults' 429s included",
      `${ms(w.p50)} / ${ms(w.p99)}`,
      "(counted)",
    ),
    fig(
      `p50 / p99 of every successful call that reached the service (${n(all.length)}; ${all.length - clean.length} met faults and were retried), against the plain client's clean time for them`,
      `${ms(a.p50)} / ${ms(a.p99)} vs ${ms(a.plain50)} / ${ms(a.plain99)}: ${x(a.p50 / a.plain50)} / ${x(a.p99 / a.plain99)}`,
      "(retry waits included)",
    ),
    fig(
      "p50 / p99 of the calls that stay in the plugin (Check of an adopted network, Diff)",
      `${ms(quantile(p.localMs, 0.5))} / ${ms(quantile(p.localMs, 0.99))}`,
      "",
    ),
    fig(
      `plugin calls that failed after the client's retries, of ${n(httpCalls)} that reached the service (${n(p.requests)} requests, ${n(p.faultedRequests)} faulted)`,
      `${n(failed)} (${((100 * failed) / Math.max(1, httpCalls)).toFixed(1)}%)`,
      "(an unreadable 200 is not retried)",
    ),
  ];
}

function cycleFigures(c: CyclesResult, durationMs: number): Figure[] {
  return [
    fig(
      `cycles run (up, refresh, rename out of band + up --refresh, destroy, adopt again), in ${(durationMs / 60_000).toFixed(1)} min: TypeScript on the dynamic providers ${c.cycles.dynamic}, YAML on the plugin ${c.cycles.yaml}`,
      n(c.cycles.dynamic + c.cycles.yaml),
      ">= 1 per program",
      c.cycles.dynamic >= 1 && c.cycles.yaml >= 1,
    ),
    fig(`engine steps run again after a failure (of ${n(c.steps)} steps)`, n(c.retries.length), "(counted)"),
    zero(`engine steps that failed on all ${MAX_ATTEMPTS} attempts`, c.failedSteps.length),
    zero(
      `state mismatches (state vs emulator after every step: network id and declared name, the service's name, drip, networkName output, no pending operation; ${n(c.checks)} checks)`,
      c.mismatches.length,
    ),
  ];
}

/** Lines `  N x cause`, most frequent first. */
function tally(title: string, counts: Map<string, number>): void {
  if (counts.size > 0) say(title);
  for (const [cause, count] of [...counts].sort((a, b) => b[1] - a[1])) say(`  ${count} x ${cause}`);
}

async function main(args: ReturnType<typeof options>): Promise<number> {
  captureOutput();
  watchUnhandled();
  const started = performance.now();
  const engine = provisionEngine();
  const rates = Object.entries(FAULTS).filter(([k]) => /rate/i.test(k));
  const share = rates.reduce((sum, [, v]) => sum + Number(v), 0);
  say(
    `soak: ${args.minutes} min, seed ${args.seed}, at least ${n(GOALS.minCalls)} plugin calls; rerun with: npm run soak -- --minutes ${args.minutes} --seed ${args.seed}`,
  );
  say(environment(`engine ${engineVersion(engine)}; `));
  const listed = Object.entries(FAULTS).map(([k, v]) => `${k} ${v}`);
  say(`faults on every request of every emulator: ${Math.round(share * 100)}% (${listed.join(", ")})`);

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
  for (const e of [cyclesEmulator, pluginEmulator]) e.setFaults(FAULTS);
  cyclesEmulator.resetRequests();

  const run = await EngineRun.start(undefined, "soak", engine);
  const { sandbox, transcript } = run;
  // The FaucetDrip journal of the engine's providers, in the sandbox.
  sandbox.envVars.BLOCKCHAIN_FAUCET_JOURNAL_DIR = path.join(sandbox.dir, "faucet-journal");
  const log = (line: string) =>
    say(`  [${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const projects = writeProjects();
  say(
    `networks: TypeScript program ${networks.dynamic}, YAML program ${networks.yaml}; engine sandbox ${sandbox.dir}`,
  );

  try {
    const deadline = performance.now() + args.minutes * 60_000;
    const shared = { seed: args.seed, deadline, log };
    let cyclesRunning = true;
    const [{ result: cycles, ms: cyclesMs }, { result: plugin, ms: pluginMs }] = await Promise.all([
      timed(() => runCycles({ ...shared, run, emulator: cyclesEmulator, networks, projects })).finally(
        () => (cyclesRunning = false),
      ),
      timed(() =>
        runPluginSoak({
          ...shared,
          emulator: pluginEmulator,
          calls: GOALS.minCalls,
          running: () => cyclesRunning,
        }),
      ),
    ]);

    // What went wrong and why, printed before the audit (which reads everything printed).
    say("");
    const retried = cycles.retries.map((r) => `${r.stack} ${r.step}: ${r.cause}`);
    tally("engine steps run again, by cause:", countBy(retried));
    for (const f of cycles.failedSteps) say(`failed for good: ${f.stack} ${f.step}: ${f.cause}`);
    for (const m of cycles.mismatches.slice(0, 20))
      say(`mismatch: ${m.stack} cycle ${m.cycle} after ${m.step}: ${m.problems.join("; ")}`);
    tally("plugin calls that failed, by cause:", plugin.failures);
    const samples = plugin.rss.filter((s, i) => s.calls % 1000 === 0 || i === plugin.rss.length - 1);
    const rss = samples.map((s) => `${n(s.calls)}: ${s.mb.toFixed(1)}`);
    say(`plugin RSS every 1,000 calls (calls: MB): ${rss.join(", ")}`);
    say(`calls reaching the service start >= ${HTTP_GAP_MS} ms after the previous one ended`);
    for (const { what, error: e } of unhandled.slice(0, 5))
      say(`${what}: ${e instanceof Error ? `${e.name}: ${e.stack ?? e.message}` : String(e)}`.slice(0, 1500));
    // The secrets audit: every file of the sandbox and the projects, everything the engine, the plugin and this run printed.
    const secrets = [
      ...new Set([cyclesEmulator, pluginEmulator].flatMap((e) => [...e.secrets(), e.apiKey, e.adminKey])),
    ];
    const files = [sandbox.dir, projects.dynamic, projects.yaml].filter(fs.existsSync).flatMap(filesUnder);
    const texts = { ...transcript, "plugin stderr": plugin.stderr, "soak output": capturedOutput.join("") };
    const findings = findSecrets(secrets, { files, texts });
    for (const f of findings.slice(0, 20)) say(`secret found: ${f.secret} in ${f.where}`);
    const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    const chars = Object.values(texts).reduce((sum, t) => sum + t.length, 0);

    const [faults, pluginFaults] = [faultCount(cyclesEmulator), faultCount(pluginEmulator)];
    const seen = (faults.faulted + pluginFaults.faulted) / Math.max(1, faults.total + pluginFaults.total);
    const figures: Figure[] = [
      fig(
        `faults injected: cycles' emulator ${n(faults.faulted)} of ${n(faults.total)} requests, plugin's emulator ${n(pluginFaults.faulted)} of ${n(pluginFaults.total)} (the plugin's and the plain client's)`,
        `${(100 * seen).toFixed(1)}%`,
        "20-30%",
        seen >= 0.2 && seen <= 0.3,
      ),
      ...cycleFigures(cycles, cyclesMs),
      zero(
        `plaintext hits of secrets (${secrets.length} secrets of the emulators and their keys, in ${n(files.length)} files of the backend and projects, ${(bytes / 1e6).toFixed(1)} MB, and ${n(Object.keys(texts).length)} engine transcripts and outputs, ${(chars / 1e6).toFixed(1)} M characters)`,
        findings.length,
      ),
      ...faucetFigures(cyclesEmulator, cycles),
      ...pluginFigures(plugin, pluginMs),
      zero("unhandled rejections or uncaught exceptions in this process", unhandled.length),
    ];

    say(`\nSoak figures (${((performance.now() - started) / 60_000).toFixed(1)} min, seed ${args.seed}):\n`);
    const met = (f: Figure) => (f.met === undefined ? "" : f.met ? "PASS" : "**FAIL**");
    const rows = figures.map((f) => [f.figure, f.value, f.goal ?? "", met(f)]);
    say(markdownTable(["figure", "value", "goal", "met"], rows));
    return verdict(figures, (f) => f.figure.split(" (")[0]);
  } finally {
    await cyclesEmulator.close();
    await pluginEmulator.close();
    sandbox.cleanup();
    fs.rmSync(projects.root, { recursive: true, force: true });
  }
}

script("soak", "npm run soak [-- --minutes N] [--quick] [--seed N]", options, main);
