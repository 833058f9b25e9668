/**
 * Shared pieces of `npm run soak`: where the repository and the engine are, the faults every
 * emulator of the run injects, the engine's transcripts (kept for the secrets audit), percentiles
 * and formatting.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { FaultOptions } from "../../src/emulator";

/** The repository's root (the script runs from build/soak/scripts/soak/). */
export const ROOT = path.resolve(__dirname, "..", "..", "..", "..");

/**
 * The faults of every emulator of the run, drawn once per request from the emulator's seed: 25%
 * of requests in all (`retryAfterSeconds: 0`: the injected 429 and 503 ask for an immediate retry).
 * About half are refused before processing (429, 502/503/504, a dropped connection); the rest are
 * processed first, then lost (dropped connection, a gateway's 502/504 page) or answered with an
 * unreadable 200.
 */
export const SOAK_FAULTS: FaultOptions = {
  rate429: 0.05,
  rate5xx: 0.05,
  dropRate: 0.04,
  dropAfterProcessingRate: 0.04,
  rate5xxAfterProcessing: 0.05,
  malformedRate: 0.02,
  retryAfterSeconds: 0,
};

/** The sum of the fault rates of {@link SOAK_FAULTS}. */
export function faultShare(f: FaultOptions = SOAK_FAULTS): number {
  return (
    (f.rate429 ?? 0) +
    (f.rate5xx ?? 0) +
    (f.dropRate ?? 0) +
    (f.dropAfterProcessingRate ?? 0) +
    (f.rate5xxAfterProcessing ?? 0) +
    (f.malformedRate ?? 0)
  );
}

/** The engine's folder: PULUMI_ENGINE_DIR, else what `scripts/pulumi-engine.sh` prints. */
export function engineDir(): string {
  const dir =
    process.env.PULUMI_ENGINE_DIR ||
    execFileSync("bash", [path.join(ROOT, "scripts", "pulumi-engine.sh")], {
      stdio: ["ignore", "pipe", "inherit"],
    })
      .toString()
      .trim()
      .split("\n")
      .pop()!;
  for (const exe of ["pulumi", "pulumi-language-nodejs", "pulumi-language-yaml"]) {
    if (!fs.existsSync(path.join(dir, exe))) {
      throw new Error(`the engine in ${dir} has no ${exe} (bash scripts/pulumi-engine.sh provisions it)`);
    }
  }
  return dir;
}

/** The engine's version line, e.g. `v3.259.0`. */
export function engineVersion(dir: string): string {
  return execFileSync(path.join(dir, "pulumi"), ["version"], {
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  })
    .toString()
    .trim();
}

/** Everything the engine printed, by step (`<stack> cycle <n> <step> #<attempt>`), for the audit. */
export const transcripts: Record<string, string> = {};

/** The `q`-quantile (0..1) of `values` (nearest rank); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Milliseconds, with one decimal below 100 ms. */
export const ms = (v: number): string =>
  Number.isNaN(v)
    ? "-"
    : v >= 10_000
      ? `${(v / 1000).toFixed(1)} s`
      : `${v < 100 ? v.toFixed(1) : Math.round(v)} ms`;

/** Kilobytes as megabytes. */
export const mbFromKb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;

/** A ratio as `N.NNx`. */
export const x = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "-");

/** A count with thousands separators. */
export const n = (v: number): string => v.toLocaleString("en-US");

/** Waits `ms` milliseconds. */
export const sleep = (waitMs: number): Promise<void> => new Promise((r) => setTimeout(r, waitMs));

/** The first line of an error's message (or of its text), without the engine's noise. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").find((l) => l.trim() !== "") ?? "";
}

export { sourceState } from "../source-state";
