/**
 * The soak's engine cycles, each program in its own stack of one sandboxed backend, until the
 * time is up: up (a new name and faucet address), refresh, a rename out of band undone by
 * `up --refresh`, destroy (the network retained), up again. A failed step runs again, up to
 * {@link MAX_ATTEMPTS} times; after every step the state is compared with the emulator.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import type { Stack } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../src/emulator";
import { Rng, deriveSeed } from "../reliability/common";
import { transcripts } from "./common";
import { PROJECTS, TYPES } from "./programs";
import type { EngineSandbox } from "../engine-sandbox";

export const MAX_ATTEMPTS = 5;

type Label = keyof typeof TYPES;

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

/** What the cycles did and found. */
export interface CyclesResult {
  cycles: Record<Label, number>;
  steps: number;
  retries: Array<{ stack: Label; step: string; cause: string }>;
  failedSteps: Array<{ stack: Label; step: string; cause: string }>;
  /** State checks made, and the problems of those that failed. */
  checks: number;
  mismatches: Array<{ stack: Label; cycle: number; step: string; problems: string[] }>;
  /** Every drip seen in state (one creation each), by `<stack>|<id>`. */
  drips: Map<string, { stack: Label; id: string; address: string; outcome: string }>;
  durationMs: number;
}

export interface CyclesOptions {
  seed: number;
  sandbox: EngineSandbox;
  emulator: RunningEmulator;
  networks: Record<Label, string>;
  projects: Record<Label, string>;
  /** `performance.now()` after which no new cycle starts (the first always runs). */
  deadline: number;
  log: (line: string) => void;
}

/** The cause of a failed step, from what the engine printed: its first `error:` line, ids and numbers folded. */
export function causeOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^error: /.test(l) && !/^error: (update|preview|refresh|destroy) failed/.test(l));
  const line = (lines[0] ?? text.split("\n").find((l) => l.trim() !== "") ?? "").replace(/^error: /, "");
  return line
    .replace(/0x[0-9a-fA-F]{40}/g, "0x…")
    .replace(/\b(NW|ND|PR|RG)-[\d-]+/g, "$1-…")
    .replace(/https?:\/\/127\.0\.0\.1:\d+/g, "<emulator>")
    .slice(0, 140);
}

/** Runs the cycles of both stacks until `deadline`. */
export async function runCycles(options: CyclesOptions): Promise<CyclesResult> {
  const started = performance.now();
  const { emulator, sandbox } = options;
  const result: CyclesResult = {
    cycles: { dynamic: 0, yaml: 0 },
    steps: 0,
    retries: [],
    failedSteps: [],
    checks: 0,
    mismatches: [],
    drips: new Map(),
    durationMs: 0,
  };
  const workspace = { pulumiCommand: sandbox.command, envVars: sandbox.envVars };
  const stack = (label: Label) =>
    LocalWorkspace.createOrSelectStack({ stackName: "soak", workDir: options.projects[label] }, workspace);
  const stacks: Record<Label, Stack> = { dynamic: await stack("dynamic"), yaml: await stack("yaml") };

  const runStack = async (label: Label) => {
    const stack = stacks[label];
    const project = PROJECTS[label];
    const networkId = options.networks[label];
    const types = TYPES[label];
    const rng = new Rng(deriveSeed(options.seed, `cycles/${label}`));
    const cycleTimes: number[] = [];

    const setConfig = async (name: string, faucetAddress: string) => {
      await stack.setAllConfig({
        "blockchain:apiUrl": { value: emulator.url },
        "blockchain:apiKey": { value: emulator.apiKey, secret: true },
        [`${project}:networkId`]: { value: networkId },
        [`${project}:networkName`]: { value: name },
        [`${project}:faucetAddress`]: { value: faucetAddress },
      });
    };

    /** Runs a step, again after a failure, up to MAX_ATTEMPTS times; false when every attempt failed. */
    type Opts = { color: "never"; onOutput: (s: string) => void; onError: (s: string) => void };
    const step = async (
      cycle: number,
      name: string,
      run: (opts: Opts) => Promise<unknown>,
    ): Promise<boolean> => {
      result.steps++;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const key = `${label} cycle ${cycle} ${name} #${attempt}`;
        transcripts[key] = "";
        const record = (s: string) => (transcripts[key] += s);
        try {
          await run({ color: "never", onOutput: record, onError: record });
          return true;
        } catch (error) {
          transcripts[key] += `\n${error instanceof Error ? error.message : String(error)}`;
          const cause = causeOf(error);
          if (attempt < MAX_ATTEMPTS) {
            result.retries.push({ stack: label, step: name, cause });
            options.log(`${label} cycle ${cycle}: ${name} failed (${cause}); running it again`);
          } else {
            result.failedSteps.push({ stack: label, step: name, cause });
            options.log(`${label} cycle ${cycle}: ${name} failed ${MAX_ATTEMPTS} times (${cause})`);
          }
        }
      }
      return false;
    };

    /** Compares the stack's state with the emulator; records drips. */
    const check = async (
      cycle: number,
      name: string,
      expected: { present: boolean; name: string; address: string },
    ) => {
      result.checks++;
      const problems: string[] = [];
      let resources: StateResource[] = [];
      let pending = 0;
      try {
        const exported = await stack.exportStack();
        resources = (exported.deployment?.resources ?? []) as StateResource[];
        pending = (exported.deployment?.pending_operations ?? []).length;
      } catch (error) {
        problems.push(`stack export failed: ${causeOf(error)}`);
      }
      for (const d of resources.filter((r) => r.type === types.drip)) {
        const key = `${label}|${d.id}`;
        const [address, outcome] = [
          String(d.outputs?.address ?? "").toLowerCase(),
          String(d.outputs?.outcome ?? ""),
        ];
        if (!result.drips.has(key)) result.drips.set(key, { stack: label, id: d.id ?? "", address, outcome });
      }
      const networks = resources.filter((r) => r.type === types.network);
      const drips = resources.filter((r) => r.type === types.drip);
      const inService = emulator.admin.getNetwork(networkId);
      if (pending > 0) problems.push(`${pending} pending operation(s) in state`);
      if (!inService) problems.push(`network ${networkId} is gone from the service`);
      else if (inService.name !== expected.name)
        problems.push(`the service's name is ${JSON.stringify(inService.name)}, declared ${expected.name}`);
      if (expected.present) {
        if (networks.length !== 1) problems.push(`${networks.length} networks in state, expected 1`);
        for (const nw of networks) {
          if (nw.id !== networkId) problems.push(`network in state has id ${nw.id}, expected ${networkId}`);
          if (nw.outputs?.name !== expected.name)
            problems.push(`state's name is ${JSON.stringify(nw.outputs?.name)}, declared ${expected.name}`);
        }
        if (drips.length !== 1) problems.push(`${drips.length} drips in state, expected 1`);
        for (const d of drips) {
          if (String(d.outputs?.address ?? "").toLowerCase() !== expected.address)
            problems.push(`the drip in state is for another address`);
          if (!["sent", "unknown"].includes(String(d.outputs?.outcome)))
            problems.push(`the drip's outcome is ${JSON.stringify(d.outputs?.outcome)}`);
        }
        const root = resources.find((r) => r.type === "pulumi:pulumi:Stack");
        if (root?.outputs?.networkName !== expected.name)
          problems.push(`the stack's networkName output is ${JSON.stringify(root?.outputs?.networkName)}`);
      } else {
        if (networks.length + drips.length > 0)
          problems.push(`${networks.length} networks and ${drips.length} drips left in state after destroy`);
      }
      if (problems.length > 0) {
        result.mismatches.push({ stack: label, cycle, step: name, problems });
        options.log(`${label} cycle ${cycle}: state after ${name} does not match: ${problems.join("; ")}`);
      }
    };

    for (let cycle = 0; ; cycle++) {
      const mean = cycleTimes.reduce((a, b) => a + b, 0) / Math.max(1, cycleTimes.length);
      if (cycle > 0 && performance.now() + mean > options.deadline) break;
      const t = performance.now();
      const declared = `soak-${label}-cycle-${cycle}`;
      let addr = `0x${rng.hex(40)}`;

      await setConfig(declared, addr);
      await step(cycle, "up", (o) => stack.up(o));
      await check(cycle, "up", { present: true, name: declared, address: addr });

      await step(cycle, "refresh", (o) => stack.refresh(o));
      await check(cycle, "refresh", { present: true, name: declared, address: addr });

      emulator.admin.renameNetwork(networkId, `renamed-out-of-band-${label}-${cycle}`);
      await step(cycle, "up --refresh", (o) => stack.up({ ...o, refresh: true }));
      await check(cycle, "up --refresh (restore)", { present: true, name: declared, address: addr });

      await step(cycle, "destroy", (o) => stack.destroy(o));
      await check(cycle, "destroy", { present: false, name: declared, address: addr });

      addr = `0x${rng.hex(40)}`;
      await setConfig(declared, addr);
      await step(cycle, "up (re-adopt)", (o) => stack.up(o));
      await check(cycle, "up (re-adopt)", { present: true, name: declared, address: addr });

      cycleTimes.push(performance.now() - t);
      result.cycles[label]++;
      options.log(`${label} cycle ${cycle} done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
  };

  try {
    await Promise.all([runStack("dynamic"), runStack("yaml")]);
  } finally {
    result.durationMs = performance.now() - started;
  }
  return result;
}
