/**
 * Bad days compose: every program the README, docs/ and examples/ show ends on its own, soon, with
 * the line that names its cause, its memory bounded, under the real engine. The matrix of
 * `scripts/bad-days.ts` runs the programs, days and stops (and measures them with the engine runner);
 * this test judges every run with its own expectations, written below, not with the script's judge.
 *
 * Coverage within the CI budget: every (program, bad day) pair runs `up` on an existing stack, and
 * the README's two programs run every (verb, stack state); then the README project (TypeScript's
 * dynamic-provider host) and examples/yaml-quickstart (the plugin) are stopped four ways while the
 * service holds their rename. `BAD_DAYS_PROGRAMS=readme-project,yaml-quickstart` runs a subset.
 */
import {
  BAD_DAYS,
  BadDayMatrix,
  HEALTHY_IDS,
  MISSING_NETWORK,
  resultsTable,
  STOPPED_PROGRAMS,
  STOPS,
  type BadDayId,
  type CellResult,
} from "../../scripts/bad-days";
import { describeWithEngine, EngineRun, errorBlocks, FRAME, PYTHON_HOST } from "../helpers/engine";

/** A day's runs (two at a time, each killed past 45 s), with their stacks' resets. */
const DAY_TIMEOUT = 900_000;
jest.setTimeout(DAY_TIMEOUT);
/** The sandbox's start, and its removal. */
const STEP_TIMEOUT = 120_000;

/** A run must end within this, s (a retry loop that waits out a timeout or a deadline passes it). */
const ENDS_WITHIN_S = 45;
/** No process of a run (program or provider) may hold more, MB: a runaway passes it in seconds. */
const MEMORY_MB = 400;
/** After a stop, the package's processes must end within this, s: the plugin hears Cancel at once; Pulumi's
 * dynamic-provider host does not, so a write runs to its own 20 s bound; after a SIGKILL, each provider
 * notices its engine gone. */
const STOP_ENDS_WITHIN_S = { "readme-project": 30, "yaml-quickstart": 10, sigkill: 20 } as const;

/** Pulumi's own lines after a failure, which name nothing. */
const PULUMIS_OWN =
  /^error: ((preview|update) failed|Resource monitor has terminated|an unhandled error occurred: waiting)/;
/** A program's words for a list without a node: the package's check, the docs' own checks, YAML's and Python's index errors. */
const NO_NODE = /\bno\b[^\n]*\bnodes?\b|list index 0 out-of-bounds|IndexError/i;

/** The programs that verify their nodes' endpoints (the only ones the hanging nodes reach). */
const VERIFIES = [
  "readme-project",
  "readme-quick-look",
  "quickstart",
  "yaml-quickstart",
  "python-quickstart",
];

/**
 * What a user must see on each day: a token of the cause (an error code, a status, the id at fault) in
 * the first error the run prints; `succeeds` where the program needs nothing the day takes away.
 */
function mustSee(program: string, day: BadDayId, verb: string): RegExp | "succeeds" {
  if (program === "feed-app") return "succeeds"; // it reads the quickstart stack's outputs, no service
  switch (day) {
    case "unreachable":
      return /ECONNREFUSED/;
    case "503":
    case "429":
    case "401":
      return new RegExp(`\\b${day}\\b`);
    case "missing-network":
      // A preview only reads, and lists no node for the id; the README's functions only list.
      return verb === "preview" || program === "readme-functions"
        ? NO_NODE
        : new RegExp(`${MISSING_NETWORK}[^\\n]*\\b404\\b`);
    case "no-running-node":
      // The docs' TypeScript program indexes no node: an empty list is a normal answer there.
      return program === "docs-index-ts" ? "succeeds" : NO_NODE;
    case "nodes-hang":
      // The node's id, and the endpoint check's 10 s.
      return VERIFIES.includes(program) ? /ND-\d{3}-\d{3}-\d{3}[^\n]*\b10 s\b/ : "succeeds";
  }
}

/** The first error the user sees, with the lines under it (a hint, a traceback). */
function firstError(r: CellResult): string {
  const blocks = errorBlocks(r.run.output);
  return blocks.find((b) => !PULUMIS_OWN.test(b)) ?? blocks[0] ?? "";
}

/** What every run must hold, whatever the day: ended within the bound, memory bounded, each message once, no frame. */
function bounded(r: CellResult, seconds = ENDS_WITHIN_S): string[] {
  const blocks = errorBlocks(r.run.output);
  return [
    ...(r.run.killed ? [`killed: ${r.run.killed}`] : []),
    ...(r.seconds > seconds ? [`ended after ${r.seconds.toFixed(1)} s`] : []),
    ...(r.run.programMb > MEMORY_MB ? [`program at ${r.run.programMb.toFixed(0)} MB`] : []),
    ...(r.run.providerMb > MEMORY_MB ? [`provider at ${r.run.providerMb.toFixed(0)} MB`] : []),
    ...(r.run.programMb === 0 && r.run.seconds > 3 ? ["no program process sampled"] : []),
    ...(blocks.some((b, i) => blocks.indexOf(b) !== i) ? ["a message printed twice"] : []),
    ...(FRAME.test(r.run.output) ? [`a stack frame: ${FRAME.exec(r.run.output)![0].trim()}`] : []),
    ...(r.run.output.includes("exit code: -1") ? ['"exit code: -1"'] : []),
  ];
}

/** What is wrong with a bad day's run, by this test's expectations (empty: nothing). */
function wrongOnDay(r: CellResult): string[] {
  const expected = mustSee(r.program, r.day as BadDayId, r.verb);
  const seen = firstError(r);
  const outcome =
    expected === "succeeds"
      ? r.run.code === 0
        ? []
        : [`failed where it must succeed: ${seen}`]
      : r.run.code === 0
        ? ["succeeded on a bad day"]
        : expected.test(seen)
          ? []
          : [`its first error does not show ${expected.source}: ${seen.split("\n")[0]}`];
  return [...bounded(r), ...outcome];
}

/** What is wrong with a stop's run: not ended in time, a request after the stop, a process left, the wrong line. */
function wrongAfterStop(r: CellResult): string[] {
  const stop = r.day.replace("stop: ", "");
  const within =
    stop === "sigkill" ? STOP_ENDS_WITHIN_S.sigkill : STOP_ENDS_WITHIN_S[r.program as "readme-project"];
  const left = (r.left ?? []).filter((p) => !p.endsWith("(Pulumi's)"));
  const problems = [
    ...bounded(r, within),
    ...(r.run.stoppedAt === undefined ? ["never stopped: the rename was not held"] : []),
    ...(r.requestsAfter !== 0 ? [`${r.requestsAfter} request(s) after the stop`] : []),
    ...(left.length > 0 ? [`still running: ${left.join(", ")}`] : []),
  ];
  // One Ctrl-C or SIGTERM: the run fails naming the network and the rename whose outcome is unknown.
  const seen = firstError(r);
  const named = seen.includes(HEALTHY_IDS.networkId) && seen.includes(`stopped-${stop}`);
  if ((stop === "ctrl-c" || stop === "sigterm") && (r.run.code === 0 || !named))
    problems.push(`exit ${r.run.code}; its first error names not the network and the rename: ${seen}`);
  if (stop === "sigkill" && r.run.code !== null) problems.push(`pulumi was not killed: exit ${r.run.code}`);
  return problems;
}

const wrong = (results: CellResult[], check: (r: CellResult) => string[]) =>
  results
    .map((r) => [`${r.program} ${r.day} ${r.verb} ${r.state}`, check(r)] as const)
    .filter(([, problems]) => problems.length > 0);

// The YAML and Python hosts, and Linux's /proc, where the program's processes are sampled.
describeWithEngine(["/proc/self/stat", "pulumi-language-yaml", ...PYTHON_HOST])(
  "bad days: every program the docs show ends soon, with its cause, its memory bounded",
  () => {
    let run: EngineRun;
    let matrix: BadDayMatrix;

    beforeAll(async () => {
      run = await EngineRun.start();
      matrix = new BadDayMatrix(run, process.env.BAD_DAYS_PROGRAMS?.split(","));
    }, STEP_TIMEOUT);

    afterAll(async () => {
      if (matrix) {
        console.log(`bad days: every run, as measured\n\n${resultsTable(matrix.results)}\n`);
        matrix.close();
      }
      await run?.close();
    }, STEP_TIMEOUT);

    test("each program's existing stack: up on a healthy service succeeds, within the bounds; its previews send only GET", async () => {
      const ups = await matrix.prepare();
      expect(ups.map((r) => r.program).sort()).toEqual(matrix.programs.map((p) => p.id).sort());
      expect(wrong(ups, (r) => [...bounded(r), ...(r.run.code === 0 ? [] : [`exit ${r.run.code}`])])).toEqual(
        [],
      );
      // A preview only reads: every request of every program's two previews is a GET.
      expect(Object.keys(matrix.previewMethods).sort()).toEqual(matrix.programs.map((p) => p.id).sort());
      for (const sent of Object.values(matrix.previewMethods))
        expect(sent.filter((m) => m !== "GET")).toEqual([]);
    });

    test.each(BAD_DAYS.map((day) => [day.label, day] as const))(
      "%s: each run ends within the bounds, its first error showing its cause, once, without a stack frame",
      async (_label, day) => {
        const results = await matrix.runDay(day);
        expect(results.length).toBeGreaterThanOrEqual(matrix.programs.length);
        expect(wrong(results, wrongOnDay)).toEqual([]);
      },
    );

    test(
      "stops during a held rename: each ends within its bound, sends nothing after the stop, leaves no process of the package, names the rename",
      async () => {
        const stopped = matrix.programs.filter((p) => STOPPED_PROGRAMS.includes(p.id));
        const results = await matrix.runStops();
        expect(results).toHaveLength(stopped.length * Object.keys(STOPS).length);
        expect(wrong(results, wrongAfterStop)).toEqual([]);
      },
      2 * DAY_TIMEOUT,
    );

    test("nothing printed, stored or configured holds a key, an endpoint or a credential", () => {
      expect(matrix.results.length).toBeGreaterThan(0);
      run.audit([...matrix.secrets], matrix.stackConfigFiles);
    });
  },
);
