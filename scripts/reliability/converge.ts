/**
 * Section 1: converge under faults. Each run, a random sequence of listings and Network provider
 * operations, is played against an emulator injecting 30% transient faults and against a
 * fault-free one of the same seed: the final states and listings must be the same.
 */
import { createHash } from "crypto";
import { ApiError, NodeServiceClient, type Node, type NodeFilters } from "../../src/api";
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
import {
  Goal,
  Rng,
  addEmulatorSecrets,
  causeOf,
  deriveSeed,
  faultBeyondLatency,
  keep,
  pool,
  say,
  seconds,
  table,
  zeroGoal,
} from "./common";

const SECTION = "1 converge";

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

function randomName(rng: Rng): string {
  return rng.pick([
    `net-${rng.hex(6)}`,
    `Réseau ${rng.int(1, 999)}`,
    `prod ${rng.hex(3)} (eu)`,
    `n${rng.int(0, 9)}`,
  ]);
}

function randomSequence(rng: Rng, f: Fixtures): Op[] {
  const networks = [f.networkWithNodes, f.emptyNetwork, f.secondEmptyNetwork, f.consortiumNetwork];
  const network = () =>
    rng.chance(0.04) ? rng.pick(["NW-999-999-9", f.foreignNetwork]) : rng.pick(networks);
  const project = () => (rng.chance(0.05) ? f.foreignProject : rng.pick([f.project, f.otherProject]));
  const ops: Op[] = [];
  const length = rng.int(6, 10);
  for (let i = 0; i < length; i++) {
    const r = rng.next();
    if (r < 0.3) {
      ops.push({
        kind: "list",
        via: rng.chance(0.5) ? "listAllNodes" : "listNodes",
        filters: randomFilters(rng, f),
      });
    } else if (r < 0.45) {
      ops.push({
        kind: "adopt",
        network: network(),
        name: rng.chance(0.6) ? randomName(rng) : undefined,
        project: rng.chance(0.2) ? project() : undefined,
      });
    } else if (r < 0.62) {
      ops.push({ kind: "rename", network: network(), name: randomName(rng) });
    } else if (r < 0.72) {
      ops.push({ kind: "move", network: network(), project: project() });
    } else if (r < 0.87) {
      ops.push({ kind: "read", network: network() });
    } else {
      ops.push({ kind: "delete", network: network() });
    }
  }
  return ops;
}

/** One side of a run: an emulator, a listing client, the provider state (what Pulumi keeps), the errors the user saw. */
interface Side {
  emulator: RunningEmulator;
  client: NodeServiceClient;
  state: Map<string, net.NetworkOutputs>;
  declared: Map<string, net.NetworkInputs>;
  visible: Map<string, number>;
  reruns: number;
  expectedErrors: number;
}

function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
}

function outsDigest(outs: net.NetworkOutputs | Record<string, never>): string {
  const { apiUrl: _u, apiKey: _k, ...rest } = outs as net.NetworkOutputs;
  return digest(rest);
}

/** Errors a user would answer by running the step again (`pulumi up` once more). */
function isTransient(error: unknown): boolean {
  // Providers rethrow the client's errors as plain Errors named after its classes.
  const names = [
    "RateLimitedError",
    "UnavailableError",
    "TimeoutError",
    "NetworkError",
    "InvalidResponseError",
  ];
  if (error instanceof ApiError)
    return ["rate_limited", "unavailable", "timeout", "network", "invalid_response"].includes(error.kind);
  return error instanceof Error && names.includes(error.name);
}

async function perform(side: Side, op: Op): Promise<string> {
  const creds = { apiUrl: side.emulator.url, apiKey: side.emulator.apiKey };
  const adopt = async (network: string, name?: string, project?: string) => {
    const inputs: net.NetworkInputs = { networkId: network, ...creds };
    if (name !== undefined) inputs.name = name;
    if (project !== undefined) inputs.project = project;
    const created = await net.createNetwork(inputs);
    side.state.set(network, created.outs);
    side.declared.set(network, inputs);
    return created.outs;
  };
  switch (op.kind) {
    case "list": {
      let nodes: Node[];
      if (op.via === "listAllNodes") {
        nodes = await side.client.listAllNodes(op.filters, { limit: 1000 });
      } else {
        nodes = [];
        for await (const node of side.client.listNodes(op.filters)) nodes.push(node);
      }
      return `list ${nodes.length} ${digest(nodes)}`;
    }
    case "adopt":
      return `adopt ${outsDigest(await adopt(op.network, op.name, op.project))}`;
    case "rename":
    case "move": {
      if (!side.state.has(op.network)) await adopt(op.network);
      const news: net.NetworkInputs = { ...side.declared.get(op.network)! };
      if (op.kind === "rename") news.name = op.name;
      else news.project = op.project;
      const { outs } = await net.updateNetwork(op.network, side.state.get(op.network)!, news);
      side.state.set(op.network, outs);
      side.declared.set(op.network, news);
      return `${op.kind} ${outsDigest(outs)}`;
    }
    case "read": {
      if (!side.state.has(op.network)) await adopt(op.network);
      const read = await net.readNetwork(op.network, side.state.get(op.network)!);
      if (read.id === "") side.state.delete(op.network);
      else side.state.set(op.network, read.props as net.NetworkOutputs);
      return `read ${read.id === "" ? "gone" : outsDigest(read.props)}`;
    }
    case "delete": {
      if (!side.state.has(op.network)) await adopt(op.network);
      await net.deleteNetwork(op.network, side.state.get(op.network)!);
      side.state.delete(op.network);
      side.declared.delete(op.network);
      return "delete ok";
    }
  }
}

/** Plays a sequence; a transient error is shown to the user, who runs the step again (5 times at most). */
async function play(side: Side, ops: Op[], where: string): Promise<string[]> {
  const outcomes: string[] = [];
  for (const [i, op] of ops.entries()) {
    let outcome = "";
    for (let tries = 0; ; tries++) {
      try {
        outcome = await perform(side, op);
        break;
      } catch (error) {
        keep(SECTION, `${where} op ${i} ${op.kind}`, error);
        const cause = causeOf(error);
        if (isTransient(error)) side.visible.set(cause, (side.visible.get(cause) ?? 0) + 1);
        else side.expectedErrors++;
        if (isTransient(error) && tries < 5) {
          side.reruns++;
          continue;
        }
        outcome = `${op.kind} error ${cause}`;
        break;
      }
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

function finalState(emulator: RunningEmulator, ids: string[]): string[] {
  return ids.map((id) => {
    const n = emulator.admin.getNetwork(id);
    return n
      ? `${id} ${JSON.stringify(n.name)} ${n.project} nodes=${n.nodes.map((x) => x.id).join(",")}`
      : `${id} deleted`;
  });
}

function listingClient(emulator: RunningEmulator): NodeServiceClient {
  return new NodeServiceClient({
    apiUrl: emulator.url,
    apiKey: emulator.apiKey,
    maxRequestsPerSecond: 0,
    timeoutMs: 5000,
    deadlineMs: 30000,
    retry: { baseDelayMs: 5, maxDelayMs: 40 },
  });
}

/** The fault mix: 30% of requests, transient kinds only. */
function faultsFor(run: number, rng: Rng): FaultOptions {
  return {
    rate429: 0.08,
    rate5xx: 0.09,
    dropRate: 0.07,
    dropAfterProcessingRate: 0.03,
    rate5xxAfterProcessing: 0.03,
    retryAfterSeconds: run % 3 === 0 ? 1 : null,
    latencyMs: [0, rng.int(2, 15)],
  };
}

/** Runs section 1 and prints its table; returns its goals. */
export async function runConverge(options: {
  seed: number;
  runs: number;
  concurrency: number;
}): Promise<Goal[]> {
  const started = performance.now();
  // Figures in the order first met.
  const figures = new Map<string, number>();
  const add = (label: string, n = 1) => figures.set(label, (figures.get(label) ?? 0) + n);
  let runsWithMismatch = 0;
  const mismatches: string[] = [];

  await pool(
    Array.from({ length: options.runs }, (_, i) => i),
    options.concurrency,
    async (run) => {
      const runSeed = deriveSeed(options.seed, `converge/${run}`);
      const rng = new Rng(runSeed);
      const dataSeed = 1 + (runSeed % 100_000);
      const pageSize = rng.pick([3, 5, 10]);
      const faults = faultsFor(run, rng);
      const [faultedEmu, cleanEmu] = await Promise.all([
        startEmulator({ port: 0, seed: dataSeed, pageSize, faults, quiet: run !== 0 }),
        startEmulator({ port: 0, seed: dataSeed, pageSize }),
      ]);
      try {
        addEmulatorSecrets(faultedEmu);
        const fixtures = faultedEmu.fixtures;
        const sequence = randomSequence(rng, fixtures);
        for (const op of sequence) add(`operations: ${op.kind}`);
        const side = (emulator: RunningEmulator): Side => ({
          emulator,
          client: listingClient(emulator),
          state: new Map(),
          declared: new Map(),
          visible: new Map(),
          reruns: 0,
          expectedErrors: 0,
        });
        const [a, b] = [side(faultedEmu), side(cleanEmu)];
        const [withFaults, reference] = await Promise.all([
          play(a, sequence, `run ${run} faulted`),
          play(b, sequence, `run ${run} reference`),
        ]);
        const ids = [
          ...new Set([
            fixtures.networkWithNodes,
            fixtures.emptyNetwork,
            fixtures.secondEmptyNetwork,
            fixtures.consortiumNetwork,
            ...sequence.flatMap((op) => ("network" in op ? [op.network] : [])),
          ]),
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
        mismatches.push(...found.map((m) => `run ${run} (seed ${dataSeed}): ${m}`));
        add("listing results compared", sequence.filter((op) => op.kind === "list").length);
        for (const [cause, n] of a.visible) add(`errors seen by the user (retries exhausted): ${cause}`, n);
        add("steps run again by the user after such an error", a.reruns);
        add("refusals also seen in the fault-free run (expected)", b.expectedErrors);
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
      ["runs (each against a fault-free run of the same sequence)", options.runs],
      ...figures,
      ["faults injected (emulator record)", sum(/fault: /)],
      ["retries (faults less the errors the user saw)", sum(/fault: /) - sum(/^errors seen/)],
      ["runs with any mismatch (goal 0)", runsWithMismatch],
    ],
  );
  for (const m of mismatches.slice(0, 5)) say(`  mismatch: ${m}`);
  return [zeroGoal("1 converge", "runs with a final-state or listing mismatch", runsWithMismatch)];
}
