/**
 * Shared pieces of the reliability run: a seeded random generator, table printing, goals, output
 * capture, the evidence kept for the leak scan, and small helpers to time and classify calls.
 */
import { ApiError } from "../../src/api";
import { secretForms } from "../../src/model";

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /** `n` random hex digits. */
  hex(n: number): string {
    let out = "";
    for (let i = 0; i < n; i++) out += "0123456789abcdef"[this.int(0, 15)];
    return out;
  }
}

/** A seed derived from a base seed and a label, so that each part of the run has its own stream. */
export function deriveSeed(seed: number, label: string | number): number {
  let h = 2166136261 ^ (seed >>> 0);
  const text = `${seed}/${label}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0) % 2_000_000_000;
}

// ---------------------------------------------------------------------------------------------
// Output

/** Everything written to stdout and stderr while the run went on, for the leak scan. */
export const capturedOutput: string[] = [];
/** Emulator log lines (verbose emulators) captured and not shown. */
export let capturedEmulatorLines = 0;

const EMULATOR_LINE =
  /^(?:GET|POST|PATCH|PUT|DELETE|HEAD|OPTIONS|[A-Z]+) \S.* -> (?:\d{3}|dropped) \(\d+ ms\)/;

/**
 * Captures everything written to stdout and stderr (kept for the leak scan). Lines of a verbose
 * emulator's log are captured but not shown; everything else is shown as usual.
 */
export function captureOutput(): void {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    capturedOutput.push(String(chunk));
    return (out as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    capturedOutput.push(text);
    const lines = text.split("\n").filter((l) => l !== "");
    if (lines.length > 0 && lines.every((l) => EMULATOR_LINE.test(l))) {
      capturedEmulatorLines += lines.length;
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }
    return (err as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
}

/** Run-wide settings: `details` prints every problem line instead of the first few. */
export const settings = { details: false };

/** Prints the first few problem lines (all of them with `--details`). */
export function sayProblems(lines: string[], first = 15): void {
  const shown = settings.details ? lines : lines.slice(0, first);
  for (const line of shown) say(`  ${scrub(line)}`);
  if (lines.length > shown.length) say(`  ... and ${lines.length - shown.length} more (--details shows all)`);
}

/** Prints a line. */
export function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

/** Prints a small table with a title; columns holding only numbers are right-aligned. */
export function table(title: string, headers: string[], rows: Array<Array<string | number>>): void {
  const body = rows.map((r) => r.map((c) => String(c)));
  const cells = [headers, ...body];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const numeric = headers.map(
    (_, i) => body.length > 0 && body.every((r) => /^-?[\d.,]+( MB| s|%)?$/.test(r[i] ?? "")),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  say("");
  say(title);
  say(line(headers));
  say(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of body) say(line(r));
}

// ---------------------------------------------------------------------------------------------
// Goals and results

/** One figure with a goal, for the final summary. */
export interface Goal {
  section: string;
  figure: string;
  value: string;
  goal: string;
  met: boolean;
  /** A figure shown for information: it has no goal, and is never counted as met or missed. */
  informational?: boolean;
}

/** A figure whose goal is 0: `count` as its value, met when it is 0. */
export function zeroGoal(section: string, figure: string, count: number): Goal {
  return { section, figure, value: String(count), goal: "0", met: count === 0 };
}

// ---------------------------------------------------------------------------------------------
// Evidence for the leak scan

/** Something produced during the run that a user could see: an error, a message, a log text. */
export interface Evidence {
  section: string;
  where: string;
  value: unknown;
  /**
   * Credentials that a hostile server put in this answer although the client that produced it had
   * never read them (see {@link keep}); hits of these are counted apart, without a goal.
   */
  unread?: ReadonlySet<string>;
}

/** Every error and user-visible text produced, in order. */
export const evidence: Evidence[] = [];

/**
 * Keeps an error (or a user-visible text) for the leak scan. `unread` lists credentials the
 * producing client never read before a server echoed them: no client can recognise a bare
 * password it has never seen, so their hits are reported apart, for information. Never list an
 * API key there: the key is always known to its client.
 */
export function keep(section: string, where: string, value: unknown, unread?: ReadonlySet<string>): void {
  evidence.push(unread && unread.size > 0 ? { section, where, value, unread } : { section, where, value });
}

/** Secrets to look for, each with what it is (shown instead of the value). */
export const secrets = new Map<string, string>();

const PREFIX = 10;
/** Every form of every secret (literal, URL-encoded, JSON-escaped), by its first characters. */
const byPrefix = new Map<string, Array<{ form: string; secret: string; encoded: boolean }>>();

/** Adds a secret to look for (at least 10 characters; shorter texts cannot be told from words). */
export function addSecret(value: string, kind: string): void {
  if (typeof value !== "string" || value.length < PREFIX || secrets.has(value)) return;
  secrets.set(value, kind);
  for (const form of secretForms(value)) {
    const encoded = form !== value;
    const key = form.slice(0, PREFIX);
    const list = byPrefix.get(key) ?? [];
    list.push({ form, secret: value, encoded });
    byPrefix.set(key, list);
  }
}

/** A secret found in a text: which one (never printed), what it is, where, and whether it was encoded. */
export interface SecretHit {
  secret: string;
  kind: string;
  index: number;
  encoded: boolean;
  length: number;
}

/** Every known secret in `text` (linear in the text, whatever the number of secrets). */
export function findSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  for (let i = 0; i + PREFIX <= text.length; i++) {
    const list = byPrefix.get(text.substr(i, PREFIX));
    if (!list) continue;
    for (const f of list) {
      if (text.startsWith(f.form, i)) {
        hits.push({
          secret: f.secret,
          kind: secrets.get(f.secret) ?? "secret",
          index: i,
          encoded: f.encoded,
          length: f.form.length,
        });
      }
    }
  }
  return hits;
}

/** `text` with every known secret replaced by `[secret: <kind>]`, for printing. */
export function scrub(text: string): string {
  const hits = findSecrets(text).sort((a, b) => a.index - b.index || b.length - a.length);
  let out = "";
  let last = 0;
  for (const h of hits) {
    if (h.index < last) continue;
    out += `${text.slice(last, h.index)}[secret: ${h.kind}]`;
    last = h.index + h.length;
  }
  return out + text.slice(last);
}

/** What a secret of the emulator is, from its shape (the value itself is never shown). */
export function emulatorSecretKind(value: string): string {
  if (/^https?:\/\//.test(value)) return "endpoint URL";
  if (/^wss?:\/\//.test(value)) return "websocket endpoint URL";
  if (/^[0-9a-f]{40}$/.test(value)) return "API or admin key";
  if (/^[0-9a-f]{32}$/.test(value)) return "auth_key";
  if (/^[0-9a-f]{4}(?:-[0-9a-f]{4})+$/.test(value)) return "auth_password";
  if (/^[a-z]+-[a-z]+-\d+$/.test(value)) return "auth_username";
  return "credential";
}

/** Adds every secret of an emulator (keys, endpoints, node credentials) to look for, each with its kind. */
export function addEmulatorSecrets(emulator: { secrets(): string[] }): void {
  for (const s of emulator.secrets()) addSecret(s, emulatorSecretKind(s));
}

// ---------------------------------------------------------------------------------------------
// Calls

/** How a call settled. */
export type Settled<T> =
  | { status: "resolved"; value: T; ms: number }
  | { status: "rejected"; error: unknown; ms: number }
  | { status: "pending"; ms: number };

/**
 * Runs a call and waits for it at most `watchdogMs`; a call still pending then is reported as
 * `pending` (it keeps running in the background; the process exits at the end anyway).
 */
export async function settle<T>(run: () => Promise<T>, watchdogMs: number): Promise<Settled<T>> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<"pending">((resolve) => {
    timer = setTimeout(() => resolve("pending"), watchdogMs);
  });
  try {
    const outcome = await Promise.race([
      Promise.resolve()
        .then(run)
        .then(
          (value) => ({ status: "resolved" as const, value }),
          (error: unknown) => ({ status: "rejected" as const, error }),
        ),
      watchdog,
    ]);
    const ms = performance.now() - start;
    if (outcome === "pending") return { status: "pending", ms };
    return { ...outcome, ms };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `tasks` with at most `limit` at once; results in the input order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  });
  await Promise.all(workers);
  return results;
}

/** The class names of the client's typed errors. */
export const API_ERROR_NAMES = new Set([
  "ApiError",
  "UnauthorizedError",
  "ForbiddenError",
  "NotFoundError",
  "ValidationError",
  "ConflictError",
  "RateLimitedError",
  "UnavailableError",
  "TimeoutError",
  "NetworkError",
  "InvalidInputError",
  "InvalidResponseError",
]);

/**
 * The names of every typed, documented error of the package: the client's error classes, and
 * `SettingsError` (src/settings.ts: no API URL or key, or one that is not a string).
 */
export const TYPED_ERROR_NAMES: ReadonlySet<string> = new Set([...API_ERROR_NAMES, "SettingsError"]);

/** Messages of JavaScript's own errors (a bug surfacing), as they read once wrapped. */
const ENGINE_ERROR_TEXT =
  /is not a function|Cannot read propert|Cannot set propert|Cannot convert|is not iterable|is not defined|Maximum call stack|Invalid string length|Invalid array length|serialize a BigInt|Cannot mix BigInt|Unexpected token|is not a constructor|Cannot destructure/;

/** True when an error is JavaScript's own (TypeError, RangeError, …), or wraps one. */
export function isEngineError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (
    ["TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError"].includes(error.name)
  ) {
    return true;
  }
  return error.name === "Error" && ENGINE_ERROR_TEXT.test(error.message);
}

/** `kind/code` of a client error. */
export function causeOf(error: unknown): string {
  if (error instanceof ApiError) return `${error.kind}/${error.code}`;
  if (error instanceof Error) return providerCause(error);
  return `non-error thrown (${typeof error})`;
}

/**
 * `kind/code` of an error a provider threw. Providers rethrow client errors as plain `Error`s
 * named after the client's class, with the client's message (`<op> <id>: <status> <code>: …`);
 * the code is read back from that message.
 */
export function providerCause(error: Error): string {
  const kind =
    error.name
      .replace(/Error$/, "")
      .replace(/([a-z])([A-Z])/g, "$1_$2")
      .toLowerCase() || "error";
  const firstLine = error.message.split("\n")[0];
  const match = /: (?:\d{3} )?([A-Za-z][A-Za-z0-9_.-]*): /.exec(firstLine);
  if (API_ERROR_NAMES.has(error.name) && match) return `${kind}/${match[1]}`;
  if (/cannot adopt it/.test(firstLine)) return "not_found/cannot_adopt";
  return `${error.name}: ${firstLine.replace(/\s+/g, " ").slice(0, 60)}`;
}

/** The fault an emulator's request record names, less added latency (`""`: none, or latency only). */
export function faultBeyondLatency(fault: string | undefined): string {
  return (fault ?? "").replace(/^latency\+?/, "");
}

/** Waits for the next turn of the event loop (so pending rejections surface). */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Formats a number of milliseconds as seconds. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Unhandled rejections and uncaught exceptions seen, by section. */
export const unhandled: Array<{ section: string; what: string; error: unknown }> = [];
let currentSection = "setup";

/** Names the section running now (for unhandled rejections). */
export function enterSection(name: string): void {
  currentSection = name;
}

/** Records unhandled rejections and uncaught exceptions instead of dying on them. */
export function watchUnhandled(): void {
  process.on("unhandledRejection", (error) => {
    unhandled.push({ section: currentSection, what: "unhandled rejection", error });
  });
  process.on("uncaughtException", (error) => {
    unhandled.push({ section: currentSection, what: "uncaught exception", error });
  });
}

/** How many unhandled rejections or uncaught exceptions a section produced. */
export function unhandledIn(section: string): number {
  return unhandled.filter((u) => u.section === section).length;
}
