/**
 * The gate written as a data source is (a Promise form nobody awaits), under the real engine: a
 * node whose head stalled fails the run, its node named once; the same program against a fresh
 * head succeeds. Holds "every form fails when its check fails" (docs/functions.md#verify).
 */
import { withEmulator } from "../helpers/emulator";
import { describeWithEngine } from "../helpers/engine";
import { EngineRun } from "../helpers/engine-run";
import { diagnostics, occurrences, programProject } from "../helpers/program-project";

const STEP_TIMEOUT = 240_000;

describeWithEngine()("a bare Promise-form gate, under the real engine", () => {
  let run: EngineRun;
  const emulator = withEmulator();

  beforeAll(async () => {
    run = await EngineRun.start();
  }, STEP_TIMEOUT);

  afterAll(() => run?.sandbox.cleanup());

  test(
    "getNode({ id, verify: true }) not awaited: a stalled head fails the run naming the node; a fresh one passes",
    async () => {
      const node = emulator().fixtures.beaconNode;
      const dir = programProject(
        "gate-bare-promise",
        `
import { getNode } from "pulumi-blockchain-nodes";

getNode({ id: "${node}", verify: true });
export const checked = "${node}";
`,
      );
      const env = { BLOCKCHAIN_API_URL: emulator().url, BLOCKCHAIN_API_KEY: emulator().apiKey };
      await run.ok(dir, ["stack", "init", "ci"]);
      const green = await run.cli(
        dir,
        ["up", "--yes", "--non-interactive", "--skip-preview"],
        "fresh head",
        env,
      );
      expect(green.code).toBe(0);

      emulator().admin.setNodeEndpoint(node, { stalledSeconds: 3600 });
      const red = await run.cli(
        dir,
        ["up", "--yes", "--non-interactive", "--skip-preview"],
        "stalled head",
        env,
      );
      expect(red.code).not.toBe(0);
      expect(occurrences(diagnostics(red.output), `${node} failed its endpoint check`)).toBe(1);
    },
    STEP_TIMEOUT,
  );
});
