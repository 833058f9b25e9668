/**
 * Each sign a provider process hears of its engine gone, alone (src/provider/engine-watch.ts,
 * calls.ts): its standard input closing, its parent ending, standard error becoming a broken pipe,
 * a line for the engine that cannot be delivered. A process in which the compiled watch runs writes
 * the reason it heard to a file, and exits.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { fakeEngine, sleep, until } from "../helpers/plugin-client";

const root = path.resolve(__dirname, "..", "..");
const DIST = path.join(root, "dist", "provider");

/**
 * The watched process: `node -e WATCHED <file> <mode> [engine address]`. Modes: `watch` (the
 * watch of engine-watch.ts), `stderr` (the watch, writing a line to standard error every 50 ms),
 * `log` (no watch: a line for the engine at each SIGUSR2, through calls.ts's engineLog).
 */
const WATCHED = `
const fs = require("fs");
const [file, mode] = process.argv.slice(1);
const watch = require(${JSON.stringify(path.join(DIST, "engine-watch.js"))});
const calls = require(${JSON.stringify(path.join(DIST, "calls.js"))});
watch.onEngineGone((reason) => { fs.writeFileSync(file, reason); process.exit(0); });
if (mode === "log") {
  process.on("SIGUSR2", () => void calls.engineLog("info", "a line").then(() => fs.writeFileSync(file + ".logged", "")));
} else {
  watch.watchEngine({ pollMs: 100 });
  fs.writeFileSync(file + ".watching", String(process.ppid));
}
if (mode === "stderr") setInterval(() => watch.writeStderr("a line\\n"), 50);
setInterval(() => undefined, 1000);
`;

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A file for the reason, and the command line that watches. */
function watched(mode: string, ...rest: string[]): { file: string; args: string[] } {
  if (!fs.existsSync(path.join(DIST, "engine-watch.js")))
    throw new Error("dist/ is missing: run `npm run build`");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-watch-"));
  dirs.push(dir);
  const file = path.join(dir, "reason");
  return { file, args: ["-e", WATCHED, file, mode, ...rest] };
}

/** The reason written to `file`, once it is there (a generous deadline). */
async function reason(file: string, what = "the reason"): Promise<string> {
  await until(what, () => (fs.existsSync(file) ? true : undefined));
  await sleep(50);
  return fs.readFileSync(file, "utf8");
}

function start(args: string[], stdio: ("pipe" | "ignore")[]): ChildProcess {
  const child = spawn(process.execPath, args, { stdio, cwd: root });
  children.push(child);
  return child;
}

test("its standard input, a pipe, closing: the engine that holds the other end is gone", async () => {
  const { file, args } = watched("watch");
  const child = start(args, ["pipe", "ignore", "ignore"]);
  // Alive while the pipe is open.
  await sleep(500);
  expect(fs.existsSync(file)).toBe(false);
  child.stdin!.end();
  expect(await reason(file)).toMatch(/standard input/);
});

test("its parent ending (standard input not a pipe: that sign is not read)", async () => {
  const { file, args } = watched("watch");
  const parent = start(
    [
      "-e",
      `require("child_process").spawn(process.execPath, ${JSON.stringify(args)}, { stdio: "ignore" }); setInterval(() => {}, 1000);`,
    ],
    ["ignore", "ignore", "ignore"],
  );
  // The watch has started under its parent (a loaded machine may take seconds to start node).
  await reason(`${file}.watching`, "the watch to start");
  expect(fs.existsSync(file)).toBe(false);
  parent.kill("SIGKILL");
  expect(await reason(file)).toMatch(/parent process \(\d+\)/);
});

test("standard error becoming a broken pipe, where the lines are written", async () => {
  const { file, args } = watched("stderr");
  const child = start(args, ["ignore", "ignore", "pipe"]);
  await new Promise((resolve) => child.stderr!.once("data", resolve));
  child.stderr!.destroy();
  expect(await reason(file)).toMatch(/standard error/);
});

test("a line for the engine that cannot be delivered, once the engine has taken one", async () => {
  const engine = await fakeEngine();
  const { file, args } = watched("log", engine.address);
  const child = start(args, ["ignore", "ignore", "pipe"]);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  await sleep(500);
  child.kill("SIGUSR2");
  await reason(`${file}.logged`, "the first line");
  expect(engine.logged.map((l) => l.message)).toEqual(["a line"]);
  engine.kill();
  child.kill("SIGUSR2");
  expect(await reason(file)).toMatch(/not be delivered/);
  // Nothing written in its place: nobody reads standard error once the engine is gone.
  expect(stderr).toBe("");
});
