import { createHash } from "crypto";

/** Every value derived from the seed (keys, sub-seeds, hashes): SHA-256 of `blockchain-nodes-emulator/<parts>`, hex. */
export function seedHash(...parts: ReadonlyArray<string | number>): string {
  const text = ["blockchain-nodes-emulator", ...parts].join("/");
  return createHash("sha256").update(text).digest("hex");
}

/** An independent 32-bit seed for one purpose (`data`, `faults`) of the user's seed. */
export function deriveSeed(seed: number, purpose: string): number {
  return parseInt(seedHash(purpose, seed).slice(0, 8), 16);
}

/** The API key of an organization for a seed: 40 hex digits of `sha256(".../api-key/<seed>/<organizationId>")`. */
export function deriveApiKey(seed: number, organizationId: string): string {
  return seedHash("api-key", seed, organizationId).slice(0, 40);
}

/** The admin key for a seed: 40 hex digits of `sha256("blockchain-nodes-emulator/admin-key/<seed>")`. */
export function deriveAdminKey(seed: number): string {
  return seedHash("admin-key", seed).slice(0, 40);
}

/** A deterministic pseudo-random generator: the same seed always gives the same sequence. */
export type Rng = ReturnType<typeof createRng>;

/**
 * A mulberry32 generator over a 32-bit state: `next()` in `[0, 1)`, `int(min, max)` both inclusive,
 * `chance(p)`, `pick`, `shuffle` (a shuffled copy, Fisher-Yates), `hex(n)` and `digits(n)`.
 */
export function createRng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const chars = (length: number, radix: number) =>
    Array.from({ length }, () => int(0, radix - 1).toString(radix)).join("");
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[int(0, items.length - 1)];
    },
    shuffle: <T>(items: readonly T[]): T[] => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    hex: (length: number) => chars(length, 16),
    digits: (length: number) => chars(length, 10),
  };
}
