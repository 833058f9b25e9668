/** Shared pieces of the reliability run (and of the soak): seeds, problem lines, evidence, secrets, causes. */
import { ApiError } from "../../src/api";
import { createRng, type Rng } from "../../src/emulator/data/random";
import { secretForms } from "../../src/model";
import { say } from "../harness";

/** A seed derived from a base seed and a label (FNV-1a), so that each part of the run has its own stream. */
export function deriveSeed(seed: number, label: string | number): number {
  let h = 2166136261 ^ (seed >>> 0);
  for (const c of `${seed}/${label}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return (h >>> 0) % 2_000_000_000;
}

/** The emulator's seeded generator, on the stream of `label`. */
export const rngFor = (seed: number, label: string): Rng => createRng(deriveSeed(seed, label));

/** `details`: print every problem line instead of the first few. */
export const settings = { details: false };

/** Prints the first few problem lines (all of them with `--details`), secrets scrubbed. */
export function sayProblems(lines: string[], first = 15): void {
  const shown = settings.details ? lines : lines.slice(0, first);
  for (const line of shown) say(`  ${scrub(line)}`);
  if (lines.length > shown.length) say(`  ... and ${lines.length - shown.length} more (--details shows all)`);
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
