/**
 * The soak's engine cycles, each program in its own stack of one sandboxed backend, until the time is up: up
 * (a new name and faucet address), refresh, a rename out of band undone by `up --refresh`, destroy (the network
 * retained), up again; a failed step runs again up to {@link MAX_ATTEMPTS} times; the state checked after each.
 */
import type { RunningEmulator } from "../../src/emulator";
import { rngFor } from "../reliability/common";
import { TYPE_PREFIX, PROJECTS } from "./programs";
import { emulatorConfig, type EngineRun, type StateResource } from "../engine-sandbox";

export const MAX_ATTEMPTS = 5;

type Label = keyof typeof PROJECTS;
type Failure = { stack: Label; step: string; cause: string };

const emptyResult = () => ({
  cycles: { dynamic: 0, yaml: 0 } as Record<Label, number>,
  steps: 0,
  retries: [] as Failure[],
  failedSteps: [] as Failure[],
  /** State checks made, and the problems of those that failed. */
  checks: 0,
  mismatches: [] as Array<{ stack: Label; cycle: number; step: string; problems: string[] }>,
  /** Every drip seen in state (one creation each), by `<stack>|<id>`. */
  drips: new Map<string, { address: string; outcome: string }>(),
});
export type CyclesResult = ReturnType<typeof emptyResult>;

/** The cause of a failed step, from what the engine printed: its first `error:` line, ids and numbers folded. */
function causeOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").map((l) => l.trim());
  const line =
    lines.find((l) => /^error: /.test(l) && !/^error: (update|preview|refresh|destroy) failed/.test(l)) ??
    lines.find((l) => l !== "") ??
    "";
  return foldIds(line.replace(/^error: /, "").replace(/0x[0-9a-fA-F]{40}/g, "0x…")).slice(0, 140);
}

/** `text` with the service's ids and the emulator's URL folded, so that one cause counts once. */
export const foldIds = (text: string): string =>
  text.replace(/\b(NW|ND|PR|RG)-[\d-]+/g, "$1-…").replace(/https?:\/\/127\.0\.0\.1:\d+/g, "<emulator>");

/** Runs the cycles of both stacks until `deadline` (`performance.now()`; the first cycle always runs). */
export async function runCycles(options: {
  seed: number;
  /** Its transcript gets what the engine printed, by step (`<stack> cycle <n> <step> #<attempt>`). */
  run: EngineRun;
  emulator: RunningEmulator;
  networks: Record<Label, string>;
  projects: Record<Label, string>;
  deadline: number;
  log: (line: string) => void;
}): Promise<CyclesResult> {
  const { emulator, run: engine } = options;
  const result = emptyResult();

  const runStack = async (label: Label) => {
    const stack = await engine.stack({ stackName: "soak", workDir: options.projects[label] });
    const [project, networkId, prefix] = [PROJECTS[label], options.networks[label], TYPE_PREFIX[label]];
    const rng = rngFor(options.seed, `cycles/${label}`);
    const cycleTimes: number[] = [];
    const say = (cycle: number, line: string) => options.log(`${label} cycle ${cycle}${line}`);

    type Opts = ReturnType<EngineRun["recorded"]>;
    const step = async (cycle: number, name: string, run: (opts: Opts) => Promise<unknown>) => {
      result.steps++;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const opts = engine.recorded(`${label} cycle ${cycle} ${name} #${attempt}`);
        try {
          return void (await run(opts));
        } catch (error) {
          engine.transcript[opts.key] += `\n${error instanceof Error ? error.message : String(error)}`;
          const failure = { stack: label, step: name, cause: causeOf(error) };
          const last = attempt === MAX_ATTEMPTS;
          (last ? result.failedSteps : result.retries).push(failure);
          say(cycle, `: ${name} failed ${last ? `${MAX_ATTEMPTS} times ` : ""}(${failure.cause})`);
        }
      }
    };

    const check = async (
      cycle: number,
      name: string,
      present: boolean,
      declared: string,
      address: string,
    ) => {
      result.checks++;
      const problems: string[] = [];
      let resources: StateResource[] = [];
      try {
        const { deployment } = await stack.exportStack();
        resources = deployment?.resources ?? [];
        const pending = (deployment?.pending_operations ?? []).length;
        if (pending > 0) problems.push(`${pending} pending operation(s) in state`);
      } catch (error) {
        problems.push(`stack export failed: ${causeOf(error)}`);
      }
      const networks = resources.filter((r) => r.type === `${prefix}:Network`);
      const drips = resources.filter((r) => r.type === `${prefix}:FaucetDrip`);
      const show = JSON.stringify;
      for (const d of drips) {
        const key = `${label}|${d.id}`;
        const seen = {
          address: String(d.outputs?.address ?? "").toLowerCase(),
          outcome: String(d.outputs?.outcome),
        };
        if (!result.drips.has(key)) result.drips.set(key, seen);
        if (present && seen.address !== address) problems.push(`the drip in state is for another address`);
        if (present && !["sent", "unknown"].includes(seen.outcome))
          problems.push(`the drip's outcome is ${show(d.outputs?.outcome)}`);
      }
      const inService = emulator.admin.getNetwork(networkId);
      if (!inService) problems.push(`network ${networkId} is gone from the service`);
      else if (inService.name !== declared)
        problems.push(`the service's name is ${show(inService.name)}, declared ${declared}`);
      if (present) {
        if (networks.length !== 1) problems.push(`${networks.length} networks in state, expected 1`);
        for (const nw of networks) {
          if (nw.id !== networkId) problems.push(`network in state has id ${nw.id}, expected ${networkId}`);
          if (nw.outputs?.name !== declared)
            problems.push(`state's name is ${show(nw.outputs?.name)}, declared ${declared}`);
        }
        if (drips.length !== 1) problems.push(`${drips.length} drips in state, expected 1`);
        const root = resources.find((r) => r.type === "pulumi:pulumi:Stack");
        if (root?.outputs?.networkName !== declared)
          problems.push(`the stack's networkName output is ${show(root?.outputs?.networkName)}`);
      } else if (networks.length + drips.length > 0)
        problems.push(`${networks.length} networks and ${drips.length} drips left in state after destroy`);
      if (problems.length > 0) {
        result.mismatches.push({ stack: label, cycle, step: name, problems });
        say(cycle, `: state after ${name} does not match: ${problems.join("; ")}`);
      }
    };

    for (let cycle = 0; ; cycle++) {
      const mean = cycleTimes.reduce((a, b) => a + b, 0) / Math.max(1, cycleTimes.length);
      if (cycle > 0 && performance.now() + mean > options.deadline) break;
      const t = performance.now();
      const declared = `soak-${label}-cycle-${cycle}`;
      let address = "";
      const configure = () =>
        stack.setAllConfig({
          ...emulatorConfig(emulator),
          [`${project}:networkId`]: { value: networkId },
          [`${project}:networkName`]: { value: declared },
          [`${project}:faucetAddress`]: { value: (address = `0x${rng.hex(40)}`) },
        });
      const run = async (name: string, present: boolean, go: (o: Opts) => Promise<unknown>) => {
        await step(cycle, name, go);
        await check(cycle, name.replace(/^up --refresh$/, "$& (restore)"), present, declared, address);
      };
      await configure();
      await run("up", true, (o) => stack.up(o));
      await run("refresh", true, (o) => stack.refresh(o));
      emulator.admin.renameNetwork(networkId, `renamed-out-of-band-${label}-${cycle}`);
      await run("up --refresh", true, (o) => stack.up({ ...o, refresh: true }));
      await run("destroy", false, (o) => stack.destroy(o));
      await configure();
      await run("up (re-adopt)", true, (o) => stack.up(o));
      cycleTimes.push(performance.now() - t);
      result.cycles[label]++;
      say(cycle, ` done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
  };

  await Promise.all([runStack("dynamic"), runStack("yaml")]);
  return result;
}
