import { createHash } from "crypto";

/**
 * Every value the emulator derives from its seed (keys, sub-seeds, transaction hashes) is the
 * SHA-256 of `blockchain-nodes-emulator/<part>/<part>/...`, as 64 lowercase hex digits.
 */
export function seedHash(...parts: ReadonlyArray<string | number>): string {
  return createHash("sha256")
    .update(["blockchain-nodes-emulator", ...parts].join("/"))
    .digest("hex");
}

/** Derives an independent 32-bit seed for one purpose (`data`, `faults`) from the user's seed. */
export function deriveSeed(seed: number, purpose: string): number {
  return parseInt(seedHash(purpose, seed).slice(0, 8), 16);
}

/**
 * The API key of an organization for a seed: the first 40 hex digits of
 * `sha256("blockchain-nodes-emulator/api-key/<seed>/<organizationId>")`.
 */
export function deriveApiKey(seed: number, organizationId: string): string {
  return seedHash("api-key", seed, organizationId).slice(0, 40);
}

/** The admin key for a seed: 40 hex digits of `sha256("blockchain-nodes-emulator/admin-key/<seed>")`. */
export function deriveAdminKey(seed: number): string {
  return seedHash("admin-key", seed).slice(0, 40);
}
