/**
 * One plugin process spoken to over gRPC as the engine does, across at least `calls` calls: a
 * seeded mix of Check, Diff, Read and Invokes against a faulted emulator of its own. Calls that
 * reach the service start {@link HTTP_GAP_MS} after the previous one and are timed, whole and from
 * the arrival of their first request (after any wait of the limiter, which slows the process
 * after the faults' 429s), against a plain HTTP client replaying the same requests until one
 * meets no fault; local calls fill the time between. RSS (VmRSS) is sampled every
 * {@link RSS_EVERY} calls after the warm-up.
 */
import * as fs from "fs";
import * as http from "http";
import { NETWORK_WITH_NODES_NODE_IDS } from "../../src/emulator";
import type { LoggedRequest, RunningEmulator } from "../../src/emulator";
import { PluginClient } from "../../test/helpers/plugin-client";
import type { Props } from "../../test/helpers/plugin-client";
import { Rng, deriveSeed } from "../reliability/common";
import { setTimeout as sleep } from "timers/promises";

export const HTTP_GAP_MS = 105;
export const WARMUP_CALLS = 1_000;
export const RSS_EVERY = 100;
const URN = "urn:pulumi:soak::soak::blockchain:index:Network::main";

type LocalKind = "Check" | "Diff";
type HttpKind = "Check (adopt)" | "Read" | "Invoke getNode" | "Invoke getNodes" | "Invoke getNodeConnections";
export type CallKind = LocalKind | HttpKind;
const HTTP_KINDS: readonly HttpKind[] = [
  "Check (adopt)",
  "Read",
  "Read",
  "Invoke getNode",
  "Invoke getNodes",
  "Invoke getNodeConnections",
];

/** One call that reached the service, with the emulator's own time for the same requests. */
export interface TimedCall {
  kind: HttpKind;
  at: number;
  ms: number;
  requests: number;
  faulted: boolean;
  /** The plain client's time for the same successful requests; undefined when none succeeded. */
  plainMs?: number;
  /** From the arrival of the call's first request to the call's end: without the limiter's waits before it. */
  servedMs: number;
}

export interface PluginSoakResult {
  calls: number;
  byKind: Record<string, number>;
  timed: TimedCall[];
  /** Local calls' times (Check of an adopted network, Diff). */
  localMs: number[];
  failures: Map<string, number>;
  requests: number;
  faultedRequests: number;
  /** RSS samples in kB, every {@link RSS_EVERY} calls: the first after the warm-up, the last at the end. */
  rss: Array<{ calls: number; kb: number }>;
  stderr: string;
  durationMs: number;
}

export interface PluginSoakOptions {
  seed: number;
  emulator: RunningEmulator;
  calls: number;
  /** `performance.now()` by which the calls should be done (they are paced to it). */
  deadline: number;
  /** True while the engine cycles still run: the calls go on (reaching the service only) meanwhile. */
  running: () => boolean;
  log: (line: string) => void;
}

/** The VmRSS of a process, in kB. */
export function rssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]);
}

function pluginPid(): number {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== process.pid) continue;
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (argv.some((a) => a.endsWith("pulumi-resource-blockchain"))) found.push(Number(name));
    } catch {
      // the process ended while it was read
    }
  }
  if (found.length !== 1) throw new Error(`expected one plugin process started here, found ${found.length}`);
  return found[0];
}

/** The cause of a failed call: the first line of the gRPC error's details, ids and numbers folded. */
function causeOf(error: unknown): string {
  const e = error as { details?: string; message?: string };
  const text = (e.details ?? e.message ?? String(error)).split("\n")[0];
  return text
    .replace(/\b(NW|ND|PR|RG)-[\d-]+/g, "$1-…")
    .replace(/https?:\/\/127\.0\.0\.1:\d+/g, "<emulator>")
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, "N $2")
    .slice(0, 120);
}

export async function runPluginSoak(options: PluginSoakOptions): Promise<PluginSoakResult> {
  const { emulator } = options;
  const rng = new Rng(deriveSeed(options.seed, "plugin"));
  const started = performance.now();
  const networks = [
    emulator.fixtures.networkWithNodes,
    emulator.fixtures.emptyNetwork,
    emulator.fixtures.secondEmptyNetwork,
  ];
  const nodes = [...NETWORK_WITH_NODES_NODE_IDS];
  const result: PluginSoakResult = {
    calls: 0,
    byKind: {},
    timed: [],
    localMs: [],
    failures: new Map(),
    requests: 0,
    faultedRequests: 0,
    rss: [],
    stderr: "",
    durationMs: 0,
  };

  // The plain client: a new connection per request, the same key.
  const plain = (r: LoggedRequest): Promise<number> =>
    new Promise((resolve) => {
      const query = new URLSearchParams(r.query).toString();
      const body = r.method === "PATCH" || r.method === "POST" ? "{}" : undefined;
      const req = http.request(
        `${emulator.url}${r.path}${query ? `?${query}` : ""}`,
        {
          method: r.method,
          agent: false,
          headers: {
            Authorization: `Bearer ${emulator.apiKey}`,
            ...(body
              ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }
              : {}),
          },
        },
        (res) => {
          res.on("data", () => undefined);
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", () => resolve(0));
        },
      );
      req.on("error", () => resolve(0));
      req.end(body);
    });
  /** The requests recorded since the total was `before`. */
  const since = async (before: number): Promise<LoggedRequest[]> => {
    await new Promise((r) => setImmediate(r));
    const count = emulator.requestStats().total - before;
    return count > 0 ? emulator.requests().slice(-count) : [];
  };
  /** The emulator's own time for a request: made again until it meets no fault; the clean answer timed. */
  const replay = async (r: LoggedRequest): Promise<number | undefined> => {
    for (let i = 0; i < 10; i++) {
      const before = emulator.requestStats().total;
      const t = performance.now();
      const status = await plain(r);
      const elapsed = performance.now() - t;
      const made = await since(before);
      if (status >= 200 && status < 300 && made.length === 1 && !made[0].fault) return elapsed;
    }
    return undefined;
  };

  const plugin = await PluginClient.start({});
  const pid = pluginPid();
  try {
    await plugin.configure({ apiUrl: emulator.url, apiKey: emulator.apiKey });
    // The state of the adopted network, for Diff and Read (retried: faults apply from the start).
    let state: Props | undefined;
    for (let i = 0; !state && i < 20; i++) {
      state = await plugin
        .read(URN, networks[0], { networkId: networks[0], managedInputs: [] }, { networkId: networks[0] })
        .then((r) => r.properties)
        .catch(() => undefined);
    }
    if (!state) throw new Error(`the plugin could not read ${networks[0]} in 20 attempts`);
    const states = new Map<string, Props>([[networks[0], state]]);
    const names = ["soak-plugin", "soak-plugin-renamed", String(state.name)];

    const count = (kind: CallKind) => {
      result.calls++;
      result.byKind[kind] = (result.byKind[kind] ?? 0) + 1;
      if (result.calls >= WARMUP_CALLS && result.calls % RSS_EVERY === 0) {
        result.rss.push({ calls: result.calls, kb: rssKb(pid) });
      }
      if (result.calls % 2000 === 0) {
        const last = result.rss[result.rss.length - 1];
        options.log(
          `plugin: ${result.calls} calls, RSS ${(last.kb / 1024).toFixed(1)} MB, ${[...result.failures.values()].reduce((a, b) => a + b, 0)} failed`,
        );
      }
      // The client's record of answers is for audits of short runs; not kept here.
      plugin.transcript.length = 0;
    };
    const fail = (error: unknown) => {
      const cause = causeOf(error);
      result.failures.set(cause, (result.failures.get(cause) ?? 0) + 1);
    };

    const localCall = async () => {
      const kind: LocalKind = rng.chance(0.5) ? "Check" : "Diff";
      const news = { networkId: networks[0], name: rng.pick(names) };
      const t = performance.now();
      try {
        if (kind === "Check") await plugin.check(URN, { networkId: networks[0] }, news);
        else await plugin.diff(URN, networks[0], state!, news);
        result.localMs.push(performance.now() - t);
      } catch (error) {
        fail(error);
      }
      count(kind);
    };

    const httpCall = async () => {
      const kind = rng.pick(HTTP_KINDS);
      const network = rng.pick(networks);
      const before = emulator.requestStats().total;
      const t = performance.now();
      let ok = true;
      try {
        switch (kind) {
          case "Check (adopt)":
            await plugin.check(URN, {}, { networkId: network, name: rng.pick(names) });
            break;
          case "Read": {
            const prior = states.get(network) ?? { networkId: network, managedInputs: [] };
            const read = await plugin.read(URN, network, prior, { networkId: network });
            if (read.id !== network)
              throw new Error(`read of ${network} answered id ${JSON.stringify(read.id)}`);
            states.set(network, read.properties);
            break;
          }
          case "Invoke getNode":
            await plugin.invoke("blockchain:index:getNode", { id: rng.pick(nodes) });
            break;
          case "Invoke getNodes":
            await plugin.invoke("blockchain:index:getNodes", { network, orderBy: "name" });
            break;
          case "Invoke getNodeConnections":
            await plugin.invoke("blockchain:index:getNodeConnections", { network, orderBy: "name" });
            break;
        }
      } catch (error) {
        ok = false;
        fail(error);
      }
      const end = performance.now();
      const elapsed = end - t;
      const made = await since(before);
      result.requests += made.length;
      const faulted = made.filter((r) => r.fault).length;
      result.faultedRequests += faulted;
      count(kind);
      if (!ok || made.length === 0) return;
      const clean = made.filter((r) => !r.fault && r.status >= 200 && r.status < 300);
      let plainMs: number | undefined = 0;
      for (const r of clean) {
        const one = await replay(r);
        plainMs = one === undefined || plainMs === undefined ? undefined : plainMs + one;
      }
      result.timed.push({
        kind,
        at: result.calls,
        ms: elapsed,
        requests: made.length,
        faulted: faulted > 0,
        plainMs: clean.length > 0 ? plainMs : undefined,
        servedMs: performance.timeOrigin + end - made[0].at,
      });
    };

    const startT = performance.now();
    const span = Math.max(1, options.deadline - startT);
    let lastHttpEnd = -Infinity;
    while (result.calls < options.calls || options.running()) {
      const t = performance.now();
      const due =
        result.calls < options.calls &&
        (t >= options.deadline || result.calls < (options.calls * (t - startT)) / span);
      if (t - lastHttpEnd >= HTTP_GAP_MS) {
        await httpCall();
        lastHttpEnd = performance.now();
      } else if (due) {
        await localCall();
      } else {
        await sleep(Math.max(1, Math.min(5, lastHttpEnd + HTTP_GAP_MS - t)));
      }
    }
    result.rss.push({ calls: result.calls, kb: rssKb(pid) });
  } finally {
    result.stderr = plugin.stderr();
    await plugin.stop();
    result.durationMs = performance.now() - started;
  }
  return result;
}
