/**
 * One plugin process spoken to over gRPC as the engine does, across at least `calls` seeded Check, Diff, Read
 * and Invoke calls against a faulted emulator; calls that reach the service start {@link HTTP_GAP_MS} after
 * the previous one ended, each timed against a plain HTTP client; local calls fill the time between.
 */
import * as http from "http";
import { setTimeout as sleep } from "timers/promises";
import { NETWORK_WITH_NODES_NODE_IDS, type LoggedRequest, type RunningEmulator } from "../../src/emulator";
import { NETWORK_URN as URN, PluginClient, type Props } from "../../test/helpers/plugin-client";
import { residentMb } from "../engine-sandbox";
import { rngFor } from "../reliability/common";
import { foldIds } from "./cycles";

export const HTTP_GAP_MS = 105;
export const WARMUP_CALLS = 1_000;
// prettier-ignore
const HTTP_KINDS = ["Check (adopt)", "Read", "Read", "Invoke getNode", "Invoke getNodes", "Invoke getNodeConnections"] as const;

/** One call that reached the service. */
export interface TimedCall {
  at: number;
  ms: number;
  faulted: boolean;
  /** The plain client's time for the same successful requests; undefined when none succeeded. */
  plainMs?: number;
  /** From the arrival of the call's first request to the call's end: without the limiter's waits before it. */
  servedMs: number;
}

const emptyResult = () => ({
  calls: 0,
  byKind: {} as Record<string, number>,
  timed: [] as TimedCall[],
  /** Local calls' times (Check of an adopted network, Diff). */
  localMs: [] as number[],
  failures: new Map<string, number>(),
  requests: 0,
  faultedRequests: 0,
  /** RSS samples in MB: every 100 calls after the warm-up, the last at the end. */
  rss: [] as Array<{ calls: number; mb: number }>,
  stderr: "",
});
export type PluginSoakResult = ReturnType<typeof emptyResult>;

/** The cause of a failed call: the first line of the gRPC error's details, ids and numbers folded. */
function causeOf(error: unknown): string {
  const e = error as { details?: string; message?: string };
  return foldIds((e.details ?? e.message ?? String(error)).split("\n")[0])
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, "N $2")
    .slice(0, 120);
}

/** A request made again by a plain client (a new connection each, the same key); resolves its status. */
const plain = (url: string, key: string, r: LoggedRequest): Promise<number> =>
  new Promise((resolve) => {
    const query = new URLSearchParams(r.query).toString();
    const body = r.method === "PATCH" || r.method === "POST" ? "{}" : undefined;
    const headers = body ? { "Content-Type": "application/json", "Content-Length": body.length } : {};
    const req = http.request(
      `${url}${r.path}${query ? `?${query}` : ""}`,
      { method: r.method, agent: false, headers: { Authorization: `Bearer ${key}`, ...headers } },
      (res) => res.on("data", () => undefined).on("end", () => resolve(res.statusCode ?? 0)),
    );
    req.on("error", () => resolve(0));
    req.end(body);
  });

export async function runPluginSoak(options: {
  seed: number;
  emulator: RunningEmulator;
  calls: number;
  /** `performance.now()` by which the calls should be done (they are paced to it). */
  deadline: number;
  /** True while the engine cycles still run: the calls go on (reaching the service only) meanwhile. */
  running: () => boolean;
  log: (line: string) => void;
}): Promise<PluginSoakResult> {
  const { emulator } = options;
  const rng = rngFor(options.seed, "plugin");
  const { networkWithNodes, emptyNetwork, secondEmptyNetwork } = emulator.fixtures;
  const networks = [networkWithNodes, emptyNetwork, secondEmptyNetwork];
  const result = emptyResult();
  const since = async (before: number): Promise<LoggedRequest[]> => {
    await new Promise((r) => setImmediate(r));
    const count = emulator.requestStats().total - before;
    return count > 0 ? emulator.requests().slice(-count) : [];
  };
  /** The emulator's own time for a request: made again until it meets no fault; the clean answer timed. */
  const replay = async (r: LoggedRequest): Promise<number | undefined> => {
    for (let i = 0; i < 10; i++) {
      const [before, t] = [emulator.requestStats().total, performance.now()];
      const status = await plain(emulator.url, emulator.apiKey, r);
      const elapsed = performance.now() - t;
      const made = await since(before);
      if (status >= 200 && status < 300 && made.length === 1 && !made[0].fault) return elapsed;
    }
    return undefined;
  };

  const plugin = await PluginClient.start({});
  const pid = plugin["child"].pid!;
  try {
    await plugin.configure({ apiUrl: emulator.url, apiKey: emulator.apiKey });
    // The state of the adopted network, for Diff and Read (retried: faults apply from the start).
    let state: Props | undefined;
    for (let i = 0; !state && i < 20; i++) {
      const id = networkWithNodes;
      state = await plugin.read(URN, id, { networkId: id, managedInputs: [] }, { networkId: id }).then(
        (r) => r.properties,
        () => undefined,
      );
    }
    if (!state) throw new Error(`the plugin could not read ${networkWithNodes} in 20 attempts`);
    const states = new Map<string, Props>([[networkWithNodes, state]]);
    const names = ["soak-plugin", "soak-plugin-renamed", String(state.name)];
    const count = (kind: string) => {
      result.calls++;
      result.byKind[kind] = (result.byKind[kind] ?? 0) + 1;
      if (result.calls >= WARMUP_CALLS && result.calls % 100 === 0)
        result.rss.push({ calls: result.calls, mb: residentMb(pid)! });
      if (result.calls % 2000 === 0) {
        const failed = [...result.failures.values()].reduce((a, b) => a + b, 0);
        options.log(`plugin: ${result.calls} calls, RSS ${residentMb(pid)!.toFixed(1)} MB, ${failed} failed`);
      }
      plugin.transcript.length = 0; // the client's record of answers is for audits of short runs
    };
    const fail = (error: unknown) => {
      const cause = causeOf(error);
      result.failures.set(cause, (result.failures.get(cause) ?? 0) + 1);
    };

    const localCall = async () => {
      const kind = rng.chance(0.5) ? "Check" : "Diff";
      const news = { networkId: networkWithNodes, name: rng.pick(names) };
      const t = performance.now();
      await (
        kind === "Check"
          ? plugin.check(URN, { networkId: networkWithNodes }, news)
          : plugin.diff(URN, networkWithNodes, state!, news)
      ).then(() => result.localMs.push(performance.now() - t), fail);
      count(kind);
    };

    const httpCall = async () => {
      const kind = rng.pick(HTTP_KINDS);
      const network = rng.pick(networks);
      const [before, t] = [emulator.requestStats().total, performance.now()];
      const list = { network, orderBy: "name" };
      const ok = await (async () => {
        if (kind === "Check (adopt)")
          await plugin.check(URN, {}, { networkId: network, name: rng.pick(names) });
        else if (kind === "Invoke getNode")
          await plugin.invoke("blockchain:index:getNode", { id: rng.pick(NETWORK_WITH_NODES_NODE_IDS) });
        else if (kind === "Invoke getNodes") await plugin.invoke("blockchain:index:getNodes", list);
        else if (kind === "Invoke getNodeConnections")
          await plugin.invoke("blockchain:index:getNodeConnections", list);
        else {
          const prior = states.get(network) ?? { networkId: network, managedInputs: [] };
          const read = await plugin.read(URN, network, prior, { networkId: network });
          if (read.id !== network)
            throw new Error(`read of ${network} answered id ${JSON.stringify(read.id)}`);
          states.set(network, read.properties);
        }
      })().then(
        () => true,
        (error: unknown) => (fail(error), false),
      );
      const end = performance.now();
      const made = await since(before);
      const faulted = made.filter((r) => r.fault).length;
      result.requests += made.length;
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
        at: result.calls,
        ms: end - t,
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
      } else if (due) await localCall();
      else await sleep(Math.max(1, Math.min(5, lastHttpEnd + HTTP_GAP_MS - t)));
    }
    result.rss.push({ calls: result.calls, mb: residentMb(pid)! });
  } finally {
    result.stderr = plugin.stderr();
    await plugin.stop();
  }
  return result;
}
