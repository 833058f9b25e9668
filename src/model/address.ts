import { keccak_256 } from "@noble/hashes/sha3";
import { Problem, show } from "./problems";

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

/**
 * Checks an EVM address: `0x` and 40 hex digits. All-lowercase and all-uppercase digits are
 * accepted as they are; a mixed-case address must match its EIP-55 checksum.
 */
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
