/**
 * The one engine runner of the e2e tests and the scripts: finds the engine (`scripts/pulumi-engine.sh`),
 * provisions a sandbox (temp `file://` backend and `PULUMI_HOME`, passphrase secrets, no update check or
 * plugin download), runs `pulumi` or the Automation API there, samples a command's process tree from
 * `/proc` and kills a tree without letting any of it escape.
 */
import { execFileSync, spawn } from "child_process";
import * as channels from "diagnostics_channel";
import * as fs from "fs";
import type * as http from "http";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import {
  CommandError,
  LocalWorkspace,
  PulumiCommand,
  type InlineProgramArgs,
  type LocalProgramArgs,
  type Stack,
} from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../src/emulator";
import { findSecrets } from "../test/helpers/audit";
import { ROOT } from "./doc-blocks";

export { ROOT };

/** The engine version the project provisions: the `pkg/v3` that tools/pulumi-engine/cli/go.mod requires. */
export const ENGINE_VERSION = /^\s*(?:require\s+)?github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/m.exec(
  fs.readFileSync(path.join(ROOT, "tools", "pulumi-engine", "cli", "go.mod"), "utf8"),
)![1];

const hasEngine = (dir: string): boolean =>
  fs.existsSync(path.join(dir, "pulumi")) && fs.existsSync(path.join(dir, "pulumi-language-nodejs"));

/** The folder `scripts/pulumi-engine.sh` builds the engine into. */
function cachedEngine(): string {
  const cacheRoot =
    process.env.PULUMI_BLOCKCHAIN_NODES_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-blockchain-nodes");
  return path.join(cacheRoot, "engine", ENGINE_VERSION, "bin");
}

/** Where the engine is: PULUMI_ENGINE_DIR, else a `pulumi` on PATH, else the project's cache; or why not. */
export function findEngine(): { dir: string } | { reason: string } {
  const explicit = process.env.PULUMI_ENGINE_DIR;
  if (explicit)
    return hasEngine(explicit)
      ? { dir: explicit }
      : { reason: `PULUMI_ENGINE_DIR=${explicit} holds no pulumi and pulumi-language-nodejs` };
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), cachedEngine()];
  const dir = dirs.find((d) => d && hasEngine(d));
  if (dir) return { dir };
  return {
    reason:
      "no Pulumi engine found (no PULUMI_ENGINE_DIR, no pulumi with pulumi-language-nodejs on PATH, no cached build): " +
      "run `bash scripts/pulumi-engine.sh`",
  };
}

/** The engine's folder for a script: PULUMI_ENGINE_DIR, else the cache, built by `scripts/pulumi-engine.sh` if need be. */
export function provisionEngine(): string {
  if (process.env.PULUMI_ENGINE_DIR) return process.env.PULUMI_ENGINE_DIR;
  if (hasEngine(cachedEngine())) return cachedEngine();
  const out = execFileSync("bash", [path.join(ROOT, "scripts", "pulumi-engine.sh")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.toString().trim().split("\n").pop()!;
}

/** The engine's version line, e.g. `v3.274.1`. */
export function engineVersion(engineDir: string): string {
  const env = { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" };
  return String(execFileSync(path.join(engineDir, "pulumi"), ["version"], { env })).trim();
}

/** A sandbox: its temp folder (a workspace may use it as its work dir), the engine's variables and command. */
export interface EngineSandbox {
  dir: string;
  backendDir: string;
  homeDir: string;
  engineDir: string;
  envVars: Record<string, string>;
  command: PulumiCommand;
  cleanup(): void;
}

/** PATH for the engine: the engine, then `@pulumi/pulumi` (its dynamic providers' plugin) of `nodeModules` or this checkout. */
export function enginePath(engineDir: string, nodeModules?: string): string {
  const pulumiDir = nodeModules
    ? path.join(nodeModules, "@pulumi", "pulumi")
    : path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  return [engineDir, pulumiDir, process.env.PATH ?? ""].join(path.delimiter);
}

/**
 * The variables of Python programs: the engine's `pulumi-python`, and `sdk/python` laid out in `dir` as pip
 * installs it (package and metadata) on `PYTHONPATH` (pip would need `wheel`, which the engine's Python lacks).
 */
export function pythonEnv(dir: string, engineDir: string): Record<string, string> {
  const sdk = path.join(ROOT, "sdk", "python");
  const version = /^\s*version = "([^"]+)"/m.exec(
    fs.readFileSync(path.join(sdk, "pyproject.toml"), "utf8"),
  )?.[1];
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

/**
 * A port on 127.0.0.1 where nothing listens, and nothing will while a test uses it: below the range the
 * OS hands out for port 0 (every server of the tests and the engine asks for port 0), checked free.
 */
export async function closedPort(): Promise<number> {
  const range = "/proc/sys/net/ipv4/ip_local_port_range";
  const low = fs.existsSync(range) ? Number(fs.readFileSync(range, "utf8").trim().split(/\s+/)[0]) : 32768;
  for (let port = low - 1; port > 1024; port--) {
    const server = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (!free) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
  throw new Error(`no free port on 127.0.0.1 below ${low}`);
}

/** Every file under a folder (the backend's `.pulumi/`: stacks, history, backups). */
export const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? [] : [path.join(e.parentPath, e.name)]));

export type ProcessInfo = { pid: number; ppid: number; argv: string[] };

/** A file of a process in `/proc`; undefined once the process has ended. */
function procFile(pid: number | string, name: string): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/${name}`, "utf8");
  } catch {
    return undefined;
  }
}

/** Every live process in `/proc`, zombies left out. */
export function listProcesses(): ProcessInfo[] {
  return fs.readdirSync("/proc").flatMap((name) => {
    const [stat, cmdline] = /^\d+$/.test(name) ? [procFile(name, "stat"), procFile(name, "cmdline")] : [];
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
    const [state, ppid] = stat?.slice(stat.lastIndexOf(")") + 2).split(" ") ?? ["Z"];
    if (state === "Z" || cmdline === undefined) return [];
    return [{ pid: Number(name), ppid: Number(ppid), argv: cmdline.split("\0").filter(Boolean) }];
  });
}

/** The resident memory of a process, MB; undefined once it has ended. */
export function residentMb(pid: number): number | undefined {
  const status = procFile(pid, "status");
  const kb = status && !/^State:\s+Z/m.test(status) ? /^VmRSS:\s+(\d+)\s+kB/m.exec(status) : null;
  return kb ? Number(kb[1]) / 1024 : undefined;
}

const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
};

/**
 * SIGKILLs processes and all their descendants, as a CI runner cancelling a job does: each SIGSTOPped as
 * found and the tree listed again until no new one shows, so none forks away. Returns those signalled.
 */
export function killProcessTree(...rootPids: number[]): ProcessInfo[] {
  const tree = listProcesses().filter((p) => rootPids.includes(p.pid));
  const seen = new Set(tree.map((p) => p.pid));
  for (const p of tree) signal(p.pid, "SIGSTOP");
  for (let children = tree; children.length > 0;) {
    children = listProcesses().filter((p) => seen.has(p.ppid) && !seen.has(p.pid));
    for (const child of children) {
      signal(child.pid, "SIGSTOP");
      seen.add(child.pid);
      tree.push(child);
    }
  }
  for (const p of tree) signal(p.pid, "SIGKILL");
  return tree;
}

export type Role = "program" | "provider";

/** The role by command line: the program (nodejs `…/cmd/run`, the YAML host, Python's `-exec`) or a provider. */
export function roleOf(argv: readonly string[]): Role | undefined {
  const base = (a: string) => path.basename(a);
  if (argv.some((a) => /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]run([\\/]index\.js)?$/.test(a))) return "program";
  if (argv.length > 0 && base(argv[0]) === "pulumi-language-yaml") return "program";
  if (argv.some((a) => base(a) === "pulumi-language-python-exec")) return "program";
  if (argv.some((a) => /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(a))) return "provider";
  if (argv.some((a) => /pulumi-resource-blockchain(\.js)?$/.test(a))) return "provider";
  return undefined;
}

/** A process of this package: a provider, or a TypeScript program (`…/cmd/run`); not Pulumi's own hosts. */
export const ofPackage = (p: ProcessInfo & { role?: Role }): boolean =>
  p.role === "provider" || p.argv.some((a) => /[\\/]cmd[\\/]run\b/.test(a));

/** The peak RSS of each {@link Role} among a process's descendants (followed until they end, orphans too). */
export class TreeSampler {
  /** Peak MB by role (0: none seen), and the command line of the process that reached it. */
  readonly peaks: Record<Role, { mb: number; argv: string[] }> = {
    program: { mb: 0, argv: [] },
    provider: { mb: 0, argv: [] },
  };
  private readonly followed = new Set<number>();

  constructor(readonly root: number) {}

  /** Samples once; returns the descendants and the processes followed that are alive now, with their roles. */
  sample(): Array<ProcessInfo & { role?: Role }> {
    const all = listProcesses();
    for (let level = [this.root]; level.length > 0;) {
      // Through the processes followed too: a program starts under its language host after it.
      level = all.filter((p) => level.includes(p.ppid)).map((p) => p.pid);
      level.forEach((pid) => this.followed.add(pid));
    }
    return all
      .filter((p) => this.followed.has(p.pid))
      .map((p) => {
        // Read every time: before its exec, a child has its parent's command line.
        const role = roleOf(p.argv);
        const mb = role && residentMb(p.pid);
        if (role && mb !== undefined && mb > this.peaks[role].mb) this.peaks[role] = { mb, argv: p.argv };
        return { ...p, role };
      });
  }

  /**
   * Samples every 200 ms until `until` (`performance.now()` ms) or, `untilGone`, no process `matches`; then
   * SIGKILLs what is left. Returns when a process that `matches` was last seen alive, and what was left.
   */
  async follow(matches: (p: ProcessInfo & { role?: Role }) => boolean, until: number, untilGone: boolean) {
    let [end, alive] = [performance.now(), this.sample()];
    while (performance.now() < until && (!untilGone || alive.some(matches))) {
      if (alive.some(matches)) end = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
      alive = this.sample();
    }
    killProcessTree(...alive.map((p) => p.pid));
    return { end, alive };
  }
}

export interface CommandRun {
  args: string[];
  code: number | null;
  /** stdout and stderr, interleaved as they came; stdout alone. */
  output: string;
  stdout: string;
  seconds: number;
  /** Peak RSS, MB, of the program's process and of the providers serving it (0: none sampled). */
  programMb: number;
  providerMb: number;
  /** Why it was killed, when a bound was passed. */
  killed?: string;
  /** When it was stopped ({@link RunOptions.stop}), `performance.now()` ms. */
  stoppedAt?: number;
  /** Its sampler, when sampled: to follow what is left after the command ended. */
  sampler?: TreeSampler;
}

export interface RunOptions {
  /** Variables over the sandbox's. */
  env?: Record<string, string>;
  /** Its tree sampled every 200 ms; the command and its tree SIGKILLed past `seconds` or `mb` (one process). */
  bounds?: { seconds: number; mb: number };
  /** Signals sent to `pulumi` alone, 1 s apart, once `when()` holds at a sample. */
  stop?: { signals: readonly NodeJS.Signals[]; when: () => boolean };
}

/** The engine's Diagnostics section of an output ("" when it has none). */
export function diagnostics(output: string): string {
  const at = output.indexOf("Diagnostics:");
  if (at < 0) return "";
  const end = output.slice(at).search(/^(Outputs|Resources):/m);
  return end < 0 ? output.slice(at) : output.slice(at, at + end);
}

/** Each error of the Diagnostics with its lines under it, to the end of its resource's section. */
export function errorBlocks(output: string): string[] {
  const blocks: string[] = [];
  let open = false;
  for (const line of diagnostics(output).split("\n")) {
    const starts = /^\s*error: /.test(line);
    if (starts) blocks.push(line.trim());
    else if (open && line !== "" && !/^ {0,2}\S/.test(line)) blocks[blocks.length - 1] += `\n${line.trim()}`;
    open = starts || (open && line !== "" && !/^ {0,2}\S/.test(line));
  }
  return blocks;
}

/** The engine's and hosts' lines that follow a failure without naming it. */
const GENERIC =
  /^error: ((preview|update) failed|Resource monitor has terminated, shutting down|an unhandled error occurred: waiting for RPCs.*)$/;
/** A stack frame as Node.js prints it. */
export const FRAME = /^\s+at .*\(.*:\d+:\d+\)/m;

/** The first line of the message the user sees: the first error that names something, else how it ended. */
export function firstLine(run: CommandRun): string {
  if (run.killed) return `killed: ${run.killed}`;
  const errors = errorBlocks(run.output).map((b) => b.split("\n")[0]);
  return (
    errors.find((l) => !GENERIC.test(l)) ?? errors[0] ?? (run.code === 0 ? "(succeeded)" : `exit ${run.code}`)
  );
}

/** The requests as they reach a server of this process at `url` when each arrives (before its body is read); `end()` stops watching. */
export function arrivals(url: string) {
  const port = Number(new URL(url).port);
  const seen: Array<{ at: number; request: http.IncomingMessage }> = [];
  const onStart = (m: unknown) => {
    const { request, server } = m as { request: http.IncomingMessage; server: http.Server };
    const at = server.address();
    if (typeof at === "object" && at?.port === port) seen.push({ at: performance.now(), request });
  };
  channels.subscribe("http.server.request.start", onStart);
  return { seen, end: () => channels.unsubscribe("http.server.request.start", onStart) };
}

/** A resource of a stack's state, as `pulumi stack export` prints it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  protect?: boolean;
  retainOnDelete?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

type Config = Record<string, { value: string; secret?: boolean }>;

/** The stack config that points the provider at an emulator with its primary key. */
export function emulatorConfig(emulator: Pick<RunningEmulator, "url" | "apiKey">): Config {
  return {
    "blockchain:apiUrl": { value: emulator.url },
    "blockchain:apiKey": { value: emulator.apiKey, secret: true },
  };
}

/** An engine sandbox for a block of work: runs `pulumi` and the Automation API, records what they print. */
export class EngineRun {
  readonly transcript: Record<string, string> = {};
  readonly stacks: Stack[] = [];
  private readonly running = new Set<number>();
  private step = 0;

  private constructor(
    readonly sandbox: EngineSandbox,
    readonly engineDir: string,
  ) {}

  /**
   * A sandbox in `<tmp>/pulumi-blockchain-nodes-<name>-*` (passphrase `<name>-passphrase`, no prompts,
   * `BLOCKCHAIN_API_*` emptied), `extraEnv` over its variables, on `engineDir` or {@link findEngine}'s.
   */
  static async start(
    extraEnv: (engineDir: string) => Record<string, string> = () => ({}),
    name = "e2e",
    engineDir?: string,
  ): Promise<EngineRun> {
    const found = engineDir ? { dir: engineDir } : findEngine();
    if (!("dir" in found)) throw new Error(found.reason);
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-blockchain-nodes-${name}-`)));
    const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
    try {
      const [backendDir, homeDir] = [path.join(dir, "state"), path.join(dir, "home")];
      for (const d of [backendDir, homeDir]) fs.mkdirSync(d);
      const envVars = {
        PATH: enginePath(found.dir),
        PULUMI_HOME: homeDir,
        PULUMI_BACKEND_URL: `file://${backendDir}`,
        PULUMI_CONFIG_PASSPHRASE: `${name}-passphrase`,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
        ...{ PULUMI_SKIP_CONFIRMATIONS: "true", BLOCKCHAIN_API_KEY: "", BLOCKCHAIN_API_URL: "" },
        ...extraEnv(found.dir),
      };
      const command = await PulumiCommand.get({ root: path.dirname(found.dir), skipVersionCheck: true });
      const sandbox = { dir, backendDir, homeDir, engineDir: found.dir, envVars, command, cleanup };
      return new EngineRun(sandbox, found.dir);
    } catch (error) {
      cleanup();
      throw error;
    }
  }

  /** A stack of a program on disk or inline (`workDir` for its Pulumi.yaml), with `config` set. */
  async stack(
    args: LocalProgramArgs | (InlineProgramArgs & { workDir?: string }),
    config: Config = {},
  ): Promise<Stack> {
    // A program on disk has its workDir in `args`; an inline one, in the workspace's options.
    const { command: pulumiCommand, envVars } = this.sandbox;
    const options = { pulumiCommand, envVars, workDir: "program" in args ? args.workDir : undefined };
    const stack = await LocalWorkspace.createOrSelectStack(args as InlineProgramArgs, options);
    this.stacks.push(stack);
    await stack.setAllConfig(config);
    return stack;
  }

  /** Removes the sandbox and the stacks of projects outside it; nothing is destroyed (the emulator goes too). */
  async close(): Promise<void> {
    for (const stack of this.stacks) {
      if (stack.workspace.workDir.startsWith(this.sandbox.dir)) continue;
      await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    }
    const left = this.stopLeftovers();
    this.sandbox.cleanup();
    if (left.length > 0)
      console.warn(
        `${left.length} process(es) of the engine sandbox still ran at its close, killed:\n` +
          left.map((p) => `  ${p.pid} (parent ${p.ppid}) ${p.argv.join(" ").slice(0, 160)}`).join("\n"),
      );
  }

  /**
   * SIGKILLs each `pulumi` of {@link run} still running, with its tree, then any process with this
   * `PULUMI_HOME` in its environment: all of the sandbox's, orphans too.
   */
  stopLeftovers(): ProcessInfo[] {
    const killed = killProcessTree(...this.running);
    this.running.clear();
    const marker = `\0PULUMI_HOME=${this.sandbox.homeDir}\0`;
    const ofHome = listProcesses().filter(
      (p) => p.pid !== process.pid && `\0${procFile(p.pid, "environ")}`.includes(marker),
    );
    return [...killed, ...killProcessTree(...ofHome.map((p) => p.pid))];
  }

  /** Automation API options that record what the command prints (under `key` of the transcript). */
  recorded(label: string) {
    const key = `${++this.step}-${label}`;
    this.transcript[key] = "";
    const onOutput = (out: string) => (this.transcript[key] += out);
    return { color: "never" as const, onOutput, onError: onOutput, key };
  }

  /** Runs an Automation API command that must fail (a CommandError); returns what the engine printed. */
  async failure(
    label: string,
    command: (options: ReturnType<EngineRun["recorded"]>) => Promise<unknown>,
  ): Promise<string> {
    const options = this.recorded(label);
    const error = await command(options).then(
      () => new Error(`${label}: succeeded where it must fail`),
      (e: unknown) => e,
    );
    if (!(error instanceof CommandError)) throw error;
    return this.transcript[options.key];
  }

  /** Runs `pulumi <args> --color=never` in `cwd`, recorded under `label`; never rejects for an exit code. */
  run(cwd: string, args: readonly string[], o: RunOptions & { label?: string } = {}): Promise<CommandRun> {
    const { onOutput } = this.recorded(o.label ?? args.slice(0, 2).join(" "));
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(this.sandbox.engineDir, "pulumi"), [...args, "--color=never"], {
        cwd,
        env: { ...process.env, ...this.sandbox.envVars, ...o.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const pid = child.pid;
      if (pid !== undefined) this.running.add(pid);
      let [output, stdout] = ["", ""];
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        onOutput(chunk.toString());
      };
      child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk.toString()), collect(chunk)));
      child.stderr.on("data", collect);
      const sampler = o.bounds && pid !== undefined ? new TreeSampler(pid) : undefined;
      let killed: string | undefined;
      let stoppedAt: number | undefined;
      const timer =
        sampler &&
        setInterval(() => {
          const alive = sampler.sample();
          if (o.stop && stoppedAt === undefined && o.stop.when()) {
            stoppedAt = performance.now();
            o.stop.signals.forEach((s, i) => setTimeout(() => child.kill(s), i * 1000));
          }
          const over = Object.values(sampler.peaks).find((p) => p.mb > o.bounds!.mb);
          const why = over
            ? `a process passed ${o.bounds!.mb} MB: ${over.argv.join(" ").slice(0, 160)}`
            : performance.now() - started > o.bounds!.seconds * 1000
              ? `still running after ${o.bounds!.seconds} s`
              : undefined;
          if (why && killed === undefined) {
            killed = why;
            killProcessTree(pid!, ...alive.map((p) => p.pid));
          }
        }, 200);
      child.on("error", (error) => {
        clearInterval(timer);
        reject(error);
      });
      child.on("close", (code) => {
        clearInterval(timer);
        if (pid !== undefined) this.running.delete(pid);
        const [programMb, providerMb] = [sampler?.peaks.program.mb ?? 0, sampler?.peaks.provider.mb ?? 0];
        const ended = { code, output, stdout, seconds: (performance.now() - started) / 1000 };
        resolve({ args: [...args], ...ended, programMb, providerMb, killed, stoppedAt, sampler });
      });
    });
  }

  /** Runs `pulumi` in `cwd` with `env` over the sandbox's; never rejects: the exit code is in the result. */
  cli(cwd: string, args: string[], label?: string, env: Record<string, string> = {}): Promise<CommandRun> {
    return this.run(cwd, args, { label, env });
  }

  /** Runs `pulumi` in `cwd` and fails with what it printed unless it succeeds. */
  async ok(cwd: string, args: string[], label?: string, env?: Record<string, string>): Promise<string> {
    const result = await this.cli(cwd, args, label, env);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited with ${result.code}:\n${result.output}`);
    return result.output;
  }

  /** A new stack of the project in `cwd` (CLI), talking to the emulator with its primary key. */
  async initStack(
    cwd: string,
    stack: string,
    emulator: Pick<RunningEmulator, "url" | "apiKey">,
  ): Promise<void> {
    await this.ok(cwd, ["stack", "init", stack]);
    await this.ok(cwd, ["config", "set", "blockchain:apiUrl", emulator.url]);
    await this.ok(cwd, ["config", "set", "--secret", "blockchain:apiKey", emulator.apiKey]);
  }

  /** The resources of the selected stack of the project in `cwd`. */
  async state(cwd: string): Promise<StateResource[]> {
    const exported = JSON.parse(await this.ok(cwd, ["stack", "export"]));
    return (exported.deployment.resources ?? []) as StateResource[];
  }

  /** Fails unless there is a checkpoint and a transcript, or if a secret is in them or `extraFiles`. */
  audit(secrets: readonly string[], extraFiles: readonly string[] = []): void {
    const files = [...filesUnder(this.sandbox.backendDir), ...extraFiles.filter((f) => fs.existsSync(f))];
    if (!files.some((f) => f.includes(`${path.sep}stacks${path.sep}`) && f.endsWith(".json")))
      throw new Error(`audit: no stack checkpoint among the backend's files: ${files.join(", ")}`);
    if (Object.values(this.transcript).join("").length === 0)
      throw new Error("audit: the engine printed nothing");
    const found = findSecrets(secrets, { files, texts: this.transcript });
    if (found.length > 0) throw new Error(`audit: secrets found: ${JSON.stringify(found)}`);
  }
}

export function resource(state: StateResource[], type: string, name: string): StateResource {
  const found = state.find((r) => r.type === type && r.urn.endsWith(`::${type}::${name}`));
  if (!found) throw new Error(`no ${type} ${name} in state: ${state.map((r) => r.urn).join(", ")}`);
  return found;
}

/** The change kinds of a preview other than `same` (the kinds with a count above 0). */
export function changes(summary: Record<string, number | undefined>): string[] {
  return Object.keys(summary).filter((k) => k !== "same" && (summary[k] ?? 0) > 0);
}
