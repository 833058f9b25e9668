/**
 * Finds the Pulumi engine for the end-to-end tier and gives it the sandbox the demo uses too
 * (`scripts/engine-sandbox.ts`): a `file://` backend, a passphrase secrets provider and
 * `PULUMI_HOME` in temp folders, no update check, no automatic plugin download. Nothing leaves
 * the machine or touches the user's setup.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { createEngineSandbox, type EngineSandbox } from "../../scripts/engine-sandbox";

export type { EngineSandbox } from "../../scripts/engine-sandbox";

/** The engine version the project provisions. */
export const ENGINE_VERSION = "v3.274.1";

function hasEngine(dir: string): boolean {
  return fs.existsSync(path.join(dir, "pulumi")) && fs.existsSync(path.join(dir, "pulumi-language-nodejs"));
}

function onPath(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) if (dir && hasEngine(dir)) return dir;
  return undefined;
}

/** Where the engine is: PULUMI_ENGINE_DIR, else a `pulumi` on PATH, else the project's cache; or why not. */
export function findEngine(): { dir: string } | { reason: string } {
  const explicit = process.env.PULUMI_ENGINE_DIR;
  if (explicit) {
    return hasEngine(explicit)
      ? { dir: explicit }
      : { reason: `PULUMI_ENGINE_DIR=${explicit} holds no pulumi and pulumi-language-nodejs` };
  }
  const fromPath = onPath();
  if (fromPath) return { dir: fromPath };
  const cacheRoot =
    process.env.PULUMI_BLOCKCHAIN_NODES_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-blockchain-nodes");
  const cached = path.join(cacheRoot, "engine", ENGINE_VERSION, "bin");
  if (hasEngine(cached)) return { dir: cached };
  return {
    reason:
      "no Pulumi engine found (no PULUMI_ENGINE_DIR, no pulumi with pulumi-language-nodejs on PATH, no cached build). " +
      "Get one with `bash scripts/pulumi-engine.sh` (builds it from Go modules once, then caches it), " +
      "or install the Pulumi CLI.",
  };
}

/**
 * Returns `describe` or, when no engine is available, a `describe.skip` that prints why.
 * Under CI=true a missing engine is an error: the tier is required there. `needs` names more
 * executables the tests need next to `pulumi` (e.g. `pulumi-language-yaml`, `pulumi-python`): one
 * missing counts as no engine.
 */
export function describeWithEngine(needs: readonly string[] = []): jest.Describe {
  const found = findEngine();
  const missing = "dir" in found ? needs.filter((exe) => !fs.existsSync(path.join(found.dir, exe))) : [];
  const reason =
    "reason" in found
      ? found.reason
      : missing.length > 0
        ? `the engine in ${found.dir} has no ${missing.join(", ")} (bash scripts/pulumi-engine.sh provisions them)`
        : undefined;
  if (reason === undefined) return describe;
  if (process.env.CI === "true" || process.env.CI === "1") {
    throw new Error(`the end-to-end tier is required in CI: ${reason}`);
  }
  console.warn(`skipping the end-to-end tier: ${reason}`);
  return describe.skip;
}

/**
 * Creates the engine sandbox for a test (see `scripts/engine-sandbox.ts`). On top of the
 * sandbox's own variables: no confirmation prompts, and `BLOCKCHAIN_API_KEY` / `BLOCKCHAIN_API_URL`
 * emptied, so that the programs take their settings from the stack's config only. `extraEnv` is
 * set last.
 */
export async function engineSandbox(extraEnv: Record<string, string> = {}): Promise<EngineSandbox> {
  const found = findEngine();
  if (!("dir" in found)) throw new Error(found.reason);
  return createEngineSandbox({
    engineDir: found.dir,
    name: "e2e",
    extraEnv: {
      PULUMI_SKIP_CONFIRMATIONS: "true",
      BLOCKCHAIN_API_KEY: "",
      BLOCKCHAIN_API_URL: "",
      ...extraEnv,
    },
  });
}

/** Every file under a folder (the backend's `.pulumi/`: stacks, history, backups). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

/** The engine's version line, e.g. `v3.274.1`. */
export function engineVersion(engineDir: string): string {
  return execFileSync(path.join(engineDir, "pulumi"), ["version"], {
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  })
    .toString()
    .trim();
}

/** A process as listed by `/proc` (Linux): its id, its parent's id and its command line. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  argv: string[];
}

/** Every live process visible in `/proc` (Linux only; empty elsewhere). Zombies are left out. */
export function listProcesses(): ProcessInfo[] {
  if (!fs.existsSync("/proc/self/stat")) return [];
  const out: ProcessInfo[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue;
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").filter(Boolean);
      out.push({ pid: Number(name), ppid: Number(ppid), argv });
    } catch {
      // the process ended while it was being read
    }
  }
  return out;
}

/** The live descendants of a process (children, grandchildren, ...), from `/proc`. */
export function descendantsOf(rootPid: number, processes: ProcessInfo[] = listProcesses()): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  let parents = new Set([rootPid]);
  while (parents.size > 0) {
    const children = processes.filter((p) => parents.has(p.ppid) && !found.some((f) => f.pid === p.pid));
    found.push(...children);
    parents = new Set(children.map((c) => c.pid));
  }
  return found;
}

/**
 * Sends SIGKILL to a process and to every descendant it has right now (listed first, so that
 * none escapes by being re-parented), each by its id, as a CI runner that cancels a job does.
 * Returns the processes signalled.
 */
export function killProcessTree(rootPid: number): ProcessInfo[] {
  const processes = listProcesses();
  const root = processes.find((p) => p.pid === rootPid);
  const tree = [...(root ? [root] : []), ...descendantsOf(rootPid, processes)];
  for (const p of tree) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return tree;
}
