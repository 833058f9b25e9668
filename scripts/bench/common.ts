/** Shared pieces of `npm run bench`: the emulator process, the table and its formats. */
import { fork, type ChildProcess } from "child_process";
import { once } from "events";
import * as http from "http";
import * as path from "path";
import type { EmulatorOptions, RunningEmulator } from "../../src/emulator";

export { ROOT } from "../doc-blocks";
import { markdownTable, x, type Figure } from "../harness";
export { atMost, median, mb, ms, timed, withRss, x } from "../harness";

/** One row of the printed table (its `goal` printed as its target); `met` undefined: no target. */
export type Row = Figure & { section: string };

/** An emulator running in a child process (`emulator-child.js`). */
export interface EmulatorProcess extends Pick<RunningEmulator, "url" | "apiKey" | "adminKey" | "fixtures"> {
  bulkNetworks: string[];
  requests(): Promise<number>;
  /** Its answers by status since the last call (the request record, then emptied). */
  statuses(): Promise<Record<string, number>>;
}

/** Forks `script` (beside this file) with `args`; resolves with the child and its first message. */
export async function forked<T>(script: string, args: string[]): Promise<{ child: ChildProcess; first: T }> {
  const child = fork(path.join(__dirname, script), args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const first = await new Promise<T>((resolve, reject) => {
    child.once("message", (m) => resolve(m as T));
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, first };
}

/** Runs `body` with `emulator-child.js` started with `options` (once it sends what it serves), killed after. */
export async function withEmulatorProcess<T>(
  options: EmulatorOptions,
  body: (emulator: EmulatorProcess) => Promise<T>,
): Promise<T> {
  type Info = Omit<EmulatorProcess, "requests" | "statuses">;
  const { child, first } = await forked<Info>("emulator-child.js", [JSON.stringify(options)]);
  const ask = <T>(what: "requests" | "statuses") => {
    child.send(what);
    return once(child, "message").then(([m]) => m as T);
  };
  try {
    return await body({ ...first, requests: () => ask("requests"), statuses: () => ask("statuses") });
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
  }
}

export function get(url: string, headers: Record<string, string>, agent?: http.Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`GET ${url}: ${res.statusCode}`)),
      );
    });
    req.on("error", reject);
  });
}

/** The ratio, goal and verdict of a figure that must be at least `min` times faster than its baseline. */
export const faster = (r: number, min: number) => ({
  ratio: `${x(r)} faster`,
  goal: `>= ${min}x faster`,
  met: r >= min,
});

/** The rows as a Markdown table (pasteable into the README). */
export const table = (rows: Row[]): string =>
  markdownTable(
    ["section", "figure", "value", "baseline", "ratio", "target", "met"],
    rows.map((r) => [r.section, r.figure, r.value, r.baseline ?? "", r.ratio ?? "", r.goal ?? "", met(r)]),
  );
const met = (r: Row) => (r.met === undefined ? "" : r.met ? "yes" : "**no**");
