/**
 * The provider plugin as users install it: the tarball `scripts/plugin-pack.js` makes for this
 * machine (its size), unpacked as `pulumi plugin install` does, and its cold start as the engine
 * runs it (the launcher executed, which runs `node` on itself and loads the bundle): from starting
 * the process to its first completed `read` of a Network, against a bare Node.js process making
 * the same request. Two cases: a start whose code cache an earlier start on the machine wrote
 * (every start but the first), and the first start after install (no code cache yet).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PluginClient } from "../../test/helpers/plugin-client";
import { ROOT, atMost, median, ms, x, type EmulatorProcess, type Row } from "./common";

const RUNS = 5;
const URN = "urn:pulumi:bench::bench::blockchain:index:Network::main";
const TARBALL_TARGET = 3 * 1024 * 1024;

const kib = (bytes: number): string => `${Math.round(bytes / 1024).toLocaleString("en-US")} KiB`;

/** Starts the installed plugin as the engine does, configures it and reads a network; resolves with the ms. */
async function coldStart(launcher: string, emulator: EmulatorProcess, id: string): Promise<number> {
  const t = performance.now();
  const plugin = await PluginClient.start({}, launcher, [], { exec: true });
  await plugin.configure({ apiUrl: emulator.url, apiKey: emulator.apiKey });
  const read = await plugin.read(URN, id, { networkId: id, managedInputs: [] }, { networkId: id });
  const took = performance.now() - t;
  await plugin.stop();
  if (read.id !== id) throw new Error(`plugin read returned id ${read.id}`);
  return took;
}

/**
 * The plugin's rows. `bare` runs the bare process once and resolves with its ms; `hostMs` is the
 * dynamic-provider host's median cold start, for comparison.
 */
export async function runPlugin(
  emulator: EmulatorProcess,
  id: string,
  bare: () => Promise<number>,
  hostMs: number,
  log: (line: string) => void,
): Promise<Row[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plugin-"));
  try {
    const pack = [path.join(ROOT, "scripts", "plugin-pack.js"), "--out", work];
    const packed = execFileSync(process.execPath, pack, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const tarball = packed.toString().trim().split("\n").pop()!;
    const size = fs.statSync(tarball).size;
    // Unpacked as `pulumi plugin install` does: the tarball's files in a folder of their own.
    const installed = path.join(work, "plugins", "resource-blockchain");
    fs.mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", tarball, "-C", installed]);
    const unpacked = fs
      .readdirSync(installed)
      .reduce((n, f) => n + fs.statSync(path.join(installed, f)).size, 0);
    const launcher = path.join(installed, "pulumi-resource-blockchain");
    /** The code caches the launcher wrote beside the bundle. */
    const caches = () => fs.readdirSync(installed).filter((f) => f.endsWith(".cache"));

    const [first, later, bareRuns]: number[][] = [[], [], []];
    for (let i = 0; i < RUNS; i++) {
      for (const f of caches()) fs.rmSync(path.join(installed, f));
      first.push(await coldStart(launcher, emulator, id));
      bareRuns.push(await bare());
    }
    if (caches().length !== 1) throw new Error("the first start wrote no code cache");
    for (let i = 0; i < RUNS; i++) {
      later.push(await coldStart(launcher, emulator, id));
      bareRuns.push(await bare());
    }
    const [b, f, l] = [median(bareRuns), median(first), median(later)];
    log(
      `plugin cold start: first ${first.map(ms).join(", ")}; later ${later.map(ms).join(", ")}; bare ${bareRuns.map(ms).join(", ")}`,
    );
    const section = "provider plugin";
    return [
      {
        section,
        figure: `plugin tarball ${path.basename(tarball)} (the same bundle for every OS and architecture)`,
        value: `${kib(size)} (${kib(unpacked)} unpacked)`,
        baseline: `${kib(TARBALL_TARGET)} (target)`,
        ratio: x(size / TARBALL_TARGET),
        goal: "<= 3 MB",
        met: size <= TARBALL_TARGET,
      },
      {
        section,
        figure: `cold start of the installed plugin, run as the engine runs it, to the first completed Network read; code cache written by an earlier start (median of ${RUNS})`,
        value: ms(l),
        baseline: `bare Node.js process, same PATCH: ${ms(b)} (median of ${bareRuns.length}); dynamic-provider host: ${ms(hostMs)}`,
        ...atMost(l / b, 1.5),
        ratio: `${x(l / b)} (${x(l / hostMs)} of the dynamic host)`,
      },
      {
        section,
        figure: `the same, first start after install: no code cache yet, the start writes it (median of ${RUNS})`,
        value: ms(f),
        baseline: `bare Node.js process: ${ms(b)}`,
        ratio: x(f / b),
        goal: "once per install and Node.js version",
      },
    ];
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
