/** Finds the Pulumi engine for the e2e tier; the sandbox it runs in is `scripts/engine-sandbox.ts`. */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export type { EngineSandbox } from "../../scripts/engine-sandbox";

/** The engine version the project provisions. */
export const ENGINE_VERSION = "v3.274.1";

function hasEngine(dir: string): boolean {
  return fs.existsSync(path.join(dir, "pulumi")) && fs.existsSync(path.join(dir, "pulumi-language-nodejs"));
}

/** Where the engine is: PULUMI_ENGINE_DIR, else a `pulumi` on PATH, else the project's cache; or why not. */
export function findEngine(): { dir: string } | { reason: string } {
  const explicit = process.env.PULUMI_ENGINE_DIR;
  if (explicit) {
    return hasEngine(explicit)
      ? { dir: explicit }
      : { reason: `PULUMI_ENGINE_DIR=${explicit} holds no pulumi and pulumi-language-nodejs` };
  }
  const fromPath = (process.env.PATH ?? "").split(path.delimiter).find((dir) => dir && hasEngine(dir));
  if (fromPath) return { dir: fromPath };
  const cacheRoot =
    process.env.PULUMI_BLOCKCHAIN_NODES_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-blockchain-nodes");
  const cached = path.join(cacheRoot, "engine", ENGINE_VERSION, "bin");
  if (hasEngine(cached)) return { dir: cached };
  return {
    reason:
      "no Pulumi engine found (no PULUMI_ENGINE_DIR, no pulumi with pulumi-language-nodejs on PATH, no cached build): " +
      "run `bash scripts/pulumi-engine.sh`",
  };
}

/**
 * `describe`, or `describe.skip` printing why when the engine or one of `needs` is missing: more
 * executables next to `pulumi` (`pulumi-language-yaml`, ...) or absolute paths (`/proc/self/stat`).
 * Under CI=true a missing piece is an error: the tier is required there.
 */
export function describeWithEngine(needs: readonly string[] = []): jest.Describe {
  const found = findEngine();
  const missing = "dir" in found ? needs.filter((need) => !fs.existsSync(path.resolve(found.dir, need))) : [];
  const reason =
    "reason" in found
      ? found.reason
      : missing.length > 0
        ? `no ${missing.join(", ")} (bash scripts/pulumi-engine.sh provisions the engine's)`
        : undefined;
  if (reason === undefined) return describe;
  if (process.env.CI === "true" || process.env.CI === "1") {
    throw new Error(`the end-to-end tier is required in CI: ${reason}`);
  }
  console.warn(`skipping the end-to-end tier: ${reason}`);
  return describe.skip;
}

/** Every file under a folder (the backend's `.pulumi/`: stacks, history, backups). */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
}

/** The engine's version line, e.g. `v3.274.1`. */
export function engineVersion(engineDir: string): string {
  return execFileSync(path.join(engineDir, "pulumi"), ["version"], {
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  })
    .toString()
    .trim();
}

/** A process as `/proc` lists it (Linux). */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  argv: string[];
}

/** Every live process in `/proc`, zombies left out. */
export function listProcesses(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
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

const signal = (pid: number, name: NodeJS.Signals): void => {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
};

/**
 * SIGKILLs a process and every descendant it has, as a CI runner cancelling a job does. Each is
 * stopped (SIGSTOP) as it is found, and the tree listed again until no new one shows: a stopped
 * process starts no other, so none escapes (a provider forked between a listing and the kill
 * would live on, its engine gone, before it ever got a call). Returns the processes signalled.
 */
export function killProcessTree(rootPid: number): ProcessInfo[] {
  const tree = listProcesses().filter((p) => p.pid === rootPid);
  const seen = new Set(tree.map((p) => p.pid));
  for (const p of tree) signal(p.pid, "SIGSTOP");
  for (let found = tree.length > 0; found;) {
    const children = listProcesses().filter((p) => seen.has(p.ppid) && !seen.has(p.pid));
    for (const child of children) {
      signal(child.pid, "SIGSTOP");
      seen.add(child.pid);
      tree.push(child);
    }
    found = children.length > 0;
  }
  for (const p of tree) signal(p.pid, "SIGKILL");
  return tree;
}

/**
 * The live processes started with `PULUMI_HOME=<homeDir>` in their environment: every process of
 * an engine sandbox (the engine, its language hosts, its providers, whoever their parent is now).
 */
export function processesOfHome(homeDir: string): ProcessInfo[] {
  const marker = `\0PULUMI_HOME=${homeDir}\0`;
  return listProcesses().filter((p) => {
    if (p.pid === process.pid) return false;
    try {
      return `\0${fs.readFileSync(`/proc/${p.pid}/environ`, "utf8")}`.includes(marker);
    } catch {
      return false;
    }
  });
}

/**
 * The `go` on PATH; without one, an error under CI=true (the tier is required there), else
 * undefined after a warning naming what is skipped.
 */
export function goOnPath(skipped: string): string | undefined {
  try {
    return execFileSync("bash", ["-c", "command -v go"]).toString().trim();
  } catch {
    if (process.env.CI === "true" || process.env.CI === "1") throw new Error("go is not on PATH");
    console.warn(`skipping ${skipped}: go is not on PATH`);
    return undefined;
  }
}
