/**
 * One engine sandbox for a block of e2e tests: runs the CLI or gives the Automation API its
 * options, records everything the engine prints, and audits that and the backend's files for secrets.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import {
  CommandError,
  LocalWorkspace,
  type InlineProgramArgs,
  type LocalProgramArgs,
  type Stack,
} from "@pulumi/pulumi/automation";
import { createEngineSandbox, type EngineSandbox } from "../../scripts/engine-sandbox";
import type { RunningEmulator } from "../../src/emulator";
import { findSecrets } from "./audit";
import { filesUnder, findEngine, killProcessTree, processesOfHome, type ProcessInfo } from "./engine";

/** What a command printed and how it ended. */
export interface CliResult {
  code: number | null;
  output: string;
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
export function emulatorConfig(emulator: RunningEmulator): Config {
  return {
    "blockchain:apiUrl": { value: emulator.url },
    "blockchain:apiKey": { value: emulator.apiKey, secret: true },
  };
}

/** An engine sandbox for a block of tests, with the record of what the engine printed. */
export class EngineRun {
  readonly transcript: Record<string, string> = {};
  /** The stacks made by {@link stack}. */
  readonly stacks: Stack[] = [];
  private step = 0;

  private constructor(
    readonly sandbox: EngineSandbox,
    readonly engineDir: string,
  ) {}

  /**
   * A sandbox (no prompts; `BLOCKCHAIN_API_KEY`/`_URL` emptied so that programs read the stack's
   * config only) with `extraEnv` on top.
   */
  static async start(
    extraEnv: (engineDir: string) => Record<string, string> = () => ({}),
  ): Promise<EngineRun> {
    const found = findEngine();
    if (!("dir" in found)) throw new Error(found.reason);
    const sandbox = await createEngineSandbox({
      engineDir: found.dir,
      name: "e2e",
      extraEnv: {
        PULUMI_SKIP_CONFIRMATIONS: "true",
        BLOCKCHAIN_API_KEY: "",
        BLOCKCHAIN_API_URL: "",
        ...extraEnv(found.dir),
      },
    });
    return new EngineRun(sandbox, found.dir);
  }

  /** The Automation API's options of a workspace in this sandbox. */
  get workspaceOptions() {
    return { pulumiCommand: this.sandbox.command, envVars: this.sandbox.envVars };
  }

  /** A stack of a program on disk or inline (`workDir` for its Pulumi.yaml), with `config` set. */
  async stack(
    args: LocalProgramArgs | (InlineProgramArgs & { workDir?: string }),
    config: Config = {},
  ): Promise<Stack> {
    const stack =
      "program" in args
        ? await LocalWorkspace.createOrSelectStack(args, { ...this.workspaceOptions, workDir: args.workDir })
        : await LocalWorkspace.createOrSelectStack(args, this.workspaceOptions);
    this.stacks.push(stack);
    await stack.setAllConfig(config);
    return stack;
  }

  /**
   * Removes the sandbox, and the stacks of projects outside it (their config files with them).
   * Nothing is destroyed: the resources live in an emulator that goes away too.
   */
  async close(): Promise<void> {
    for (const stack of this.stacks) {
      if (stack.workspace.workDir.startsWith(this.sandbox.dir)) continue;
      await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    }
    const left = this.stopLeftovers();
    this.sandbox.cleanup();
    if (left.length > 0)
      console.warn(
        `e2e: ${left.length} process(es) of the engine sandbox still ran at its close, killed:\n` +
          left.map((p) => `  ${p.pid} (parent ${p.ppid}) ${p.argv.join(" ").slice(0, 160)}`).join("\n"),
      );
  }

  /**
   * SIGKILLs what this sandbox's engines left running: each `pulumi` the run started (a command
   * a test gave up on, or whose output nobody read), with its tree; then any other process with
   * this sandbox's PULUMI_HOME (a provider whose engine was killed while it was starting, now a
   * child of init). Returns them. Linux; elsewhere only the commands' trees.
   */
  stopLeftovers(): ProcessInfo[] {
    const killed = [...this.running].flatMap((pid) => killProcessTree(pid));
    this.running.clear();
    if (!fs.existsSync("/proc/self/environ")) return killed;
    return [...killed, ...processesOfHome(this.sandbox.homeDir).flatMap((p) => killProcessTree(p.pid))];
  }

  /** The `pulumi` commands of {@link cli} still running. */
  private readonly running = new Set<number>();

  private label(label: string): string {
    const key = `${++this.step}-${label}`;
    this.transcript[key] = "";
    return key;
  }

  /** Automation API options that record what the command prints. */
  recorded(label: string) {
    return this.recordTo(this.label(label));
  }

  private recordTo(key: string) {
    return {
      color: "never" as const,
      onOutput: (out: string) => (this.transcript[key] += out),
      onError: (err: string) => (this.transcript[key] += err),
    };
  }

  /** Runs an Automation API command that must fail; returns what the engine printed. */
  async failure(
    label: string,
    command: (options: ReturnType<EngineRun["recorded"]>) => Promise<unknown>,
  ): Promise<string> {
    const key = this.label(label);
    const error = await command(this.recordTo(key)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CommandError);
    return this.transcript[key];
  }

  /** Runs `pulumi` in `cwd` with `env` over the sandbox's; never rejects: the exit code is in the result. */
  cli(
    cwd: string,
    args: string[],
    label = args.slice(0, 2).join(" "),
    env: Record<string, string> = {},
  ): Promise<CliResult> {
    const key = this.label(label);
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(this.engineDir, "pulumi"), [...args, "--color=never"], {
        cwd,
        env: { ...process.env, ...this.sandbox.envVars, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const collect = (chunk: Buffer) => (this.transcript[key] += chunk.toString());
      if (child.pid !== undefined) this.running.add(child.pid);
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      child.on("error", reject);
      child.on("close", (code) => {
        if (child.pid !== undefined) this.running.delete(child.pid);
        resolve({ code, output: this.transcript[key] });
      });
    });
  }

  /** Runs `pulumi` in `cwd` and fails with what it printed unless it succeeds. */
  async ok(cwd: string, args: string[], label?: string, env?: Record<string, string>): Promise<string> {
    const result = await this.cli(cwd, args, label, env);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited with ${result.code}:\n${result.output}`);
    return result.output;
  }

  /** A new stack of the project in `cwd` (CLI), talking to the emulator with its primary key. */
  async initStack(cwd: string, stack: string, emulator: RunningEmulator): Promise<void> {
    await this.ok(cwd, ["stack", "init", stack]);
    await this.ok(cwd, ["config", "set", "blockchain:apiUrl", emulator.url]);
    await this.ok(cwd, ["config", "set", "--secret", "blockchain:apiKey", emulator.apiKey]);
  }

  /** The resources of the selected stack of the project in `cwd`. */
  async state(cwd: string): Promise<StateResource[]> {
    const exported = JSON.parse(await this.ok(cwd, ["stack", "export"]));
    return (exported.deployment.resources ?? []) as StateResource[];
  }

  /**
   * No secret in the backend's files (at least one stack checkpoint among them), in
   * `extraFiles`, or in anything the engine printed.
   */
  audit(secrets: readonly string[], extraFiles: readonly string[] = []): void {
    const files = [...filesUnder(this.sandbox.backendDir), ...extraFiles.filter((f) => fs.existsSync(f))];
    expect(files.some((f) => f.includes(`${path.sep}stacks${path.sep}`) && f.endsWith(".json"))).toBe(true);
    expect(Object.values(this.transcript).join("").length).toBeGreaterThan(0);
    expect(findSecrets(secrets, { files, texts: this.transcript })).toEqual([]);
  }
}

/** The state's resource of a type and name. */
export function resource(state: StateResource[], type: string, name: string): StateResource {
  const found = state.find((r) => r.type === type && r.urn.endsWith(`::${type}::${name}`));
  if (!found) throw new Error(`no ${type} ${name} in state: ${state.map((r) => r.urn).join(", ")}`);
  return found;
}

/** The change kinds of a preview other than `same` (the kinds with a count above 0). */
export function changes(summary: Record<string, number | undefined>): string[] {
  return Object.keys(summary).filter((k) => k !== "same" && (summary[k] ?? 0) > 0);
}

/** `pulumi plugin ls` of the run's sandbox lists the `blockchain` resource plugin at `version`. */
export async function expectPluginListed(run: EngineRun, version: string): Promise<void> {
  const listed = JSON.parse(await run.ok(run.sandbox.dir, ["plugin", "ls", "--json"])) as Array<{
    name: string;
    kind: string;
    version: string;
  }>;
  expect(listed).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: "blockchain", kind: "resource", version })]),
  );
}
