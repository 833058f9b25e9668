/**
 * Bad days compose: every program the README, docs/ and examples/ show ends on
 * its own, soon, with the one message that names its cause, its memory bounded, under the real
 * engine, with `blockchain:maxRetries` 2. The programs, the bad days, the bounds and their reasons,
 * the runs and their sampling are in `scripts/bad-days.ts`, shared with
 * `npm run bench -- --only bad-days`.
 *
 * Bad days: the service unreachable (a closed port), 503 to everything, 429 to everything with
 * `Retry-After` 1 s, the key refused (401, rotated in the service), a network that does not exist,
 * a network with no running node. Each run must end within `SECONDS_BOUND` (45 s) with every
 * program process under `RSS_BOUND_MB` (400 MB; sampled from /proc every 200 ms, and the command
 * killed past either), print the cause in the engine's Diagnostics (or, where the program shows
 * it cannot tell, its own words, each named with its reason in the programs' table), print each
 * failure's message once, and print no Node.js stack frame and no "exit code: -1". The seconds and
 * megabytes of every run are printed in one table at the end, not asserted beyond the bounds.
 *
 * Coverage, within the CI budget (at most about 8 more minutes on 2 cores): the full product,
 * 12 programs x 6 bad days x 2 verbs x 2 stack states, is 288 runs, about 15 minutes two at a
 * time. So every (program, bad day) pair runs `up` on an existing stack (the heaviest: the whole
 * program and every lookup run; a preview of a new stack leaves unknown what depends on a
 * resource to create), and the README's two programs ("Use it in your project" and "Quick look")
 * run every (verb, stack state) on every bad day: 12 x 6 + 2 x 6 x 3 = 108 runs, plus the 12
 * healthy `up`s that make the existing stacks; two at a time, about 6 minutes here.
 *
 * Stops: the README's project (TypeScript, Pulumi's dynamic-provider host) and
 * examples/yaml-quickstart (the plugin), each stopped by Ctrl-C, a second Ctrl-C, SIGTERM and a
 * SIGKILL of `pulumi` alone while the service holds its rename: each ends within its bound
 * (`STOP_SECONDS`), no request reaches the service after the stop, no process of the package is
 * left 20 s after a kill, and after one Ctrl-C or SIGTERM the message says the rename may have been
 * applied. 8 runs, one at a time, about 2 minutes.
 */
import { BAD_DAYS, BadDayMatrix, resultsTable, STOPS, verdictText } from "../../scripts/bad-days";
import { describeWithEngine } from "../helpers/engine";
import { EngineRun } from "../helpers/engine-run";

/** A day's runs, killed at 45 s each, two at a time, with their stacks' resets. */
const DAY_TIMEOUT = 600_000;
/** The sandbox's start, and its removal. */
const STEP_TIMEOUT = 120_000;

// The YAML and Python hosts, and Linux's /proc, where the program's processes are sampled.
describeWithEngine([
  "/proc/self/stat",
  "pulumi-language-yaml",
  "pulumi-language-python",
  "pulumi-language-python-exec",
  "pulumi-python",
])("bad days: every program the docs show ends soon, with its cause, its memory bounded", () => {
  let run: EngineRun;
  let matrix: BadDayMatrix;

  beforeAll(async () => {
    run = await EngineRun.start();
    matrix = new BadDayMatrix({
      sandbox: run.sandbox,
      engineDir: run.engineDir,
      onOutput: (label, output) => (run.transcript[label] = output),
    });
  }, STEP_TIMEOUT);

  afterAll(async () => {
    if (matrix) {
      console.log(`bad days: seconds and peak RSS of every run\n\n${resultsTable(matrix.results)}\n`);
      matrix.close();
    }
    await run?.close();
  }, STEP_TIMEOUT);

  test(
    "each program's existing stack: up on a healthy service succeeds, within the bounds; its previews send only GET",
    async () => {
      const healthy = await matrix.prepare();
      expect(healthy.map((r) => [r.program, verdictText(r)])).toEqual(healthy.map((r) => [r.program, "ok"]));
      // A preview only reads: every request of every program's preview is a GET.
      const methods = Object.fromEntries(matrix.previewMethods);
      console.log(`methods each preview sent:\n${JSON.stringify(methods, null, 1)}`);
      expect(Object.keys(methods)).toHaveLength(matrix.programs.length * 2);
      for (const sent of Object.values(methods)) expect(sent.filter((m) => m !== "GET")).toEqual([]);
    },
    DAY_TIMEOUT,
  );

  test.each(BAD_DAYS.map((day) => [day.label, day] as const))(
    "%s: each run ends within the bounds, naming its cause once, without a stack frame",
    async (_label, day) => {
      const results = await matrix.runDay(day);
      expect(results.length).toBeGreaterThan(0);
      const cell = (r: (typeof results)[number]) => `${r.program} ${r.verb} ${r.state}: ${r.firstLine}`;
      expect(results.filter((r) => r.problems.length > 0).map((r) => [cell(r), r.problems])).toEqual([]);
    },
    DAY_TIMEOUT,
  );

  test(
    "stops during a held rename: each ends within its bound, sends nothing after the stop, leaves no process of the package, says what may have been applied",
    async () => {
      const results = await matrix.runStops();
      expect(results).toHaveLength(2 * Object.keys(STOPS).length);
      const cell = (r: (typeof results)[number]) => `${r.program} ${r.day}: ${r.firstLine}`;
      expect(results.filter((r) => r.problems.length > 0).map((r) => [cell(r), r.problems])).toEqual([]);
    },
    DAY_TIMEOUT,
  );

  test("nothing printed, stored or configured holds a key, an endpoint or a credential", () => {
    expect(matrix.results.length).toBeGreaterThan(0);
    run.audit([...matrix.secrets], matrix.stackConfigFiles);
  });
});
