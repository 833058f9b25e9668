/** Shared pieces of the reliability run (and of the soak): seeds, output, goals, evidence. */
import { ApiError } from "../../src/api";
import { createRng, type Rng } from "../../src/emulator/data/random";
import { secretForms } from "../../src/model";

export type { Rng };

/** A seed derived from a base seed and a label (FNV-1a), so that each part of the run has its own stream. */
export function deriveSeed(seed: number, label: string | number): number {
  let h = 2166136261 ^ (seed >>> 0);
  for (const c of `${seed}/${label}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return (h >>> 0) % 2_000_000_000;
}

/** The emulator's seeded generator, on the stream of `label`. */
export const rngFor = (seed: number, label: string): Rng => createRng(deriveSeed(seed, label));

/** Everything written to stdout and stderr while the run went on, for the leak scan. */
export const capturedOutput: string[] = [];
/** Lines of verbose emulators' logs: captured for the leak scan, not shown. */
export let capturedEmulatorLines = 0;
const EMULATOR_LINE = /^[A-Z]+ \S.* -> (?:\d{3}|dropped) \(\d+ ms\)/;

/** Captures stdout and stderr for the leak scan; emulator log lines are captured but not shown. */
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

/** `parse()`, or exit 2 saying what is wrong with the command line, and its usage. */
export function commandLine<T>(usage: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: ${usage}\n`);
    process.exit(2);
  }
}

/** Runs a script's `main`: exits with its status, or 2 with the stack of what it threw. */
export function run(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const text = error instanceof Error ? (error.stack ?? error.message) : error;
      process.stderr.write(`${name} failed: ${text}\n`);
      process.exit(2);
    },
  );
}

/** `details`: print every problem line instead of the first few. */
export const settings = { details: false };

export const say = (line = ""): void => void process.stdout.write(`${line}\n`);

/** Prints the first few problem lines (all of them with `--details`), secrets scrubbed. */
export function sayProblems(lines: string[], first = 15): void {
  const shown = settings.details ? lines : lines.slice(0, first);
  for (const line of shown) say(`  ${scrub(line)}`);
  if (lines.length > shown.length) say(`  ... and ${lines.length - shown.length} more (--details shows all)`);
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

/** One figure with its goal, for the final summary. */
export interface Goal {
  section: string;
  figure: string;
  value: string;
  goal: string;
  met: boolean;
}

/** A figure whose goal is 0. */
export function zeroGoal(section: string, figure: string, count: number): Goal {
  return { section, figure, value: String(count), goal: "0", met: count === 0 };
}

/** Every error and user-visible text produced, for the leak scan. */
export const evidence: Array<{ section: string; where: string; value: unknown }> = [];

export const keep = (section: string, where: string, value: unknown): void =>
  void evidence.push({ section, where, value });

/** Secrets to look for, each with what it is (shown instead of the value). */
export const secrets = new Map<string, string>();
const PREFIX = 10;
/** Every form (plain, URL-encoded, JSON-escaped) of every secret, by its first characters: a linear scan. */
const byPrefix = new Map<string, Array<{ form: string; secret: string; encoded: boolean }>>();

/** Adds a secret to look for (10 characters at least: shorter ones cannot be told from words). */
export function addSecret(value: string, kind: string): void {
  if (typeof value !== "string" || value.length < PREFIX || secrets.has(value)) return;
  secrets.set(value, kind);
  for (const form of secretForms(value)) {
    const list = byPrefix.get(form.slice(0, PREFIX)) ?? [];
    list.push({ form, secret: value, encoded: form !== value });
    byPrefix.set(form.slice(0, PREFIX), list);
  }
}

/** Every known secret in `text`. */
export function findSecrets(
  text: string,
): Array<{ kind: string; index: number; encoded: boolean; length: number }> {
  const hits = [];
  for (let i = 0; i + PREFIX <= text.length; i++) {
    for (const f of byPrefix.get(text.substr(i, PREFIX)) ?? []) {
      if (text.startsWith(f.form, i))
        hits.push({ kind: secrets.get(f.secret)!, index: i, encoded: f.encoded, length: f.form.length });
    }
  }
  return hits;
}

/** `text` with every known secret replaced by `[secret: <kind>]`, for printing. */
export function scrub(text: string): string {
  let [out, last] = ["", 0];
  for (const h of findSecrets(text).sort((a, b) => a.index - b.index || b.length - a.length)) {
    if (h.index < last) continue;
    out += `${text.slice(last, h.index)}[secret: ${h.kind}]`;
    last = h.index + h.length;
  }
  return out + text.slice(last);
}

/** Adds every secret of an emulator (keys, endpoints, node credentials), each with its kind from its shape. */
export function addEmulatorSecrets(emulator: { secrets(): string[] }): void {
  const kinds: Array<[RegExp, string]> = [
    [/^https?:\/\//, "endpoint URL"],
    [/^wss?:\/\//, "websocket endpoint URL"],
    [/^[0-9a-f]{40}$/, "API or admin key"],
    [/^[0-9a-f]{32}$/, "auth_key"],
    [/^[0-9a-f]{4}(?:-[0-9a-f]{4})+$/, "auth_password"],
  ];
  for (const s of emulator.secrets()) addSecret(s, kinds.find(([re]) => re.test(s))?.[1] ?? "credential");
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

/**
 * `kind/code` of a client error, or of a provider's error: providers rethrow client errors as plain
 * `Error`s named after the client's class, whose message reads `<op> <id>: <status> <code>: ...`.
 */
export function causeOf(error: unknown): string {
  if (error instanceof ApiError) return `${error.kind}/${error.code}`;
  if (!(error instanceof Error)) return `non-error thrown (${typeof error})`;
  const firstLine = error.message.split("\n")[0];
  const code = /: (?:\d{3} )?([A-Za-z][A-Za-z0-9_.-]*): /.exec(firstLine)?.[1];
  const kind = error.name
    .replace(/Error$/, "")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase();
  if (code && kind && error.name !== "Error") return `${kind}/${code}`;
  if (error.name === "OutcomeUnknownError") return "outcome_unknown (a write may have been applied)";
  if (/cannot adopt it/.test(firstLine)) return "not_found/cannot_adopt";
  return `${error.name}: ${firstLine.replace(/\s+/g, " ").slice(0, 60)}`;
}

/** The fault an emulator's request record names, less added latency (`""`: none, or latency only). */
export const faultBeyondLatency = (fault: string | undefined): string =>
  (fault ?? "").replace(/^latency\+?/, "");

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

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
