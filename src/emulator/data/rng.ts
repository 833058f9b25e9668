/** A deterministic pseudo-random generator: the same seed always gives the same sequence. */
export interface Rng {
  /** Next float in `[0, 1)`. */
  next(): number;
  /** Integer in `[min, max]`, both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** `length` lowercase hex digits. */
  hex(length: number): string;
  /** `length` decimal digits (the first one may be 0). */
  digits(length: number): string;
}

/** A mulberry32 generator over a 32-bit state. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[int(0, items.length - 1)];
    },
    shuffle: (items) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    hex: (length) => Array.from({ length }, () => int(0, 15).toString(16)).join(""),
    digits: (length) => Array.from({ length }, () => String(int(0, 9))).join(""),
  };
}
