/**
 * Section 1: converge under faults. Each run, a random sequence of listings and Network provider
 * operations, is played against an emulator injecting 30% transient faults and against a
 * fault-free one of the same seed: the final states and listings must be the same.
 */
import { createHash } from "crypto";
import { NodeServiceClient, type Node, type NodeFilters } from "../../src/api";
import { startEmulator, type FaultOptions, type RunningEmulator } from "../../src/emulator";
import {
  NODE_STATUSES,
  NODE_TYPES,
  ORDER_BY_VALUES,
  PROTOCOLS,
  PROVIDER_REGION_PAIRS,
  PUBLIC_NETWORK_NAMES,
  PUBLIC_NETWORKS,
  REGIONS,
  validateNodeFilters,
} from "../../src/model";
import * as net from "../../src/provider/network";
import { createRng, type Rng } from "../../src/emulator/data/random";
import { pool, seconds, table, zero, type Figure } from "../harness";
import { addEmulatorSecrets, causeOf, deriveSeed, faultBeyondLatency, keep } from "./common";
import { sayProblems } from "./common";

const [SECTION, RUNS, CONCURRENCY] = ["1 converge", 200, 20];

type Op =
  | { kind: "list"; via: "listAllNodes" | "listNodes"; filters: NodeFilters }
  | { kind: "adopt"; network: string; name?: string; project?: string }
  | { kind: "rename"; network: string; name: string }
  | { kind: "move"; network: string; project: string }
  | { kind: "read"; network: string }
  | { kind: "delete"; network: string };

type Fixtures = RunningEmulator["fixtures"];

function randomFilters(rng: Rng, f: Fixtures): NodeFilters {
  for (;;) {
    const filters: Record<string, unknown> = {};
    if (rng.chance(0.35)) filters.protocol = rng.pick(PROTOCOLS);
    if (rng.chance(0.15)) {
      filters.publicNetwork =
        typeof filters.protocol === "string"
          ? rng.pick(PUBLIC_NETWORK_NAMES.filter((n) => PUBLIC_NETWORKS[n] === filters.protocol))
          : rng.pick(PUBLIC_NETWORK_NAMES);
    }
    if (rng.chance(0.3)) {
      const pair = rng.pick(PROVIDER_REGION_PAIRS);
      filters.provider = pair.provider;
      if (rng.chance(0.5)) filters.region = pair.region;
    } else if (rng.chance(0.15)) {
      filters.region = rng.pick(REGIONS);
    }
    if (rng.chance(0.3)) filters.status = rng.pick(NODE_STATUSES);
    if (rng.chance(0.2)) filters.type = rng.pick(NODE_TYPES);
    if (rng.chance(0.2)) filters.archive = rng.chance(0.5);
    if (rng.chance(0.25))
      filters.network = rng.pick([f.networkWithNodes, f.consortiumNetwork, f.emptyNetwork]);
    if (rng.chance(0.25)) filters.project = rng.pick([f.project, f.otherProject]);
    if (rng.chance(0.1)) filters.organization = f.organization;
    if (rng.chance(0.1)) filters.role = "peer";
    if (rng.chance(0.1)) filters.projectType = "public";
    if (rng.chance(0.05)) filters.name = "Ethereum Mainnet archive node";
    if (rng.chance(0.5)) filters.orderBy = rng.pick(ORDER_BY_VALUES);
    if (validateNodeFilters(filters).length === 0) return filters as NodeFilters;
  }
}

const randomName = (rng: Rng): string =>
  rng.pick([
    `net-${rng.hex(6)}`,
    `Réseau ${rng.int(1, 999)}`,
    `prod ${rng.hex(3)} (eu)`,
    `n${rng.int(0, 9)}`,
  ]);

function randomSequence(rng: Rng, f: Fixtures): Op[] {
  const networks = [f.networkWithNodes, f.emptyNetwork, f.secondEmptyNetwork, f.consortiumNetwork];
  const network = () =>
    rng.chance(0.04) ? rng.pick(["NW-999-999-9", f.foreignNetwork]) : rng.pick(networks);
  const project = () => (rng.chance(0.05) ? f.foreignProject : rng.pick([f.project, f.otherProject]));
  return Array.from({ length: rng.int(6, 10) }, (): Op => {
    const r = rng.next();
    if (r < 0.3)
      return {
        kind: "list",
        via: rng.chance(0.5) ? "listAllNodes" : "listNodes",
        filters: randomFilters(rng, f),
      };
    if (r < 0.45) {
      const [network_, name] = [network(), rng.chance(0.6) ? randomName(rng) : undefined];
      return { kind: "adopt", network: network_, name, project: rng.chance(0.2) ? project() : undefined };
    }
    if (r < 0.62) return { kind: "rename", network: network(), name: randomName(rng) };
    if (r < 0.72) return { kind: "move", network: network(), project: project() };
    return { kind: r < 0.87 ? "read" : "delete", network: network() };
  });
}

/** One side of a run: an emulator, a listing client, the provider state (what Pulumi keeps). */
const sideOf = (emulator: RunningEmulator) => ({
  emulator,
  client: new NodeServiceClient({
    ...{ apiUrl: emulator.url, apiKey: emulator.apiKey, timeoutMs: 5000, deadlineMs: 30000 },
    retry: { baseDelayMs: 5, maxDelayMs: 40 },
  }),
  state: new Map<string, net.NetworkOutputs>(),
  declared: new Map<string, net.NetworkInputs>(),
});
type Side = ReturnType<typeof sideOf>;

/** A digest of what a step decided, `emulator`'s host left out (its nodes answer at its own origin). */
function digest(value: unknown, emulator: RunningEmulator): string {
  const text = JSON.stringify(value).split(new URL(emulator.url).host).join("<emulator>");
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

function outsDigest(outs: net.NetworkOutputs, emulator: RunningEmulator): string {
  const { apiUrl: _u, apiKey: _k, ...rest } = outs;
  return digest(rest, emulator);
}

/** Errors a user answers by running the step again: the client's transient kinds, and a write of unknown outcome. */
const RUN_AGAIN = /^(RateLimited|Unavailable|Timeout|Network|InvalidResponse|OutcomeUnknown)Error$/;

/** Performs one step on one side; its outcome, as a line to compare. */
async function perform(side: Side, op: Op): Promise<string> {
  const adopt = async (network: string, name?: string, project?: string) => {
    const inputs: net.NetworkInputs = {
      networkId: network,
      apiUrl: side.emulator.url,
      apiKey: side.emulator.apiKey,
    };
    if (name !== undefined) inputs.name = name;
    if (project !== undefined) inputs.project = project;
    const { outs } = await net.createNetwork(inputs);
    side.state.set(network, outs);
    side.declared.set(network, inputs);
    return outs;
  };
  if (op.kind !== "list" && op.kind !== "adopt" && !side.state.has(op.network)) await adopt(op.network);
  switch (op.kind) {
    case "list": {
      const nodes: Node[] = [];
      if (op.via === "listAllNodes")
        nodes.push(...(await side.client.listAllNodes(op.filters, { limit: 1000 })));
      else for await (const node of side.client.listNodes(op.filters)) nodes.push(node);
      return `list ${nodes.length} ${digest(nodes, side.emulator)}`;
    }
    case "adopt":
      return `adopt ${outsDigest(await adopt(op.network, op.name, op.project), side.emulator)}`;
    case "rename":
    case "move": {
      const news: net.NetworkInputs = { ...side.declared.get(op.network)! };
      if (op.kind === "rename") news.name = op.name;
      else news.project = op.project;
      const { outs } = await net.updateNetwork(op.network, side.state.get(op.network)!, news);
      side.state.set(op.network, outs);
      side.declared.set(op.network, news);
      return `${op.kind} ${outsDigest(outs, side.emulator)}`;
    }
    case "read": {
      const read = await net.readNetwork(op.network, side.state.get(op.network)!);
      if (read.id === "") side.state.delete(op.network);
      else side.state.set(op.network, read.props as net.NetworkOutputs);
      return `read ${read.id === "" ? "gone" : outsDigest(read.props, side.emulator)}`;
    }
    case "delete": {
      // The program opts in to deleting the adopted network: without it, destroy sends nothing.
      await net.deleteNetwork(op.network, { ...side.state.get(op.network)!, forceDestroy: true });
      side.state.delete(op.network);
      side.declared.delete(op.network);
      return "delete ok";
    }
  }
}

/** Plays a sequence: a step whose error {@link RUN_AGAIN} names runs again (5 times at most); each error goes to `saw`. */
async function play(side: Side, ops: Op[], where: string, saw: (cause: string, again: boolean) => void) {
  const outcomes: string[] = [];
  for (const [i, op] of ops.entries()) {
    for (let tries = 0; ; tries++) {
      try {
        outcomes.push(await perform(side, op));
        break;
      } catch (error) {
        keep(SECTION, `${where} op ${i} ${op.kind}`, error);
        const again = error instanceof Error && RUN_AGAIN.test(error.name);
        saw(causeOf(error), again);
        if (again && tries < 5) continue;
        outcomes.push(`${op.kind} error ${causeOf(error)}`);
        break;
      }
    }
  }
  return outcomes;
}

/** What the service holds of each network at the end: name, project, nodes. */
function finalState(emulator: RunningEmulator, ids: string[]): string[] {
  return ids.map((id) => {
    const n = emulator.admin.getNetwork(id);
    return n
      ? `${id} ${JSON.stringify(n.name)} ${n.project} nodes=${n.nodes.map((x) => x.id)}`
      : `${id} deleted`;
  });
}

/** The table's order of figures, by the start of their labels (each group in the order first met). */
const ORDER = ["operations", "listing", "refusals", "transient", "requests", "  ", "errors", "steps"];

export async function runConverge(seed: number): Promise<Figure[]> {
  const started = performance.now();
  const figures = new Map<string, number>();
  const add = (label: string, n = 1) => figures.set(label, (figures.get(label) ?? 0) + n);
  let runsWithMismatch = 0;
  const mismatches: string[] = [];

  await pool(
    Array.from({ length: RUNS }, (_, i) => i),
    CONCURRENCY,
    async (run) => {
      const runSeed = deriveSeed(seed, `converge/${run}`);
      const rng = createRng(runSeed);
      const dataSeed = 1 + (runSeed % 100_000);
      const pageSize = rng.pick([3, 5, 10]);
      // 30% of requests fault, transient kinds only.
      const faults: FaultOptions = {
        ...{ rate429: 0.08, rate5xx: 0.09, dropRate: 0.07, dropAfterProcessingRate: 0.03 },
        ...{ rate5xxAfterProcessing: 0.03, retryAfterSeconds: run % 3 === 0 ? 1 : null },
        latencyMs: [0, rng.int(2, 15)],
      };
      const [faultedEmu, cleanEmu] = await Promise.all([
        startEmulator({ port: 0, seed: dataSeed, pageSize, faults, quiet: run !== 0 }),
        startEmulator({ port: 0, seed: dataSeed, pageSize }),
      ]);
      try {
        addEmulatorSecrets(faultedEmu);
        const fixtures = faultedEmu.fixtures;
        const sequence = randomSequence(rng, fixtures);
        for (const op of sequence) add(`operations: ${op.kind}`);
        const [withFaults, reference] = await Promise.all([
          play(sideOf(faultedEmu), sequence, `run ${run} faulted`, (cause, again) => {
            if (!again) return;
            add(`errors seen by the user (retries exhausted): ${cause}`);
            add("steps run again by the user after such an error");
          }),
          play(sideOf(cleanEmu), sequence, `run ${run} reference`, (_, again) =>
            add(
              again
                ? "transient errors in the fault-free run"
                : "refusals also seen in the fault-free run (expected)",
            ),
          ),
        ]);
        const { networkWithNodes, emptyNetwork, secondEmptyNetwork, consortiumNetwork } = fixtures;
        const named = sequence.flatMap((op) => ("network" in op ? [op.network] : []));
        const ids = [
          ...new Set([networkWithNodes, emptyNetwork, secondEmptyNetwork, consortiumNetwork, ...named]),
        ];
        const [stateA, stateB] = [finalState(faultedEmu, ids), finalState(cleanEmu, ids)];
        const found = [
          ...ids.filter((_, i) => stateA[i] !== stateB[i]).map((id) => `state of ${id} differs`),
          ...sequence.flatMap((op, i) =>
            withFaults[i] === reference[i]
              ? []
              : [`op ${i} ${op.kind}: faulted "${withFaults[i]}" vs fault-free "${reference[i]}"`],
          ),
        ];
        if (found.length > 0) runsWithMismatch++;
        mismatches.push(...found.map((m) => `mismatch: run ${run} (seed ${dataSeed}): ${m}`));
        add("listing results compared", sequence.filter((op) => op.kind === "list").length);
        for (const r of faultedEmu.requests()) {
          add("requests served by the faulted emulators");
          const label = faultBeyondLatency(r.fault);
          if (label === "429")
            add(`  fault: 429 ${faults.retryAfterSeconds === 1 ? "with" : "without"} Retry-After`);
          else if (label !== "") add(`  fault: ${label}`);
          else if (r.fault !== undefined) add("  latency only (0-15 ms)");
        }
      } finally {
        await Promise.all([faultedEmu.close(), cleanEmu.close()]);
      }
    },
  );

  const sum = (label: RegExp) => [...figures].reduce((n, [k, v]) => n + (label.test(k) ? v : 0), 0);
  table(
    `1. Converge under faults (${seconds(performance.now() - started)})`,
    ["figure", "value"],
    [
      ["runs (each against a fault-free run of the same sequence)", RUNS],
      ...[...figures].sort(
        ([a], [b]) => ORDER.findIndex((p) => a.startsWith(p)) - ORDER.findIndex((p) => b.startsWith(p)),
      ),
      ["faults injected (emulator record)", sum(/fault: /)],
      ["retries (faults less the errors the user saw)", sum(/fault: /) - sum(/^errors seen/)],
      ["runs with any mismatch (goal 0)", runsWithMismatch],
    ],
  );
  sayProblems(mismatches, 5);
  return [zero("runs with a final-state or listing mismatch", runsWithMismatch)];
}
