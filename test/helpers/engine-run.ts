/**
 * One engine sandbox for a block of end-to-end tests: runs the engine's CLI or hands options to
 * the Automation API, records everything the engine prints, and audits it with the backend's files.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { findSecrets } from "./audit";
import type { RunningEmulator } from "../../src/emulator";
import { EngineSandbox, engineSandbox, filesUnder, findEngine } from "./engine";

/** What a command printed and how it ended. */
export interface CliResult {
  code: number | null;
  output: string;
}

/** The resources of a stack's state, as `pulumi stack export` prints them. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  protect?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** An engine sandbox for a block of tests, with the record of what the engine printed. */
export class EngineRun {
  readonly transcript: Record<string, string> = {};
  private step = 0;

  private constructor(
    readonly sandbox: EngineSandbox,
    readonly engineDir: string,
  ) {}

  static async start(
    extraEnv: (engineDir: string) => Record<string, string> = () => ({}),
  ): Promise<EngineRun> {
    const found = findEngine();
    if (!("dir" in found)) throw new Error(found.reason);
    return new EngineRun(await engineSandbox(extraEnv(found.dir)), found.dir);
  }

  /** The Automation API's options of a workspace in this sandbox. */
  get workspaceOptions() {
    return { pulumiCommand: this.sandbox.command, envVars: this.sandbox.envVars };
  }

  private label(label: string): string {
    const key = `${++this.step}-${label}`;
    this.transcript[key] = "";
    return key;
  }

  /** Automation API options that record what the command prints. */
  recorded(label: string) {
    const key = this.label(label);
    return {
      color: "never" as const,
      onOutput: (out: string) => (this.transcript[key] += out),
      onError: (err: string) => (this.transcript[key] += err),
    };
  }

  /**
   * Runs the engine's `pulumi` in `cwd`, with `env` on top of the sandbox's variables; never
   * rejects: the exit code is in the result.
   */
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
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, output: this.transcript[key] }));
    });
  }

  /** Runs the engine's `pulumi` in `cwd` and fails with what it printed unless it succeeds. */
  async ok(cwd: string, args: string[], label?: string): Promise<string> {
    const result = await this.cli(cwd, args, label);
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

  /** No secret in the backend's files, in `extraFiles`, or in anything the engine printed. */
  audit(secrets: readonly string[], extraFiles: readonly string[] = []): void {
    const files = [...filesUnder(this.sandbox.backendDir), ...extraFiles.filter((f) => fs.existsSync(f))];
    // The audit reads real state: at least one stack checkpoint.
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
