/**
 * What `npm run reliability`, `npm run soak` and `npm run bench` share: the command line, the output and
 * its tables, figures with their goals, timing, quantiles, memory, pools, unhandled errors.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { ROOT } from "./doc-blocks";

export const say = (line = ""): void => void process.stdout.write(`${line}\n`);

/**
 * Runs a script: its command line parsed (exit 2 with the usage when it is wrong), the service's connection
 * settings dropped from the environment (the run uses only those it gives), then `main`; exits with its
 * status, or 2 with the stack of what it threw.
 */
export function script<T>(name: string, usage: string, parse: () => T, main: (args: T) => Promise<number>) {
  let args: T;
  try {
    args = parse();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: ${usage}\n`);
    process.exit(2);
  }
  delete process.env.BLOCKCHAIN_API_URL;
  delete process.env.BLOCKCHAIN_API_KEY;
  main(args).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
      );
      process.exit(2);
    },
  );
}

/** A `--seed` option's value: a non-negative integer. */
export function seedOf(value: string): number {
  const seed = Number(value);
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error("--seed must be a non-negative integer");
  return seed;
}

/** The source the figures were taken from: `git <short sha>[ + N uncommitted file(s) in src/]`, or `not a git checkout`. */
function sourceState(): string {
  const git = (...a: string[]) =>
    String(execFileSync("git", a, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] })).trim();
  try {
    const changed = git("status", "--porcelain", "--", "src").split("\n").filter(Boolean).length;
    return `git ${git("rev-parse", "--short", "HEAD")}${changed > 0 ? ` + ${changed} uncommitted file(s) in src/` : ""}`;
  } catch {
    return "not a git checkout";
  }
}

/** What the figures were taken on: Node.js, the platform, `extra`, the source. */
export const environment = (extra = ""): string =>
  `node ${process.version}, ${process.platform}/${process.arch}; ${extra}source: ${sourceState()}`;

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
export const ms = (v: number): string =>
  Number.isNaN(v) ? "-" : v >= 10_000 ? seconds(v) : `${v < 100 ? v.toFixed(1) : Math.round(v)} ms`;
export const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
export const x = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "-");
export const n = (v: number): string => v.toLocaleString("en-US");

/** The `q`-quantile (0..1) of `values` (nearest rank); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return values.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** How many times each key occurs, in the order first met. */
export function countBy(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/** Milliseconds `run` takes, and its result. */
export async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const t = performance.now();
  const result = await run();
  return { result, ms: performance.now() - t };
}

/** Samples RSS every 5 ms while `run` runs (after a GC and 50 ms of rest); its result and the peak growth. */
export async function withRss<T>(run: () => Promise<T>): Promise<{ result: T; peakGrowth: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 50));
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const result = await run();
    return { result, peakGrowth: Math.max(peak, process.memoryUsage.rss()) - base };
  } finally {
    clearInterval(timer);
  }
}

/** Runs `task` on every item, at most `limit` at once; results in the input order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, i: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i], i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Prints a table with a title; columns holding only numbers are right-aligned. */
export function table(title: string, headers: string[], rows: Array<Array<string | number>>): void {
  const body = rows.map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...[headers, ...body].map((r) => (r[i] ?? "").length)));
  const numeric = headers.map(
    (_, i) => body.length > 0 && body.every((r) => /^-?[\d.,]+( MB| s|%)?$/.test(r[i] ?? "")),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  say(`\n${title}\n${line(headers)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const r of body) say(line(r));
}

/** Rows as a Markdown table, pasteable into the docs (the bench's and the soak's figures). */
export const markdownTable = (head: string[], rows: string[][]): string =>
  [head, head.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");

/** A figure with its goal (`met` undefined: none, for information); the bench's rows have a baseline and ratio. */
export interface Figure {
  section?: string;
  figure: string;
  value: string;
  baseline?: string;
  ratio?: string;
  goal?: string;
  met?: boolean;
}

/** A figure whose goal is 0. */
export const zero = (figure: string, count: number): Figure => ({
  figure,
  value: n(count),
  goal: "0",
  met: count === 0,
});
/** The ratio, goal and verdict of a figure that must be at most `max` times its baseline. */
export const atMost = (r: number, max: number) => ({ ratio: x(r), goal: `<= ${max}x`, met: r <= max });

/**
 * A Node.js Pulumi project `name` in `dir` running `index` (inside the checkout, so that the nodejs host finds
 * `@pulumi/pulumi`); it has a `package.json` of its own, else the host would take the checkout's `main`.
 */
export function nodejsProject(dir: string, name: string, index: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\nmain: index.js\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, main: "index.js" }));
  fs.writeFileSync(path.join(dir, "index.js"), index);
  return dir;
}

/** Says whether every judged figure met its goal (those missed by `name`); the exit status: 1 when one missed. */
export function verdict(figures: Figure[], name: (missed: Figure) => string): number {
  const judged = figures.filter((f) => f.met !== undefined);
  const missed = judged.filter((f) => !f.met);
  say(
    missed.length === 0
      ? `\nall ${judged.length} goals met`
      : `\n${missed.length} of ${judged.length} goals missed: ${missed.map(name).join("; ")}`,
  );
  return missed.length === 0 ? 0 : 1;
}

/** Everything written to stdout and stderr while the run went on, for the secrets scans. */
export const capturedOutput: string[] = [];
/** Lines of verbose emulators' logs: captured for the leak scan, not shown. */
export let capturedEmulatorLines = 0;
const EMULATOR_LINE = /^[A-Z]+ \S.* -> (?:\d{3}|dropped) \(\d+ ms\)/;

/** Captures stdout and stderr; emulator log lines are captured but not shown. */
export function captureOutput(): void {
  const out = process.stdout.write.bind(process.stdout) as (...a: unknown[]) => boolean;
  const err = process.stderr.write.bind(process.stderr) as (...a: unknown[]) => boolean;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    capturedOutput.push(String(chunk));
    return out(chunk, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    capturedOutput.push(String(chunk));
    const lines = String(chunk).split("\n").filter(Boolean);
    if (lines.length === 0 || !lines.every((l) => EMULATOR_LINE.test(l))) return err(chunk, ...rest);
    capturedEmulatorLines += lines.length;
    (rest.find((r) => typeof r === "function") as (() => void) | undefined)?.();
    return true;
  }) as typeof process.stderr.write;
}

/** Unhandled rejections and uncaught exceptions, recorded by {@link watchUnhandled} instead of dying on them. */
export const unhandled: Array<{ section: string; what: string; error: unknown }> = [];
let currentSection = "setup";

export function enterSection(name: string): void {
  currentSection = name;
}

export function watchUnhandled(): void {
  for (const [event, what] of [
    ["unhandledRejection", "unhandled rejection"],
    ["uncaughtException", "uncaught exception"],
  ] as const)
    process.on(event, (error: unknown) => unhandled.push({ section: currentSection, what, error }));
}
