/** Shared pieces of `npm run soak`: the faults of every emulator, the engine's transcripts, figures' formats. */
import type { FaultOptions } from "../../src/emulator";

/**
 * 25% of requests in all: about half refused before processing (429 and 503 asking for an
 * immediate retry, 502/504, dropped), the rest processed, then lost or answered unreadably.
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
export const faultShare = (): number =>
  Object.entries(SOAK_FAULTS).reduce((sum, [k, v]) => sum + (/rate/i.test(k) ? Number(v) : 0), 0);

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
