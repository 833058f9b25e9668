import { Problem, show } from "./problems";

/**
 * The faucet's chain when none is given: `goerli`, the only one the interface's text names
 * (`POST /v1/faucet/goerli`). The real service serves `POST /v1/faucet/{chain}` for the chains
 * its public reference lists (sepolia, hoodi, among others).
 */
export const DEFAULT_FAUCET_CHAIN = "goerli";

/** The longest faucet chain name accepted. */
export const MAX_FAUCET_CHAIN_LENGTH = 63;

/**
 * A faucet chain name: a lowercase letter, then lowercase letters, digits and hyphens, 1 to
 * {@link MAX_FAUCET_CHAIN_LENGTH} characters in all. Such a name is one path segment as it is:
 * it never needs escaping and cannot leave `/v1/faucet/`.
 */
export const FAUCET_CHAIN_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;

/** What a faucet chain name may be, in the words of a check failure. */
const ALLOWED_CHAIN = `expected a chain name such as ${DEFAULT_FAUCET_CHAIN} or sepolia: a lowercase letter, then lowercase letters, digits and hyphens, 1 to ${MAX_FAUCET_CHAIN_LENGTH} characters`;

/**
 * Checks a faucet chain name against {@link FAUCET_CHAIN_PATTERN}; returns the problem (naming
 * `field`, the value and what is allowed), or undefined. Whether the service serves that chain
 * is its own answer (a 404 when it does not).
 */
export function checkFaucetChain(field: string, value: unknown): Problem | undefined {
  if (typeof value === "string" && FAUCET_CHAIN_PATTERN.test(value)) return undefined;
  return { field, value: show(value), allowed: ALLOWED_CHAIN };
}
