/** `pulumi refresh` of 100 adopted networks under the real engine (sandboxed), against its floor (below). */
import { execFileSync } from "child_process";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { emulatorConfig, EngineRun, provisionEngine } from "../engine-sandbox";
import { nodejsProject } from "../harness";
import { ROOT, atMost, ms, timed, withEmulatorProcess, x, type Row } from "./common";

const NETWORKS = 100;
const LATENCY_MS = 50;

function defaultParallel(dir: string): number {
  const help = execFileSync(path.join(dir, "pulumi"), ["refresh", "--help"], {
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  }).toString();
  const m = /--parallel[^\n]*\(default (\d+)\)/.exec(help);
  if (!m) throw new Error("the engine's help names no default --parallel");
  return Number(m[1]);
}

const project = (name: string, ids: string[]): string =>
  nodejsProject(
    path.join(ROOT, "build", "bench", "projects", name),
    name,
    `const { Network } = require(${JSON.stringify(path.join(ROOT, "dist"))});\n` +
      `for (const [i, id] of ${JSON.stringify(ids)}.entries()) new Network("n" + i, { networkId: id }, { retainOnDelete: true });\n`,
  );

export async function runRefresh(log: (line: string) => void): Promise<Row[]> {
  const dir = provisionEngine();
  const parallel = defaultParallel(dir);
  const run = await EngineRun.start(undefined, "bench", dir);
  const options = { seed: 1, networks: NETWORKS, faults: { latencyMs: LATENCY_MS } };
  try {
    return await withEmulatorProcess(options, async (emulator) => {
      const stack = async (name: string, ids: string[]): Promise<Stack> => {
        const s = await run.stack(
          { stackName: "bench", workDir: project(name, ids) },
          emulatorConfig(emulator),
        );
        const up = await s.up();
        if (up.summary.result !== "succeeded") throw new Error(`${name}: up ${up.summary.result}`);
        return s;
      };
      const full = await stack("bench-refresh", emulator.bulkNetworks);
      const one = await stack("bench-refresh-one", emulator.bulkNetworks.slice(0, 1));
      const empty = await stack("bench-refresh-empty", []);
      const before = await emulator.requests();
      const refresh = await timed(() => full.refresh());
      const requests = (await emulator.requests()) - before;
      const single = await timed(() => one.refresh());
      const idle = await timed(() => empty.refresh());
      for (const r of [refresh.result, single.result, idle.result])
        if (r.summary.result !== "succeeded") throw new Error(`refresh ${r.summary.result}`);
      // The floor: what any refresh of a Network costs (the engine, the provider host's start, one
      // read), plus one latency per other network at the engine's parallelism.
      const floor = single.ms + ((NETWORKS - 1) * LATENCY_MS) / parallel;
      log(
        `refresh: ${ms(refresh.ms)}, ${requests} requests; one network ${ms(single.ms)}; empty stack ${ms(idle.ms)}`,
      );
      const section = `refresh of ${NETWORKS} adopted networks (L ${LATENCY_MS} ms, real engine)`;
      return [
        {
          section,
          figure: `\`pulumi refresh\` wall time (requests)`,
          value: `${ms(refresh.ms)} (${requests})`,
          baseline: `one network ${ms(single.ms)} + ${NETWORKS - 1} x L / ${parallel} (default --parallel) = ${ms(floor)}`,
          ...atMost(refresh.ms / floor, 1.5),
        },
        {
          section,
          figure: "where the floor goes: the engine alone (refresh of an empty stack)",
          value: ms(idle.ms),
          baseline: `one network ${ms(single.ms)}: the rest is the dynamic-provider host starting`,
          ratio: x(idle.ms / single.ms),
        },
      ];
    });
  } finally {
    await run.close();
  }
}
