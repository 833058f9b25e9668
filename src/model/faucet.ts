import { Problem, show } from "./problems";
import { keccak_256 } from "@noble/hashes/sha3";

/** The faucet's chain when none is given: `goerli`, the one the interface's text names. */
export const DEFAULT_FAUCET_CHAIN = "goerli";

/** The longest faucet chain name accepted. */
export const MAX_FAUCET_CHAIN_LENGTH = 63;

/** A faucet chain name: one path segment as it is (never escaped, cannot leave `/v1/faucet/`). */
export const FAUCET_CHAIN_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;

const ALLOWED_CHAIN = `expected a chain name such as ${DEFAULT_FAUCET_CHAIN} or sepolia: a lowercase letter, then lowercase letters, digits and hyphens, 1 to ${MAX_FAUCET_CHAIN_LENGTH} characters`;

/** The problem with a faucet chain name, or undefined; whether the service serves it is its own answer (a 404). */
export function checkFaucetChain(field: string, value: unknown): Problem | undefined {
  if (typeof value === "string" && FAUCET_CHAIN_PATTERN.test(value)) return undefined;
  return { field, value: show(value), allowed: ALLOWED_CHAIN };
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Returns the EIP-55 mixed-case checksum form of a 0x-prefixed 20-byte hex address. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = "0x";
  for (let i = 0; i < hex.length; i++) {
    const byte = hash[i >> 1];
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? hex[i].toUpperCase() : hex[i];
  }
  return out;
}

/** Checks an EVM address: `0x` and 40 hex digits; mixed case must match its EIP-55 checksum. */
export function checkAddress(field: string, value: unknown): Problem | undefined {
  if (typeof value !== "string" || !HEX_ADDRESS.test(value)) {
    return {
      field,
      value: show(value),
      allowed: "expected 0x followed by 40 hex digits (a 20-byte address)",
    };
  }
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return undefined;
  const expected = toChecksumAddress(value);
  if (expected === value) return undefined;
  return {
    field,
    value: show(value),
    allowed: `the mixed-case checksum (EIP-55) does not match; the checksummed form is ${expected}, or write it all lowercase`,
  };
}
