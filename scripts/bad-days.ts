/**
 * Bad days compose: every program the README, docs/ and examples/ show, run
 * by the real engine against a service having a bad day, ends on its own, soon, with the one
 * message that names the cause, its memory bounded. This file is the one place that knows the
 * programs, the bad days, the bounds, how a `pulumi` command runs with its program's processes
 * sampled from /proc, and the table of what was measured: `test/e2e/bad-days.test.ts` asserts on
 * it, `npm run bench -- --only bad-days` (`scripts/bench/bad-days.ts`) prints it.
 *
 * A {@link BadDayMatrix} runs in one engine sandbox. Each program gets an `existing` stack (one
 * `pulumi up` against a healthy emulator, its checkpoint exported) and, where its cells ask, a
 * `new` one (initialized, never updated). For each bad day, each program gets an emulator of its
 * own (a faucet's daily limit counts per emulator), its stacks are put back as they were
 * (`pulumi stack import`), then the day begins and its cells run, two commands at a time, each on
 * its own stacks. Commands run as a CI job runs them (docs/ci.md): `pulumi preview
 * --non-interactive`, `pulumi up --yes --non-interactive --skip-preview`, the API URL and key in
 * the environment (`BLOCKCHAIN_API_URL`, `BLOCKCHAIN_API_KEY`), `blockchain:maxRetries` 2 in the
 * stack's config.
 */
import { spawn } from "child_process";
import * as channels from "diagnostics_channel";
import * as fs from "fs";
import type * as http from "http";
import * as net from "net";
import * as path from "path";
import * as ts from "typescript";
import { startEmulator, type RunningEmulator } from "../src/emulator";
import { ROOT, type EngineSandbox } from "./engine-sandbox";
import { docBlock, readmeBlock, readmeFile } from "./doc-blocks";

// ---------------------------------------------------------------------------------------------
// Bounds

/** `blockchain:maxRetries` of every stack: 3 attempts per call. */
export const MAX_RETRIES = 2;

/**
 * `Retry-After` of the throttling day, s: what a throttling service says, as the emulator's own
 * throttle (`rateLimit`, a 1 s window) says it.
 */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The longest a run may take, s. What a bad day can cost at maxRetries 2 (src/api/options.ts,
 * request.ts, limits.ts): every answer of these days is immediate, so no attempt waits out its
 * `timeoutMs` (20 s) and no call its `deadlineMs` (60 s); a call makes 3 attempts and waits
 * twice. For a closed port or a 503 without `Retry-After` a wait is the backoff, at most 250 then
 * 500 ms: a program's calls (at most 3 in a chain: the network's read, its list, one node) add
 * about 2 s. For the 429s a wait is `Retry-After` (1 s), and the limiter, cut by the first 429,
 * paces every attempt of the process at 1 to 0.5 per second: the 9 attempts of 3 calls take at
 * most about 18 s. The rest is the engine's own time: 1 to 10 s for a run on a healthy service
 * here (2 cores, two runs at once, other tests beside; ts-node's and the plugin's start included).
 * So a run ends within about 28 s at worst (the slowest measured: 16 s, an `up` of a new stack on
 * the 429 day); 45 s leaves half as much again for a busier machine, and is less than one call's
 * default deadline (60 s): a call that waited out an attempt's timeout or a deadline instead of
 * failing fast fails it, and a runaway never ends. A command is killed once past it.
 */
export const SECONDS_BOUND = 45;

/**
 * The most a process of the program may hold, MB (VmRSS). A run's program process peaks at about
 * 180 MB for TypeScript (Node.js, `@pulumi/pulumi`, this package, V8's debugger on), 55 MB for
 * Python, 30 MB for YAML; a provider (the dynamic-provider host, the plugin) at about 140 MB,
 * healthy or not. 400 MB is over twice the largest (room for GC timing and other SDK versions),
 * and the runaway fixed in 0.3.0 grew about 200 MB/s without end: run on the code before its fix
 * (4d79792, the parent of 016e24e), the README's programs passed 400 MB 5 to 10 s after their
 * command started, and were killed. A command is killed once one of its processes passes it.
 */
export const RSS_BOUND_MB = 400;

/** How often the program's processes are sampled, ms. */
export const SAMPLE_EVERY_MS = 200;

// ---------------------------------------------------------------------------------------------
// Running `pulumi`, its program's processes sampled

/** What a process of a run is: the program (the host's program, the YAML host) or a provider serving it. */
export type Role = "program" | "provider";

/**
 * The role of a process by its command line: the program is the nodejs host's `node
 * …/@pulumi/pulumi/cmd/run`, the YAML host itself (it runs the program), or Python running the
 * host's `pulumi-language-python-exec`; a provider is the dynamic-provider host
 * (`…/cmd/dynamic-provider`) or the plugin (`pulumi-resource-blockchain`).
 */
export function roleOf(argv: readonly string[]): Role | undefined {
  const base = (a: string) => path.basename(a);
  if (argv.some((a) => /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]run([\\/]index\.js)?$/.test(a))) return "program";
  if (argv.length > 0 && base(argv[0]) === "pulumi-language-yaml") return "program";
  if (argv.some((a) => base(a) === "pulumi-language-python-exec")) return "program";
  if (argv.some((a) => /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(a))) return "provider";
  if (argv.some((a) => /pulumi-resource-blockchain(\.js)?$/.test(a))) return "provider";
  return undefined;
}

/** Every live descendant of `root` (Linux `/proc`), by parent pid. */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // The command (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state !== "Z") parentOf.set(Number(name), Number(ppid));
    } catch {
      // it ended while it was read
    }
  }
  const found: number[] = [];
  for (let level = new Set([root]); level.size > 0;) {
    const next = [...parentOf].filter(([, ppid]) => level.has(ppid)).map(([pid]) => pid);
    found.push(...next);
    level = new Set(next);
  }
  return found;
}

function readArgv(pid: number): string[] | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return undefined;
  }
}

function rssMb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The peak RSS of each {@link Role} among the descendants of a process, sampled on demand; once
 * seen, a process is sampled until it ends, also when its parent is gone (an orphan of a kill).
 */
export class TreeSampler {
  /** Peak MB by role (0: none seen), and the command line of the process that reached it. */
  readonly peaks: Record<Role, { mb: number; argv: string[] }> = {
    program: { mb: 0, argv: [] },
    provider: { mb: 0, argv: [] },
  };
  /** Every process with a role seen, by pid. */
  readonly seen = new Map<number, { role: Role; argv: string[] }>();
  /** Every descendant seen. */
  private readonly all = new Set<number>();

  constructor(readonly root: number) {}

  /** Samples once; returns every descendant, or process seen, alive now (what to kill, if it comes to that). */
  sample(): number[] {
    const pids = [...new Set([...descendants(this.root), ...this.all])].filter((p) => rssMb(p) !== undefined);
    for (const pid of pids) {
      this.all.add(pid);
      // One without a role is read again next time: before its exec it has its parent's command line.
      if (!this.seen.has(pid)) {
        const argv = readArgv(pid);
        const role = argv && roleOf(argv);
        if (!role) continue;
        this.seen.set(pid, { role, argv });
      }
      const { role, argv } = this.seen.get(pid)!;
      const mb = rssMb(pid);
      if (mb !== undefined && mb > this.peaks[role].mb) this.peaks[role] = { mb, argv };
    }
    return pids;
  }
}

/** How one `pulumi` command ended. */
export interface CommandRun {
  args: string[];
  /** Exit code; `null` when killed. */
  code: number | null;
  /** stdout and stderr, interleaved as they came. */
  output: string;
  seconds: number;
  /** Peak RSS, MB, of the program's process and of the providers serving it (0: none sampled). */
  programMb: number;
  providerMb: number;
  /** Why it was killed, when it was: a bound passed. */
  killed?: string;
  /** When it was stopped ({@link RunOptions.stop}), `performance.now()` ms; its sampler, to follow what is left. */
  stoppedAt?: number;
  sampler?: TreeSampler;
}

/** Options of {@link runPulumi}. */
export interface RunOptions {
  engineDir: string;
  sandbox: EngineSandbox;
  cwd: string;
  args: string[];
  /** Variables over the sandbox's. */
  env?: Record<string, string>;
  /** Sample the program's processes every {@link SAMPLE_EVERY_MS} ms; kill the command past the bounds. */
  bounded?: boolean;
  /** Signals sent to `pulumi` alone, 1 s apart, once `when()` holds at a sample (a {@link Stop}). */
  stop?: { signals: readonly NodeJS.Signals[]; when: () => boolean };
}

/**
 * Runs `pulumi <args> --color=never` in `cwd` with the sandbox's variables; never rejects (the
 * exit code is in the result). `bounded`: its processes are sampled, and the command and its
 * descendants are SIGKILLed once it runs past {@link SECONDS_BOUND} or one of them passes
 * {@link RSS_BOUND_MB}.
 */
export function runPulumi(o: RunOptions): Promise<CommandRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(o.engineDir, "pulumi"), [...o.args, "--color=never"], {
      cwd: o.cwd,
      env: { ...process.env, ...o.sandbox.envVars, ...o.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => (output += chunk.toString());
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const sampler = o.bounded && child.pid !== undefined ? new TreeSampler(child.pid) : undefined;
    let killed: string | undefined;
    let stoppedAt: number | undefined;
    const kill = (why: string) => {
      killed ??= why;
      // Stopped first, so that none starts another process before the kill.
      for (const signal of ["SIGSTOP", "SIGKILL"] as const) {
        for (const pid of [child.pid!, ...(sampler?.sample() ?? [])]) {
          try {
            process.kill(pid, signal);
          } catch {
            // already gone
          }
        }
      }
    };
    const timer =
      sampler &&
      setInterval(() => {
        sampler.sample();
        if (o.stop && stoppedAt === undefined && o.stop.when()) {
          stoppedAt = performance.now();
          o.stop.signals.forEach((signal, i) => setTimeout(() => child.kill(signal), i * 1000));
        }
        const over = Object.values(sampler.peaks).find((p) => p.mb > RSS_BOUND_MB);
        if (over) kill(`a process passed ${RSS_BOUND_MB} MB: ${over.argv.join(" ").slice(0, 160)}`);
        else if (performance.now() - started > SECONDS_BOUND * 1000)
          kill(`still running after ${SECONDS_BOUND} s`);
      }, SAMPLE_EVERY_MS);
    child.on("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearInterval(timer);
      resolve({
        args: o.args,
        code,
        output,
        seconds: (performance.now() - started) / 1000,
        programMb: sampler?.peaks.program.mb ?? 0,
        providerMb: sampler?.peaks.provider.mb ?? 0,
        killed,
        stoppedAt,
        sampler,
      });
    });
  });
}

/** Runs `pulumi` and fails with what it printed unless it succeeds. */
async function pulumiOk(o: Omit<RunOptions, "bounded">): Promise<void> {
  const run = await runPulumi(o);
  if (run.code !== 0)
    throw new Error(`pulumi ${o.args.join(" ")} in ${o.cwd} exited with ${run.code}:\n${run.output}`);
}

/**
 * The variables of the Python programs: the engine's Python (`pulumi-python`, with the `pulumi`
 * SDK), and this checkout's generated SDK, `sdk/python`, installed into `dir` as pip installs it
 * (the package and its distribution's metadata, from which the SDK reads its version) and put on
 * `PYTHONPATH`. pip itself would need `wheel`, which the engine's Python lacks, and builds in the
 * source tree.
 */
export function pythonEnv(dir: string, engineDir: string): Record<string, string> {
  const sdk = path.join(ROOT, "sdk", "python");
  const pyproject = fs.readFileSync(path.join(sdk, "pyproject.toml"), "utf8");
  const version = /^\s*version = "([^"]+)"/m.exec(pyproject)?.[1];
  if (!version) throw new Error("sdk/python/pyproject.toml names no version");
  const site = path.join(dir, "python-site");
  fs.cpSync(path.join(sdk, "pulumi_blockchain"), path.join(site, "pulumi_blockchain"), { recursive: true });
  const info = path.join(site, `pulumi_blockchain-${version}.dist-info`);
  fs.mkdirSync(info, { recursive: true });
  fs.writeFileSync(
    path.join(info, "METADATA"),
    `Metadata-Version: 2.1\nName: pulumi_blockchain\nVersion: ${version}\n`,
  );
  return {
    PULUMI_PYTHON_CMD: path.join(engineDir, "pulumi-python"),
    PYTHONPATH: site,
    PYTHONDONTWRITEBYTECODE: "1",
  };
}

// ---------------------------------------------------------------------------------------------
// The bad days

/** The network every program adopts or lists on a good day, and its first node. */
export const HEALTHY_IDS = { networkId: "NW-100-000-1", nodeId: "ND-100-000-001" } as const;
/** A network id of the service's shape that no emulator has. */
export const MISSING_NETWORK = "NW-999-999-9";
/** The emulator's network without nodes (`fixtures.emptyNetwork`). */
export const EMPTY_NETWORK = "NW-100-000-2";

export type BadDayId =
  "unreachable" | "503" | "429" | "401" | "missing-network" | "no-running-node" | "nodes-hang";

/** A cause named otherwise than the day's rule, and why that is accepted. */
export interface OwnWords {
  cause: RegExp;
  why: string;
}

/** One bad day: what it does to the service or to the program's input, and the cause to name. */
export interface BadDay {
  id: BadDayId;
  label: string;
  /** The cause the message names (a program may say it its own way: {@link BadDayProgram.causes}). */
  cause: RegExp;
  /** What a `preview` names, when it cannot know what `up` names. */
  preview?: OwnWords;
  /** The network the programs are given that day. */
  networkId: string;
  /** Makes the day's emulator bad, once the stacks are ready; returns the API URL the programs are given. */
  begin(emulator: RunningEmulator): Promise<string>;
  /** Why a program's run succeeds on this day (it does not need what the day takes away), if it does. */
  spares?(program: BadDayProgram, verb: Verb, state: StackState): string | undefined;
}

/** A port on 127.0.0.1 where nothing listens (taken, then freed). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The bad days, in the order they run. */
export const BAD_DAYS: readonly BadDay[] = [
  {
    id: "unreachable",
    label: "service unreachable (a closed port on 127.0.0.1)",
    cause: /ECONNREFUSED/,
    networkId: HEALTHY_IDS.networkId,
    begin: async () => `http://127.0.0.1:${await closedPort()}`,
  },
  {
    id: "503",
    label: "503 to every request, without Retry-After",
    cause: /\b503\b/,
    networkId: HEALTHY_IDS.networkId,
    begin: async (e) => {
      // One-shot faults: exactly 503 (the random `rate5xx` draws 502, 503 or 504), more than any run sends.
      e.enqueueFaults(Array.from({ length: 10_000 }, () => ({ status: 503 as const })));
      return e.url;
    },
  },
  {
    id: "429",
    label: `429 to every request, Retry-After ${RETRY_AFTER_SECONDS} s`,
    cause: /\b429\b/,
    networkId: HEALTHY_IDS.networkId,
    begin: async (e) => {
      e.setFaults({ rate429: 1, retryAfterSeconds: RETRY_AFTER_SECONDS });
      return e.url;
    },
  },
  {
    id: "401",
    label: "the key refused (401: the organization's key rotated in the service)",
    cause: /API key was refused/,
    networkId: HEALTHY_IDS.networkId,
    begin: async (e) => {
      e.admin.rotateKey(e.fixtures.organization);
      return e.url;
    },
  },
  {
    id: "missing-network",
    label: `a network that does not exist (${MISSING_NETWORK})`,
    cause: new RegExp(`${MISSING_NETWORK}[^\\n]*(does not exist|not visible)`),
    preview: {
      cause: /No running node/,
      why:
        "a preview only reads (GET) and the API reads a network only with a PATCH: the service lists " +
        "no node for an id it does not have, so the program's own check of an empty list speaks",
    },
    networkId: MISSING_NETWORK,
    begin: async (e) => e.url,
  },
  {
    id: "no-running-node",
    label: `a network with no running node (${EMPTY_NETWORK}, without nodes)`,
    cause: /No running node/,
    networkId: EMPTY_NETWORK,
    begin: async (e) => e.url,
  },
  {
    id: "nodes-hang",
    label: "two 503s from the service, then every node's endpoint accepts and never answers",
    // One node (getNodeOutput) or a list, each node named (a verified getNodesOutput, getNodeConnections).
    cause: /failed (?:its|their) endpoint check: (?:ND-[\d-]+: )?no answer within 10 s/,
    networkId: HEALTHY_IDS.networkId,
    // A verified list of the network's nodes runs in every preview, a new stack's too: the id it
    // lists by is the Network's input, known before the Network exists.
    spares: (program) => (!program.verifies ? "it calls no node's endpoint (no verify)" : undefined),
    begin: async (e) => {
      e.enqueueFaults([{ status: 503 }, { status: 503 }]);
      for (const node of e.admin.getNetwork(HEALTHY_IDS.networkId)!.nodes) {
        e.admin.setNodeEndpoint(node.id, { answer: "slow", delayMs: 3_600_000 });
      }
      return e.url;
    },
  },
];

// ---------------------------------------------------------------------------------------------
// The programs

/** A program's project, ready for one day: its folder and the stack config it reads. */
export interface ProgramProject {
  dir: string;
  /** Stack config the program reads (not the `blockchain:*` settings): key → value. */
  config: Record<string, string>;
}

/** One program the README, docs/ or examples/ show. */
export interface BadDayProgram {
  id: string;
  /** Where it is shown. */
  shows: string;
  language: "typescript" | "yaml" | "python";
  /**
   * Writes (or rewrites) the program for the network `networkId`; returns its project. Ids written
   * in the program (the README's, the docs' placeholders) are replaced; a program that reads the
   * network from its config gets it there.
   */
  write(networkId: string): ProgramProject;
  /** The causes it names in its own words, and why that is accepted. */
  causes?: Partial<Record<BadDayId, OwnWords>>;
  /** The days on which it succeeds, and why: it does not need what the day takes away. */
  succeeds?: Partial<Record<BadDayId, string>>;
  /** The program whose stack it reads through a `StackReference` (set up before it, run after it). */
  reads?: string;
  /** Whether it proves an endpoint (`verify`) before exporting it. */
  verifies?: true;
}

/** Where the TypeScript projects go: in the checkout, so that `require` finds the package and the SDK. */
const PROJECTS = path.join(ROOT, "build", "bad-days", `run-${process.pid}`);

/** `text` with the ids of a good day (the emulator's, the docs' placeholders) made the day's. */
function withNetwork(text: string, networkId: string): string {
  return text.replace(/NW-100-000-1|NW-123-456-7/g, networkId).replace(/ND-123-456-789/g, HEALTHY_IDS.nodeId);
}

/**
 * A TypeScript program as a project of its own, in {@link PROJECTS}: the code transpiled to
 * CommonJS beside the project, where the checkout's package.json is the nearest (so that
 * `pulumi-blockchain-nodes` is the package itself), and a Pulumi.yaml, a package.json (else the
 * host would take the checkout's `main`) and an index.js that requires it. The type-checks are
 * other tests' (consumer, invoke-options, ci-pipeline).
 */
function typescriptProject(id: string, code: string, networkId: string, configured = false): ProgramProject {
  const dir = path.join(PROJECTS, id);
  fs.mkdirSync(dir, { recursive: true });
  const js = ts.transpileModule(withNetwork(code, networkId), {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2020,
      esModuleInterop: true,
    },
  }).outputText;
  fs.writeFileSync(path.join(PROJECTS, `${id}.program.js`), js);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${id}\nruntime: nodejs\nmain: index.js\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: id, main: "index.js" }));
  fs.writeFileSync(path.join(dir, "index.js"), `module.exports = require("../${id}.program.js");\n`);
  return { dir, config: configured ? { [`${id}:networkId`]: networkId } : {} };
}

/** This checkout's plugin, as the `plugins:` block of a Pulumi.yaml (docs/other-languages.md). */
const PLUGIN_BLOCK = `plugins:\n  providers:\n    - name: blockchain\n      path: ${path.join(ROOT, "bin")}\n`;

/** A YAML or Python program of the docs as a project in `dir`, on this checkout's plugin. */
function pluginProject(
  dir: string,
  language: "yaml" | "python",
  program: string,
  networkId: string,
): ProgramProject {
  fs.mkdirSync(dir, { recursive: true });
  const name = path.basename(dir);
  if (language === "yaml") {
    // A whole program has its name and runtime; a fragment (resources, variables, outputs) gets them.
    const body = withNetwork(program, networkId).replace(/^(name|runtime): .*\n/gm, "");
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\n${PLUGIN_BLOCK}${body}`);
  } else {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: python\n${PLUGIN_BLOCK}`);
    fs.writeFileSync(path.join(dir, "__main__.py"), withNetwork(program, networkId));
  }
  return { dir, config: {} };
}

/** An example, run from its folder as a user runs it; `networkId` in its config. */
function exampleProject(example: string, config: Record<string, string>): ProgramProject {
  return { dir: path.join(ROOT, "examples", example), config };
}

/** What YAML and Python programs that index `[0]` with no check print for an empty list. */
const INDEXED_WITHOUT_CHECK = {
  yaml: {
    cause: /list index 0 out-of-bounds for list of length 0/,
    why: "its outputs index `[0]` with no check (YAML has none): the YAML host's error, once per output",
  },
  python: {
    cause: /IndexError: list index out of range/,
    why: "its outputs index `ns[0]` with no check: Python's IndexError, with its traceback",
  },
} as const;

/** The README's programs: each cell runs for them (the others: `up` on an existing stack). */
export const README_PROGRAMS = ["readme-project", "readme-quick-look"] as const;

/**
 * Every program the README, docs/ and examples/ show as a whole program that runs from this
 * checkout. Not among them: the docs' TypeScript program on the generated Node.js SDK and the Go
 * programs (docs/_index.md, docs/other-languages.md), which need the SDKs built and installed
 * (test/e2e/release.test.ts runs such programs; they make the same plugin calls as the YAML and
 * Python programs here); blocks that are no program (docs/functions.md, docs/resources.md,
 * docs/emulator.md); the README's StackReference app, which calls no service (examples/feed-app,
 * its twin, is here). `sandboxDir`: where projects that need not be in the checkout go;
 * `stackOf`: the name of a program's `existing` stack.
 */
export function badDayPrograms(sandboxDir: string, stackOf: (program: string) => string): BadDayProgram[] {
  const inSandbox = (id: string) => path.join(sandboxDir, "projects", id);
  return [
    {
      id: "readme-project",
      shows: 'README "Use it in your project": index.ts',
      language: "typescript",
      write: (id) => typescriptProject("readme-project", readmeFile("index.ts"), id, true),
      verifies: true,
    },
    {
      id: "readme-quick-look",
      shows: 'README "Quick look"',
      language: "typescript",
      write: (id) => typescriptProject("readme-quick-look", readmeBlock("export = async () =>"), id),
      verifies: true,
    },
    {
      id: "readme-functions",
      shows: 'README "Functions"',
      language: "typescript",
      write: (id) => typescriptProject("readme-functions", readmeBlock("export const dotenv ="), id),
      causes: {
        "missing-network": {
          cause: new RegExp(`No running node\\b[^\\n]*${MISSING_NETWORK}`),
          why: "it declares no Network, only lists the nodes of the id it names: the service lists none",
        },
      },
    },
    {
      id: "docs-index-ts",
      shows: 'docs/_index.md "TypeScript without a plugin"',
      language: "typescript",
      write: (id) =>
        typescriptProject(
          "docs-index-ts",
          docBlock("docs/_index.md", "typescript", 'from "pulumi-blockchain-nodes"'),
          id,
        ),
      succeeds: { "no-running-node": "it indexes no node: an empty list is a normal answer" },
    },
    {
      id: "docs-index-yaml",
      shows: "docs/_index.md YAML",
      language: "yaml",
      write: (id) =>
        pluginProject(
          inSandbox("docs-index-yaml"),
          "yaml",
          docBlock("docs/_index.md", "yaml", "runtime: yaml"),
          id,
        ),
      causes: { "no-running-node": INDEXED_WITHOUT_CHECK.yaml },
    },
    {
      id: "docs-index-python",
      shows: "docs/_index.md Python",
      language: "python",
      write: (id) =>
        pluginProject(
          inSandbox("docs-index-python"),
          "python",
          docBlock("docs/_index.md", "python", "import pulumi"),
          id,
        ),
    },
    {
      id: "docs-languages-yaml",
      shows: 'docs/other-languages.md "YAML"',
      language: "yaml",
      write: (id) =>
        pluginProject(
          inSandbox("docs-languages-yaml"),
          "yaml",
          docBlock("docs/other-languages.md", "yaml", "outputs:\n  firstNodeId"),
          id,
        ),
      causes: { "no-running-node": INDEXED_WITHOUT_CHECK.yaml },
    },
    {
      id: "docs-languages-python",
      shows: 'docs/other-languages.md "Python"',
      language: "python",
      write: (id) =>
        pluginProject(
          inSandbox("docs-languages-python"),
          "python",
          docBlock("docs/other-languages.md", "python", "def first_with_endpoint("),
          id,
        ),
      causes: {
        "no-running-node": {
          cause: new RegExp(`No node of ${EMPTY_NETWORK} shows an HTTPS endpoint`),
          why: "it lists every node, running or not, and says in one line that none shows an endpoint",
        },
      },
    },
    {
      id: "quickstart",
      shows: "examples/quickstart",
      language: "typescript",
      write: (id) => exampleProject("quickstart", { "quickstart:networkId": id }),
      verifies: true,
      causes: {
        "no-running-node": {
          cause: new RegExp(`${EMPTY_NETWORK}[^\\n]*\\bno node`),
          why: "it lists every node, running or not, and says so when there is none",
        },
      },
    },
    {
      id: "feed-app",
      shows: "examples/feed-app",
      language: "typescript",
      write: () =>
        exampleProject("feed-app", {
          "feed-app:quickstartStack": `organization/quickstart/${stackOf("quickstart")}`,
        }),
      reads: "quickstart",
      succeeds: Object.fromEntries(
        BAD_DAYS.map((d) => [d.id, "it reads the quickstart stack's outputs only and calls no service"]),
      ),
    },
    {
      id: "yaml-quickstart",
      shows: "examples/yaml-quickstart",
      language: "yaml",
      write: (id) => exampleProject("yaml-quickstart", { "yaml-quickstart:networkId": id }),
      verifies: true,
      causes: { "no-running-node": INDEXED_WITHOUT_CHECK.yaml },
    },
    {
      id: "python-quickstart",
      shows: "examples/python-quickstart",
      language: "python",
      write: (id) => exampleProject("python-quickstart", { "python-quickstart:networkId": id }),
      verifies: true,
      causes: { "no-running-node": INDEXED_WITHOUT_CHECK.python },
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Judging a run

export type Verb = "preview" | "up";
export type StackState = "new" | "existing";

/** The command line of a verb, as a CI job runs it (docs/ci.md). */
export const VERB_ARGS: Record<Verb, readonly string[]> = {
  preview: ["preview", "--non-interactive"],
  up: ["up", "--yes", "--non-interactive", "--skip-preview"],
};

/** A stack frame as Node.js prints it. */
export const FRAME = /^\s+at .*\(.*:\d+:\d+\)/m;
/** A Python traceback: Pulumi's Python SDK prints one for every failed invoke (noted, not judged). */
const TRACEBACK = /^\s*Traceback \(most recent call last\)/m;
/** The engine's and hosts' lines that follow a failure without naming it. */
const GENERIC =
  /^error: ((preview|update) failed|Resource monitor has terminated, shutting down|an unhandled error occurred: waiting for RPCs.*)$/;

/** The engine's Diagnostics section of an output ("" when it has none). */
export function diagnostics(output: string): string {
  const at = output.indexOf("Diagnostics:");
  if (at < 0) return "";
  const end = output.slice(at).search(/^(Outputs|Resources):/m);
  return end < 0 ? output.slice(at) : output.slice(at, at + end);
}

/**
 * Each error of the Diagnostics with the lines under it (its hint, the YAML host's source lines),
 * up to the end of its resource's section.
 */
function errorBlocks(diag: string): string[] {
  const blocks: string[] = [];
  let open = false;
  for (const line of diag.split("\n")) {
    if (/^\s*error: /.test(line)) {
      blocks.push(line.trim());
      open = true;
    } else if (line === "" || /^ {0,2}\S/.test(line)) {
      open = false; // a section ends, or another begins
    } else if (open) {
      blocks[blocks.length - 1] += `\n${line.trim()}`;
    }
  }
  return blocks;
}

/** The first line of the message the user sees: the first error that names something, else how it ended. */
export function firstLine(run: CommandRun): string {
  if (run.killed) return `killed: ${run.killed}`;
  const errors = errorBlocks(diagnostics(run.output)).map((b) => b.split("\n")[0]);
  const first = errors.find((l) => !GENERIC.test(l)) ?? errors[0];
  if (first) return first;
  return run.code === 0 ? "(succeeded)" : `exit ${run.code}`;
}

/** How a run was judged. */
export interface Verdict {
  /** What it got wrong (empty: it ended as it must). */
  problems: string[];
  /** Why the cause in the program's own words was accepted, when it was. */
  ownWords?: string;
  /** Why it succeeded on a bad day, when it must. */
  succeeds?: string;
  /** What it shows that is not judged: a Python traceback. */
  notes: string[];
}

/**
 * Judges a run: within the bounds; on a bad day, failed with its cause named in the Diagnostics
 * (or succeeded where the program needs nothing the day takes away); healthy (`day` undefined):
 * succeeded; never a Node.js stack frame, `exit code: -1`, or one failure's message twice.
 */
export function judge(
  program: BadDayProgram,
  day: BadDay | undefined,
  verb: Verb,
  run: CommandRun,
  state: StackState = "existing",
): Verdict {
  const problems: string[] = [];
  if (run.killed) problems.push(`killed: ${run.killed}`);
  if (run.seconds > SECONDS_BOUND)
    problems.push(`took ${run.seconds.toFixed(1)} s (bound ${SECONDS_BOUND} s)`);
  for (const [role, mb] of [
    ["program", run.programMb],
    ["provider", run.providerMb],
  ] as const) {
    if (mb > RSS_BOUND_MB)
      problems.push(`its ${role} process reached ${mb.toFixed(0)} MB (bound ${RSS_BOUND_MB} MB)`);
  }
  // A run of a few seconds always shows its program to a sampler: else the sampler is blind.
  if (run.programMb === 0 && run.seconds > 3) problems.push("no program process was sampled");
  const diag = diagnostics(run.output);
  const succeeds = day
    ? (program.succeeds?.[day.id] ?? day.spares?.(program, verb, state))
    : "a healthy service";
  const own = day && (program.causes?.[day.id] ?? (verb === "preview" ? day.preview : undefined));
  if (succeeds !== undefined) {
    if (run.code !== 0) problems.push(`failed (exit ${run.code}) where it must succeed: ${firstLine(run)}`);
  } else if (run.code === 0) {
    problems.push("succeeded on a bad day");
  } else {
    const cause = own?.cause ?? day!.cause;
    if (!cause.test(diag)) problems.push(`its Diagnostics do not name the cause (${cause.source})`);
  }
  const blocks = errorBlocks(diag);
  const twice = blocks.find((b, i) => blocks.indexOf(b) !== i);
  if (twice) problems.push(`a message printed twice: ${twice.split("\n")[0]}`);
  const frame = FRAME.exec(run.output);
  if (frame) problems.push(`a stack frame: ${frame[0].trim()}`);
  if (run.output.includes("exit code: -1")) problems.push('"exit code: -1"');
  return {
    problems,
    ownWords: succeeds === undefined ? own?.why : undefined,
    succeeds: day ? succeeds : undefined,
    notes: TRACEBACK.test(run.output) ? ["Python traceback"] : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Stops: an `up` stopped while the service holds its write

/**
 * The stops: the signals `pulumi` alone gets, 1 s apart (a terminal's Ctrl-C reaches it alone: each
 * plugin has its own process group). Each stops each of {@link STOPPED_PROGRAMS} during an `up` of
 * its existing stack that renames its network (`networkName` changed), once the service holds the
 * PATCH. After one Ctrl-C or SIGTERM, the message says the rename may have been applied.
 */
export const STOPS = {
  "ctrl-c": ["SIGINT"],
  "ctrl-c-twice": ["SIGINT", "SIGINT"],
  sigterm: ["SIGTERM"],
  sigkill: ["SIGKILL"],
} as const satisfies Record<string, readonly NodeJS.Signals[]>;
export type StopId = keyof typeof STOPS;

/** The README's project (TypeScript: Pulumi's dynamic-provider host, which ignores Cancel) and examples/yaml-quickstart (the plugin). */
export const STOPPED_PROGRAMS: readonly string[] = ["readme-project", "yaml-quickstart"];

/**
 * Seconds from the stop until `pulumi` and the package's processes (the providers, a TypeScript
 * program) have ended. The plugin hears the engine's Cancel and cuts the PATCH off at once: 10 s.
 * The dynamic-provider host hears nothing before the run ends, so the PATCH runs to a write's
 * bound (20 s, src/api/options.ts), then the engine ends (1 to 3 s here): 30 s. After a SIGKILL
 * every provider ends on its own (its engine gone) within 20 s, when the process table is read.
 */
export const STOP_SECONDS = { typescript: 30, yaml: 10, python: 10, sigkill: 20 } as const;

// ---------------------------------------------------------------------------------------------
// The matrix

/** One run of the matrix. */
export interface Cell {
  program: string;
  day: BadDayId | "healthy" | `stop: ${StopId}`;
  verb: Verb;
  state: StackState;
}

/** A cell run, judged. */
export interface CellResult extends Cell, Verdict {
  run: CommandRun;
  /** The first line of the message the user sees ({@link firstLine}). */
  firstLine: string;
}

/**
 * The cells of a program on any day: the README's programs ({@link README_PROGRAMS}) every
 * (verb, stack state); the others `up` on an existing stack, the heaviest (it runs the whole
 * program and every lookup, where a preview of a new stack leaves unknown what depends on a
 * resource to create).
 */
export function defaultCells(program: string): ReadonlyArray<readonly [Verb, StackState]> {
  return (README_PROGRAMS as readonly string[]).includes(program)
    ? [
        ["preview", "new"],
        ["up", "new"],
        ["preview", "existing"],
        ["up", "existing"],
      ]
    : [["up", "existing"]];
}

/** Options of {@link BadDayMatrix}. */
export interface MatrixOptions {
  sandbox: EngineSandbox;
  engineDir: string;
  /** The programs to run, ids of {@link badDayPrograms} (default: every one). */
  programs?: readonly string[];
  /** The (verb, stack state) cells of a program (default {@link defaultCells}). */
  cells?: (program: string) => ReadonlyArray<readonly [Verb, StackState]>;
  /** Commands run at once, each on its own stacks (default 2: the CI machine's cores). */
  concurrency?: number;
  /** Told of every bounded command's output as it ends: a label and the text. */
  onOutput?: (label: string, output: string) => void;
  /** Told of each result as it ends, in one line. */
  log?: (line: string) => void;
}

/**
 * The bad-day matrix in one engine sandbox: {@link prepare} makes each program's stacks,
 * {@link runDay} runs a day's cells, {@link close} removes the projects and the stacks' config
 * files (the sandbox holds the rest). `results` holds every run, healthy ones included.
 */
export class BadDayMatrix {
  readonly programs: BadDayProgram[];
  readonly results: CellResult[] = [];
  /** The HTTP methods each program's healthy preview sent to the service, by program and stack state. */
  readonly previewMethods = new Map<string, string[]>();
  /** Every secret of the emulators used (keys, endpoints, credentials), for an audit. */
  readonly secrets = new Set<string>();
  private readonly stackPrefix = `e2e-bad-days-${process.pid}`;
  private readonly checkpoints = new Map<string, string>();
  private readonly configFiles = new Set<string>();
  private readonly configured = new Map<string, string>();
  private readonly cells: (program: string) => ReadonlyArray<readonly [Verb, StackState]>;
  /** Variables of every command: the Python programs'. */
  private env: Record<string, string> = {};

  constructor(private readonly o: MatrixOptions) {
    const all = badDayPrograms(o.sandbox.dir, (program) => this.stackName(program, "existing"));
    const chosen = o.programs ?? all.map((p) => p.id);
    for (const id of chosen) if (!all.some((p) => p.id === id)) throw new Error(`no program ${id}`);
    // A program that reads another's stack needs that one.
    const needed = new Set(chosen.flatMap((id) => [id, all.find((p) => p.id === id)!.reads ?? id]));
    this.programs = all.filter((p) => needed.has(p.id));
    this.cells = o.cells ?? defaultCells;
  }

  /** A program's stack in a state (the names match .gitignore's `examples/*\/Pulumi.e2e*.yaml`). */
  stackName(program: string, state: StackState): string {
    return `${this.stackPrefix}-${program}-${state}`;
  }

  /** The stacks' config files written (in examples/ among others), for an audit. */
  get stackConfigFiles(): string[] {
    return [...this.configFiles];
  }

  /** The stack states a program uses: `existing` always (it is what prepare updates). */
  private states(program: string): StackState[] {
    const used = new Set(this.cells(program).map(([, state]) => state));
    return ["existing", ...(used.has("new") ? (["new"] as const) : [])];
  }

  private cli(cwd: string, args: string[]): Promise<void> {
    return pulumiOk({ engineDir: this.o.engineDir, sandbox: this.o.sandbox, cwd, args, env: this.env });
  }

  /** Runs `tasks`, {@link MatrixOptions.concurrency} at a time. */
  private async pool(tasks: Array<() => Promise<void>>): Promise<void> {
    const queue = [...tasks];
    const worker = async () => {
      for (let task = queue.shift(); task; task = queue.shift()) await task();
    };
    await Promise.all(Array.from({ length: this.o.concurrency ?? 2 }, worker));
  }

  /** The programs in tasks: one that reads another's stack goes with that one. */
  private groups(): BadDayProgram[][] {
    return this.programs
      .filter((p) => !p.reads)
      .map((p) => [p, ...this.programs.filter((r) => r.reads === p.id)]);
  }

  /** Runs `body` with an emulator of its own, its secrets kept for the audit, closed after. */
  private async withEmulator(body: (emulator: RunningEmulator) => Promise<void>): Promise<void> {
    const emulator = await startEmulator({ port: 0 });
    try {
      await body(emulator);
    } finally {
      for (const s of emulator.secrets()) this.secrets.add(s);
      await emulator.close();
    }
  }

  /** Writes the program for `networkId` and sets its stacks' config to match (when it changed). */
  private async configure(program: BadDayProgram, networkId: string): Promise<ProgramProject> {
    const project = program.write(networkId);
    const values = { ...project.config, "blockchain:maxRetries": String(MAX_RETRIES) };
    const key = JSON.stringify(values);
    for (const state of this.states(program.id)) {
      const stack = this.stackName(program.id, state);
      if (this.configured.get(stack) === key) continue;
      const pairs = Object.entries(values).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]);
      await this.cli(project.dir, ["config", "set-all", "--stack", stack, ...pairs]);
      this.configured.set(stack, key);
    }
    return project;
  }

  /** Runs a cell's command, bounded, judges it and records it. */
  private async cell(cell: Cell, day: BadDay | undefined, env: Record<string, string>): Promise<CellResult> {
    const program = this.programs.find((p) => p.id === cell.program)!;
    const project = program.write(day?.networkId ?? HEALTHY_IDS.networkId);
    const run = await runPulumi({
      engineDir: this.o.engineDir,
      sandbox: this.o.sandbox,
      cwd: project.dir,
      args: [...VERB_ARGS[cell.verb], "--stack", this.stackName(cell.program, cell.state)],
      env: { ...this.env, ...env },
      bounded: true,
    });
    const label = `${cell.day} ${cell.program} ${cell.verb} ${cell.state}`;
    this.o.onOutput?.(label, run.output);
    // A killed command leaves its stack locked: unlocked, so that the next day starts.
    if (run.killed)
      await this.cli(project.dir, ["cancel", "--yes", "--stack", this.stackName(cell.program, cell.state)]);
    const result: CellResult = {
      ...cell,
      run,
      firstLine: firstLine(run),
      ...judge(program, day, cell.verb, run, cell.state),
    };
    this.results.push(result);
    this.o.log?.(
      `${label}: ${run.seconds.toFixed(1)} s, program ${run.programMb.toFixed(0)} MB, ` +
        `provider ${run.providerMb.toFixed(0)} MB: ${result.firstLine}` +
        (result.problems.length > 0 ? `\n  PROBLEMS: ${result.problems.join("; ")}` : ""),
    );
    return result;
  }

  /**
   * Makes every program's stacks: `existing` updated once against a healthy emulator (which must
   * succeed), `new` initialized only; exports each checkpoint, which every day starts from.
   * Returns the healthy runs.
   */
  async prepare(): Promise<CellResult[]> {
    if (this.programs.some((p) => p.language === "python"))
      this.env = pythonEnv(this.o.sandbox.dir, this.o.engineDir);
    const healthy: CellResult[] = [];
    await this.pool(
      this.groups().map(
        (group) => () =>
          this.withEmulator(async (emulator) => {
            const env = { BLOCKCHAIN_API_URL: emulator.url, BLOCKCHAIN_API_KEY: emulator.apiKey };
            for (const program of group) {
              const { dir } = program.write(HEALTHY_IDS.networkId);
              for (const state of this.states(program.id)) {
                const stack = this.stackName(program.id, state);
                await this.cli(dir, ["stack", "init", stack]);
                this.configFiles.add(path.join(dir, `Pulumi.${stack}.yaml`));
              }
              await this.configure(program, HEALTHY_IDS.networkId);
              // What a preview sends, on the stack still new and once it exists: reads only.
              const previewed = async (state: StackState) => {
                emulator.resetRequests();
                const cell = {
                  program: program.id,
                  day: "healthy",
                  verb: "preview",
                  state: "existing",
                } as const;
                const preview = await this.cell(cell, undefined, env);
                if (preview.run.code !== 0)
                  throw new Error(
                    `${program.id}: preview on a healthy service failed:\n${preview.run.output}`,
                  );
                // The service's requests: `verify` reads a node at its own endpoint (JSON-RPC is a POST).
                const service = emulator.requests().filter((r) => r.path.startsWith("/v1/"));
                this.previewMethods.set(`${program.id} (${state} stack)`, [
                  ...new Set(service.map((r) => r.method)),
                ]);
              };
              await previewed("new");
              const up = await this.cell(
                { program: program.id, day: "healthy", verb: "up", state: "existing" },
                undefined,
                env,
              );
              healthy.push(up);
              if (up.run.code !== 0)
                throw new Error(`${program.id}: up on a healthy service failed:\n${up.run.output}`);
              await previewed("existing");
              for (const state of this.states(program.id)) {
                const stack = this.stackName(program.id, state);
                const file = path.join(this.o.sandbox.dir, `${stack}.checkpoint.json`);
                await this.cli(dir, ["stack", "export", "--stack", stack, "--file", file]);
                this.checkpoints.set(stack, file);
              }
            }
          }),
      ),
    );
    return healthy;
  }

  /**
   * Runs a day's cells: for each program (with the one reading its stack), an emulator of its
   * own, the stacks put back as {@link prepare} left them, then the day begins and the cells run
   * (the reader's first, while the stack it reads is as prepared).
   */
  async runDay(day: BadDay): Promise<CellResult[]> {
    if (this.checkpoints.size === 0) throw new Error("prepare() first");
    const results: CellResult[] = [];
    await this.pool(
      this.groups().map(
        (group) => () =>
          this.withEmulator(async (emulator) => {
            const key = emulator.apiKey;
            for (const program of group) {
              const { dir } = await this.configure(program, day.networkId);
              for (const state of this.states(program.id)) {
                const stack = this.stackName(program.id, state);
                await this.cli(dir, [
                  "stack",
                  "import",
                  "--stack",
                  stack,
                  "--file",
                  this.checkpoints.get(stack)!,
                ]);
              }
            }
            const env = { BLOCKCHAIN_API_URL: await day.begin(emulator), BLOCKCHAIN_API_KEY: key };
            for (const program of [...group].reverse()) {
              for (const [verb, state] of this.cells(program.id))
                results.push(await this.cell({ program: program.id, day: day.id, verb, state }, day, env));
            }
          }),
      ),
    );
    return results;
  }

  /**
   * Runs {@link STOPS} on {@link STOPPED_PROGRAMS}, each on its existing stack put back as
   * {@link prepare} left it (its lock and rename undone after). A run's seconds are from the stop to
   * the end of the last process of the package; after a SIGKILL its processes are followed 20 s,
   * orphans included, and what is left then is listed and killed.
   */
  async runStops(): Promise<CellResult[]> {
    const results: CellResult[] = [];
    const ofPackage = (p: { role?: Role; argv: string[] }) =>
      p.role === "provider" || p.argv.some((a) => /[\\/]cmd[\\/]run\b/.test(a));
    for (const program of this.programs.filter((p) => STOPPED_PROGRAMS.includes(p.id))) {
      const stack = this.stackName(program.id, "existing");
      const name = `${program.id}:networkName`;
      for (const [stop, signals] of Object.entries(STOPS) as Array<[StopId, readonly NodeJS.Signals[]]>) {
        await this.withEmulator(async (emulator) => {
          const { dir } = await this.configure(program, HEALTHY_IDS.networkId);
          const cli = (...args: string[]) => this.cli(dir, [...args, "--stack", stack]);
          await cli("stack", "import", "--file", this.checkpoints.get(stack)!);
          await cli("config", "set", name, `stopped-${stop}`);
          emulator.setRouteDelays({ networkUpdateMs: 120_000 });
          // The requests as they reach the emulator's server (in this process), and when.
          const port = Number(new URL(emulator.url).port);
          const arrivals: Array<{ at: number; method?: string; request: http.IncomingMessage }> = [];
          const onStart = (m: unknown) => {
            const { request, server } = m as { request: http.IncomingMessage; server: http.Server };
            const at = server.address();
            if (typeof at === "object" && at?.port === port)
              arrivals.push({ at: performance.now(), method: request.method, request });
          };
          channels.subscribe("http.server.request.start", onStart);
          try {
            const env: Record<string, string> = { ...this.env, BLOCKCHAIN_API_URL: emulator.url };
            const o = {
              ...this.o,
              cwd: dir,
              env: Object.assign(env, { BLOCKCHAIN_API_KEY: emulator.apiKey }),
            };
            const when = () => arrivals.some((a) => a.method === "PATCH" && a.request.complete);
            const args = [...VERB_ARGS.up, "--stack", stack];
            const run = await runPulumi({ ...o, args, bounded: true, stop: { signals, when } });
            const { sampler, stoppedAt = Infinity } = run;
            // Followed until the package's processes have ended (after a SIGKILL, for 20 s).
            const until =
              stop === "sigkill" ? stoppedAt + STOP_SECONDS.sigkill * 1000 : performance.now() + 5_000;
            let end = performance.now();
            let alive: Array<{ pid: number; role?: Role; argv: string[] }> = [];
            for (; ; await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS))) {
              const role = (pid: number) => sampler!.seen.get(pid)?.role;
              alive = sampler!.sample().map((pid) => ({ pid, role: role(pid), argv: readArgv(pid) ?? [] }));
              if (alive.some(ofPackage)) end = performance.now();
              if (performance.now() >= until || (stop !== "sigkill" && !alive.some(ofPackage))) break;
            }
            for (const p of alive) {
              try {
                process.kill(p.pid, "SIGKILL"); // none left to the next run
              } catch {
                // it ended meanwhile
              }
            }
            const seconds = (end - stoppedAt) / 1000;
            const bound = stop === "sigkill" ? STOP_SECONDS.sigkill : STOP_SECONDS[program.language];
            const after = arrivals.filter((a) => a.at > stoppedAt).length;
            const left = alive.map(
              (p) => `${path.basename(p.argv[0])}${ofPackage(p) ? ` ${p.argv.slice(1, 2)}` : " (Pulumi's)"}`,
            );
            const problems = [
              ...(run.stoppedAt === undefined ? ["never stopped: the held rename did not arrive"] : []),
              ...(seconds > bound ? [`ended ${seconds.toFixed(1)} s after the stop, past ${bound} s`] : []),
              ...(after > 0 ? [`${after} request(s) reached the service after the stop`] : []),
              ...(alive.some(ofPackage) ? [`still running: ${left.join(", ")}`] : []),
              ...((stop === "ctrl-c" || stop === "sigterm") &&
              !/may have been applied by the service/.test(diagnostics(run.output))
                ? ["its Diagnostics do not say that the rename may have been applied"]
                : []),
              ...(FRAME.test(run.output) ? [`a stack frame: ${FRAME.exec(run.output)![0].trim()}`] : []),
            ];
            const notes = [`${after} requests after the stop`, `left then: ${left.join(", ") || "nothing"}`];
            this.o.onOutput?.(`stop ${stop} ${program.id}`, run.output);
            const printed = firstLine(run).replace(/^exit null$/, "(nothing: pulumi was killed)");
            const cell = { program: program.id, day: `stop: ${stop}` as const, verb: "up" as const };
            results.push({
              ...cell,
              state: "existing",
              run: { ...run, seconds },
              firstLine: printed,
              problems,
              notes,
            });
          } finally {
            channels.unsubscribe("http.server.request.start", onStart);
            await runPulumi({
              ...this.o,
              cwd: dir,
              args: ["cancel", "--yes", "--stack", stack],
              env: this.env,
            });
            await cli("config", "rm", name);
          }
        });
      }
    }
    this.results.push(...results);
    return results;
  }

  /** Removes the TypeScript projects and the stacks' config files. */
  close(): void {
    for (const file of this.configFiles) fs.rmSync(file, { force: true });
    fs.rmSync(PROJECTS, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The table

/** The verdict in a few words: `ok`, why it was accepted, or what went wrong; notes after. */
export function verdictText(r: Verdict): string {
  const verdict =
    r.problems.length > 0
      ? `**FAILED**: ${r.problems.join("; ")}`
      : r.ownWords
        ? `ok, in its own words: ${r.ownWords}`
        : r.succeeds
          ? `ok, succeeds: ${r.succeeds}`
          : "ok";
  return [verdict, ...r.notes].join("; ");
}

/** The results as one Markdown table: the cell, seconds, peak RSS, the first line, the verdict. */
export function resultsTable(results: readonly CellResult[]): string {
  const head = [
    "program",
    "bad day",
    "verb",
    "stack",
    "s",
    "program MB",
    "provider MB",
    "first line the user sees",
    "verdict",
  ];
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const line = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [
    line(head),
    line(head.map(() => "---")),
    ...results.map((r) =>
      line([
        r.program,
        r.day,
        r.verb,
        r.state,
        r.run.seconds.toFixed(1),
        r.run.programMb.toFixed(0),
        r.run.providerMb > 0 ? r.run.providerMb.toFixed(0) : "-",
        r.firstLine.slice(0, 200),
        verdictText(r),
      ]),
    ),
  ].join("\n");
}
