/**
 * The bad-day matrix: the programs the docs show ({@link PROGRAMS}) × a service's bad days ({@link BAD_DAYS})
 * × verbs and stack states, and × stops while the service holds a write ({@link STOPS}), run under the real
 * engine (`scripts/engine-sandbox.ts`) as a CI job runs them (docs/ci.md: `--non-interactive`, URL and key in
 * the environment, two at a time), measured and judged by {@link judge}. `npm run bench -- --only bad-days`
 * prints the table; `test/e2e/bad-days.test.ts` judges the runs with its own expectations.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { startEmulator, type RunningEmulator } from "../src/emulator";
import { docBlock, readmeBlock, readmeFile } from "./doc-blocks";
import { arrivals, closedPort, diagnostics, errorBlocks, firstLine, FRAME } from "./engine-sandbox";
import { ofPackage, pythonEnv, ROOT } from "./engine-sandbox";
import type { CommandRun, EngineRun, RunOptions } from "./engine-sandbox";
import { nodejsProject, pool } from "./harness";

/** `blockchain:maxRetries` of every stack (3 attempts per call); `Retry-After` of the throttling day, s. */
export const [MAX_RETRIES, RETRY_AFTER_SECONDS] = [2, 1];
/** The longest a run may take, s: a call waits at most twice (backoff, Retry-After 1 s), about 18 s on top of
 * the engine's 1 to 10 s; under a call's default deadline (60 s), so a run that waits one out fails. */
export const SECONDS_BOUND = 45;
/** The most a process may hold, MB: programs peak at about 180, providers 140; the runaway fixed in 0.3.0 passed 400 in 5 to 10 s. */
export const RSS_BOUND_MB = 400;
const BOUNDS = { seconds: SECONDS_BOUND, mb: RSS_BOUND_MB };
/** Seconds from a stop to the end: the plugin hears Cancel; the dynamic-provider host does not (its write
 * runs to its 20 s bound); after a SIGKILL each provider notices its engine gone. */
export const STOP_SECONDS = { typescript: 30, yaml: 10, python: 10, sigkill: 20 } as const;

/** The network every program uses on a good day and its first node; an id no emulator has; the emulator's network without nodes. */
export const HEALTHY_IDS = { networkId: "NW-100-000-1", nodeId: "ND-100-000-001" } as const;
export const [MISSING_NETWORK, EMPTY_NETWORK] = ["NW-999-999-9", "NW-100-000-2"];

export type BadDayId = (typeof BAD_DAYS)[number]["id"];
export type Verb = "preview" | "up";
export type StackState = "new" | "existing";

/** The bad days, in the order they run. */
export const BAD_DAYS = (
  [
    ["unreachable", "service unreachable (a closed port on 127.0.0.1)"],
    ["503", "503 to every request, without Retry-After"],
    ["429", `429 to every request, Retry-After ${RETRY_AFTER_SECONDS} s`],
    ["401", "the key refused (401: the organization's key rotated)"],
    ["missing-network", `a network that does not exist (${MISSING_NETWORK})`, MISSING_NETWORK],
    ["no-running-node", `a network with no running node (${EMPTY_NETWORK})`, EMPTY_NETWORK],
    ["nodes-hang", "two 503s from the service, then every node's endpoint accepts and never answers"],
  ] as const
).map(([id, label, networkId = HEALTHY_IDS.networkId]) => ({ id, label, networkId }));
export type BadDay = (typeof BAD_DAYS)[number];

/** Makes a day's emulator bad; returns the API URL the programs get. */
export async function beginDay(day: BadDayId, e: RunningEmulator): Promise<string> {
  switch (day) {
    case "unreachable":
      return `http://127.0.0.1:${await closedPort()}`;
    case "503": // exactly 503 (the random `rate5xx` draws 502 to 504), more than any run sends
      e.enqueueFaults(Array.from({ length: 10_000 }, () => ({ status: 503 as const })));
      break;
    case "429":
      e.setFaults({ rate429: 1, retryAfterSeconds: RETRY_AFTER_SECONDS });
      break;
    case "401":
      e.admin.rotateKey(e.fixtures.organization);
      break;
    case "nodes-hang":
      e.enqueueFaults([{ status: 503 }, { status: 503 }]);
      for (const node of e.admin.getNetwork(HEALTHY_IDS.networkId)!.nodes)
        e.admin.setNodeEndpoint(node.id, { answer: "slow", delayMs: 3_600_000 });
  }
  return e.url;
}

const YAML_INDEX = /list index 0 out-of-bounds for list of length 0/;
const NO_ENDPOINT = RegExp(`No node of ${EMPTY_NETWORK} shows`);

/**
 * Every whole program the README, docs/ and examples/ show that runs from this checkout (the SDKs' are
 * release.test.ts's): its source (`README file <f>`, `README block <its marker>`, `<doc> <its block's marker>`
 * or `examples/<folder>`); its traits (`v` verifies: proves an endpoint; `l` lists only: declares no Network);
 * its words for a network with no running node (`null`: it needs none and succeeds); the program whose stack
 * it reads (set up before it, run after it; it calls no service).
 */
export const PROGRAMS = (
  [
    ["readme-project", "typescript", "README file index.ts", "v"],
    ["readme-quick-look", "typescript", "README block export = async () =>", "v"],
    ["readme-functions", "typescript", "README block export const dotenv =", "l"],
    ["docs-index-ts", "typescript", 'docs/_index.md from "pulumi-blockchain-nodes"', "", null],
    ["docs-index-yaml", "yaml", "docs/_index.md runtime: yaml", "", YAML_INDEX],
    ["docs-index-python", "python", "docs/_index.md import pulumi", ""],
    ["docs-languages-yaml", "yaml", "docs/other-languages.md outputs:\n  firstNodeId", "", YAML_INDEX],
    ["docs-languages-python", "python", "docs/other-languages.md def first_with_endpoint(", "", NO_ENDPOINT],
    ["quickstart", "typescript", "examples/quickstart", "v", RegExp(`${EMPTY_NETWORK}[^\\n]*\\bno node`)],
    ["feed-app", "typescript", "examples/feed-app", "", null, "quickstart"],
    ["yaml-quickstart", "yaml", "examples/yaml-quickstart", "v", YAML_INDEX],
    ["python-quickstart", "python", "examples/python-quickstart", "v", /IndexError: list index out of range/],
  ] as const
).map(([id, language, source, traits, onEmpty = /No running node/, reads]) => ({
  ...{ id, language, source, onEmpty, reads },
  ...{ verifies: traits.includes("v"), listsOnly: traits.includes("l") },
}));
/** One program the README, docs/ or examples/ show, and what it does that a bad day can take away. */
export type BadDayProgram = (typeof PROGRAMS)[number];

/** The README's programs run every (verb, stack state); the others `up` on an existing stack, the heaviest. */
export const README_PROGRAMS = ["readme-project", "readme-quick-look"] as const;
export function defaultCells(program: string): ReadonlyArray<readonly [Verb, StackState]> {
  if (!(README_PROGRAMS as readonly string[]).includes(program)) return [["up", "existing"]];
  return (["new", "existing"] as const).flatMap((s) =>
    (["preview", "up"] as const).map((v) => [v, s] as const),
  );
}

/** The stops: signals to `pulumi` alone, 1 s apart, once the service holds the PATCH of a rename. */
export const STOPS = {
  "ctrl-c": ["SIGINT"],
  "ctrl-c-twice": ["SIGINT", "SIGINT"],
  sigterm: ["SIGTERM"],
  sigkill: ["SIGKILL"],
} as const satisfies Record<string, readonly NodeJS.Signals[]>;
export type StopId = keyof typeof STOPS;
/** The dynamic-provider host (TypeScript, which ignores Cancel) and the plugin (YAML). */
export const STOPPED_PROGRAMS: readonly string[] = ["readme-project", "yaml-quickstart"];

/** The command line of a verb, as a CI job runs it. */
export const VERB_ARGS: Record<Verb, readonly string[]> = {
  preview: ["preview", "--non-interactive"],
  up: ["up", "--yes", "--non-interactive", "--skip-preview"],
};

/** One run of the matrix, measured. */
export interface CellResult {
  program: string;
  day: BadDayId | "healthy" | `stop: ${StopId}`;
  verb: Verb;
  state: StackState;
  run: CommandRun;
  /** Seconds to end: of the command, or from a stop until the package's processes had ended. */
  seconds: number;
  firstLine: string;
  /** Stops: requests that reached the service after the stop, and the processes left then. */
  requestsAfter?: number;
  left?: string[];
}

/** The cause a day's Diagnostics name; `onEmpty`: the program's own words for an empty list of nodes. */
const CAUSES: Record<BadDayId, RegExp | "onEmpty"> = {
  unreachable: /ECONNREFUSED/,
  "503": /\b503\b/,
  "429": /\b429\b/,
  "401": /\b401\b/,
  "missing-network": RegExp(`${MISSING_NETWORK}[^\\n]*\\b404\\b`),
  "no-running-node": "onEmpty",
  "nodes-hang": /endpoint check: (?:ND-[\d-]+: )?no answer within 10 s/,
};

/** The cause a run names, `null`: it succeeds. A preview, as a program that only lists, sees an empty list for
 * a missing network (the service reads a network only with a PATCH). */
export function expected(p: BadDayProgram, day: BadDayId, verb: Verb): RegExp | null {
  if (p.reads || (day === "nodes-hang" && !p.verifies)) return null;
  const listing = day === "missing-network" && (verb === "preview" || p.listsOnly);
  return CAUSES[day] === "onEmpty" || listing ? p.onEmpty : (CAUSES[day] as RegExp);
}

/** The one judge: within the bounds, the {@link expected} outcome; after a stop nothing sent, nothing of the
 * package left, after one Ctrl-C/SIGTERM "may have been applied"; each message once, no stack frame. */
export function judge(r: CellResult): string[] {
  const program = PROGRAMS.find((p) => p.id === r.program)!;
  const stop = r.day.startsWith("stop: ") ? (r.day.slice(6) as StopId) : undefined;
  const bound = !stop ? SECONDS_BOUND : STOP_SECONDS[stop === "sigkill" ? stop : program.language];
  const diag = diagnostics(r.run.output);
  const problems = [
    ...(r.run.killed ? [`killed: ${r.run.killed}`] : []),
    ...(r.seconds > bound ? [`took ${r.seconds.toFixed(1)} s (bound ${bound} s)`] : []),
    ...Object.entries({ program: r.run.programMb, provider: r.run.providerMb })
      .filter(([, mb]) => mb > RSS_BOUND_MB)
      .map(([role, mb]) => `its ${role} process reached ${mb.toFixed(0)} MB (bound ${RSS_BOUND_MB} MB)`),
    ...(r.run.programMb === 0 && r.run.seconds > 3 ? ["no program process was sampled"] : []),
  ];
  if (stop) {
    if (r.run.stoppedAt === undefined) problems.push("never stopped: the held rename did not arrive");
    if (r.requestsAfter) problems.push(`${r.requestsAfter} request(s) after the stop`);
    if (r.left?.some((p) => !p.endsWith("(Pulumi's)"))) problems.push(`still running: ${r.left.join(", ")}`);
    if ((stop === "ctrl-c" || stop === "sigterm") && !/may have been applied/.test(diag))
      problems.push("it does not say that the rename may have been applied");
  } else {
    const cause = r.day === "healthy" ? null : expected(program, r.day as BadDayId, r.verb);
    if (cause === null && r.run.code !== 0) problems.push(`failed where it must succeed: ${r.firstLine}`);
    if (cause && r.run.code === 0) problems.push("succeeded on a bad day");
    if (cause && r.run.code !== 0 && !cause.test(diag)) problems.push(`its cause unnamed (${cause.source})`);
  }
  const blocks = errorBlocks(r.run.output);
  const twice = blocks.find((b, i) => blocks.indexOf(b) !== i);
  if (twice) problems.push(`a message printed twice: ${twice.split("\n")[0]}`);
  if (FRAME.test(r.run.output)) problems.push(`a stack frame: ${FRAME.exec(r.run.output)![0].trim()}`);
  if (r.run.output.includes("exit code: -1")) problems.push('"exit code: -1"');
  return problems;
}

/** Where the TypeScript projects go: in the checkout, so that `require` finds this package. */
const PROJECTS = path.join(ROOT, "build", "bad-days", `run-${process.pid}`);
/** This checkout's plugin, as the `plugins:` block of a Pulumi.yaml (docs/other-languages.md). */
const PLUGIN_BLOCK = `plugins:\n  providers:\n    - name: blockchain\n      path: ${path.join(ROOT, "bin")}\n`;

/** `text` with the ids of a good day (the emulator's, the docs' placeholders) made the day's. */
const withNetwork = (text: string, networkId: string) =>
  text.replace(/NW-100-000-1|NW-123-456-7/g, networkId).replace(/ND-123-456-789/g, HEALTHY_IDS.nodeId);

/** A program's stack (the names match .gitignore's `examples/*\/Pulumi.e2e*.yaml`). */
export const stackName = (program: string, state: StackState = "existing") =>
  `e2e-bad-days-${process.pid}-${program}-${state}`;
const CJS = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true };

/** Writes a program's project for `networkId`: TypeScript as CommonJS beside its project (so that the
 * checkout's package.json is the nearest), YAML and Python on this checkout's plugin; examples as they are. */
function writeProject(p: BadDayProgram, networkId: string, sandboxDir: string) {
  const config: Record<string, string> = p.reads
    ? { [`${p.id}:quickstartStack`]: `organization/${p.reads}/${stackName(p.reads)}` }
    : { [`${p.id}:networkId`]: networkId };
  if (p.source.startsWith("examples/")) return { dir: path.join(ROOT, p.source), config };
  const [, where, marker] = /^(\S+) (.*)$/s.exec(p.source)!;
  const code = withNetwork(
    where !== "README"
      ? docBlock(where, p.language, marker)
      : marker.startsWith("file ")
        ? readmeFile(marker.slice(5))
        : readmeBlock(marker.slice(6)),
    networkId,
  );
  const dir = path.join(p.language === "typescript" ? PROJECTS : path.join(sandboxDir, "projects"), p.id);
  fs.mkdirSync(dir, { recursive: true });
  const write = (file: string, text: string) => fs.writeFileSync(path.join(dir, file), text);
  if (p.language === "typescript") {
    write(`../${p.id}.program.js`, ts.transpileModule(code, { compilerOptions: CJS }).outputText);
    nodejsProject(dir, p.id, `module.exports = require("../${p.id}.program.js");\n`);
  } else if (p.language === "yaml") {
    const body = code.replace(/^(name|runtime): .*\n/gm, ""); // a fragment gets them
    write("Pulumi.yaml", `name: ${p.id}\nruntime: yaml\n${PLUGIN_BLOCK}${body}`);
  } else {
    write("Pulumi.yaml", `name: ${p.id}\nruntime: python\n${PLUGIN_BLOCK}`);
    write("__main__.py", code);
  }
  return { dir, config: marker.startsWith("file ") ? config : {} };
}

/** The matrix in one engine sandbox: {@link prepare}, then {@link runDay}, {@link runStops}; `programs` to run. */
export class BadDayMatrix {
  readonly programs: BadDayProgram[];
  /** Every run, healthy ones included. */
  readonly results: CellResult[] = [];
  /** The HTTP methods each program's healthy previews sent to the service. */
  readonly previewMethods: Record<string, string[]> = {};
  /** Every secret of the emulators used, and the stacks' config files written: for an audit. */
  readonly secrets = new Set<string>();
  readonly stackConfigFiles: string[] = [];
  private readonly checkpoints = new Map<string, string>();
  private env: Record<string, string> = {};

  constructor(
    private readonly run: EngineRun,
    programs: readonly string[] = PROGRAMS.map((p) => p.id),
    private readonly log?: (line: string) => void,
  ) {
    const needed = programs.flatMap((id) => [id, PROGRAMS.find((p) => p.id === id)?.reads]);
    this.programs = PROGRAMS.filter((p) => needed.includes(p.id));
  }

  private ok(dir: string, ...args: string[]): Promise<string> {
    return this.run.ok(dir, args, undefined, this.env);
  }

  /** Writes the program for `networkId`, its stacks made (`fresh`) or put back as prepared, their config to match. */
  private async project(p: BadDayProgram, networkId: string, fresh = false): Promise<string> {
    const { dir, config } = writeProject(p, networkId, this.run.sandbox.dir);
    const values = { ...config, "blockchain:maxRetries": String(MAX_RETRIES) };
    const pairs = Object.entries(values).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]);
    const states = defaultCells(p.id).some(([, s]) => s === "new") ? ["existing", "new"] : ["existing"];
    for (const stack of states.map((state) => stackName(p.id, state as StackState))) {
      if (fresh) this.stackConfigFiles.push(path.join(dir, `Pulumi.${stack}.yaml`));
      if (fresh) this.checkpoints.set(stack, path.join(this.run.sandbox.dir, `${stack}.json`));
      const file = ["--stack", stack, "--file", this.checkpoints.get(stack)!];
      await (fresh ? this.ok(dir, "stack", "init", stack) : this.ok(dir, "stack", "import", ...file));
      await this.ok(dir, "config", "set-all", "--stack", stack, ...pairs);
    }
    return dir;
  }

  /** Runs `task` for each group of programs (a reader with the stack it reads), two at a time, each with an emulator. */
  private async each(task: (group: BadDayProgram[], e: RunningEmulator) => Promise<void>): Promise<void> {
    const groups = this.programs
      .filter((p) => !p.reads)
      .map((p) => this.programs.filter((q) => q === p || q.reads === p.id));
    await pool(groups, 2, (group) => this.withEmulator((e) => task(group, e)));
  }

  /** Runs `body` with an emulator of its own, its secrets kept for the audit, closed after. */
  private async withEmulator<T>(body: (emulator: RunningEmulator) => Promise<T>): Promise<T> {
    const emulator = await startEmulator({ port: 0 });
    try {
      return await body(emulator);
    } finally {
      for (const s of emulator.secrets()) this.secrets.add(s);
      await emulator.close();
    }
  }

  /** Runs a cell's command, bounded (a killed one's stack unlocked), and records it. */
  private async cell(
    c: Pick<CellResult, "program" | "day" | "verb" | "state">,
    dir: string,
    env: object,
    stop?: RunOptions["stop"],
  ): Promise<CellResult> {
    const stack = ["--stack", stackName(c.program, c.state)];
    const o = { label: `${c.day} ${c.program} ${c.verb} ${c.state}`, env: { ...this.env, ...env }, stop };
    const run = await this.run.run(dir, [...VERB_ARGS[c.verb], ...stack], { ...o, bounds: BOUNDS });
    if (run.killed && !stop) await this.run.run(dir, ["cancel", "--yes", ...stack], { env: this.env });
    const r: CellResult = { ...c, run, seconds: run.seconds, firstLine: firstLine(run) };
    if (!stop) this.record(r);
    return r;
  }

  private record(r: CellResult): void {
    this.results.push(r);
    this.log?.(tableRow(r));
  }

  /** Makes the stacks: `existing` updated once on a healthy service (previewed before and after), `new` only inited. */
  async prepare(): Promise<CellResult[]> {
    const python = this.programs.some((p) => p.language === "python");
    if (python) this.env = pythonEnv(this.run.sandbox.dir, this.run.engineDir);
    await this.each(async (group, emulator) => {
      const env = { BLOCKCHAIN_API_URL: emulator.url, BLOCKCHAIN_API_KEY: emulator.apiKey };
      for (const p of group) {
        const dir = await this.project(p, HEALTHY_IDS.networkId, true);
        for (const verb of ["preview", "up", "preview"] as const) {
          // A preview before the stack exists, and one after.
          emulator.resetRequests();
          const r = await this.cell({ program: p.id, day: "healthy", verb, state: "existing" }, dir, env);
          if (r.run.code !== 0)
            throw new Error(`${p.id}: ${verb} on a healthy service failed:\n${r.run.output}`);
          const sent = emulator.requests().filter((q) => q.path.startsWith("/v1/")); // `verify` POSTs to nodes
          if (verb === "preview") (this.previewMethods[p.id] ??= []).push(...sent.map((q) => q.method));
        }
        for (const stack of [stackName(p.id), stackName(p.id, "new")].filter((s) => this.checkpoints.has(s)))
          await this.ok(dir, "stack", "export", "--stack", stack, "--file", this.checkpoints.get(stack)!);
      }
    });
    return this.results.filter((r) => r.day === "healthy" && r.verb === "up");
  }

  /** Runs a day's cells: the stacks put back, the day begun, then the cells (a reader's first, while the stack it reads is as prepared). */
  async runDay(day: BadDay): Promise<CellResult[]> {
    if (this.checkpoints.size === 0) throw new Error("prepare() first");
    const at = this.results.length;
    await this.each(async (group, emulator) => {
      const dirs: string[] = [];
      for (const p of group) dirs.push(await this.project(p, day.networkId));
      const key = emulator.apiKey; // the programs' key: the 401 day rotates it in the service
      const env = { BLOCKCHAIN_API_URL: await beginDay(day.id, emulator), BLOCKCHAIN_API_KEY: key };
      for (const [i, p] of [...group.entries()].reverse())
        for (const [verb, state] of defaultCells(p.id))
          await this.cell({ program: p.id, day: day.id, verb, state }, dirs[i], env);
    });
    return this.results.slice(at);
  }

  /** Runs {@link STOPS} on {@link STOPPED_PROGRAMS}, one at a time: seconds from the stop until the package's
   * processes have ended (after a SIGKILL they are followed 20 s, orphans included). */
  async runStops(): Promise<CellResult[]> {
    const at = this.results.length;
    for (const p of this.programs.filter((q) => STOPPED_PROGRAMS.includes(q.id))) {
      for (const [stop, signals] of Object.entries(STOPS) as Array<[StopId, readonly NodeJS.Signals[]]>) {
        const [name, stack] = [`${p.id}:networkName`, stackName(p.id)];
        const dir = await this.project(p, HEALTHY_IDS.networkId);
        await this.withEmulator(async (emulator) => {
          const requests = arrivals(emulator.url);
          try {
            await this.ok(dir, "config", "set", name, `stopped-${stop}`, "--stack", stack);
            emulator.setRouteDelays({ networkUpdateMs: 120_000 });
            const when = () => requests.seen.some((a) => a.request.method === "PATCH" && a.request.complete);
            const env = { BLOCKCHAIN_API_URL: emulator.url, BLOCKCHAIN_API_KEY: emulator.apiKey };
            const cell = { program: p.id, day: `stop: ${stop}`, verb: "up", state: "existing" } as const;
            const r = await this.cell(cell, dir, env, { signals, when });
            const stoppedAt = r.run.stoppedAt ?? Infinity;
            const until =
              stop === "sigkill" ? stoppedAt + STOP_SECONDS.sigkill * 1000 : performance.now() + 5e3;
            const { end, alive } = await r.run.sampler!.follow(ofPackage, until, stop !== "sigkill");
            r.seconds = (end - stoppedAt) / 1000;
            r.requestsAfter = requests.seen.filter((a) => a.at > stoppedAt).length;
            r.left = alive.map(
              (q) => `${path.basename(q.argv[0] ?? "?")}${ofPackage(q) ? "" : " (Pulumi's)"}`,
            );
            if (r.firstLine === "exit null") r.firstLine = "(nothing: pulumi was killed)";
            this.record(r);
          } finally {
            requests.end();
            await this.run.run(dir, ["cancel", "--yes", "--stack", stack], { env: this.env });
            await this.ok(dir, "config", "rm", name, "--stack", stack);
          }
        });
      }
    }
    return this.results.slice(at);
  }

  close(): void {
    for (const file of this.stackConfigFiles) fs.rmSync(file, { force: true });
    fs.rmSync(PROJECTS, { recursive: true, force: true });
  }
}

function tableRow(r: CellResult): string {
  const problems = judge(r);
  const [mb, after] = [(n: number) => (n > 0 ? n.toFixed(0) : "-"), String(r.requestsAfter ?? "-")];
  const figures = [r.seconds.toFixed(1), after, mb(r.run.programMb), mb(r.run.providerMb)];
  const verdict = problems.length > 0 ? `**FAILED**: ${problems.join("; ")}` : "ok";
  const cells = [r.program, r.day, r.verb, r.state, ...figures, r.firstLine.slice(0, 200), verdict];
  return `| ${cells.map((c) => c.replace(/\|/g, "\\|").replace(/\n/g, " ")).join(" | ")} |`;
}

/** The results as one Markdown table: the cell, its figures, the first line the user sees, the judge's verdict. */
export function resultsTable(results: readonly CellResult[]): string {
  const head =
    "program|bad day|verb|stack|s|requests after|program MB|provider MB|first line the user sees|verdict";
  return [`| ${head.split("|").join(" | ")} |`, `|${"---|".repeat(10)}`, ...results.map(tableRow)].join("\n");
}
