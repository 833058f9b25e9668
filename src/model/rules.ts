/** The rules of the service's inputs: allowed combinations, network names and updates, node list filters, faucet requests. */
import { keccak_256 } from "@noble/hashes/sha3";
import {
  MAX_NAME_FILTER_LENGTH,
  checkLength,
  checkOneOf,
  closestName,
  isOwnKey,
  show,
  type Problem,
} from "./problems";
import {
  NODE_ROLES,
  NODE_STATUSES,
  NODE_TYPES,
  ORDER_BY_VALUES,
  PROJECT_TYPES,
  PROTOCOLS,
  PROVIDERS,
  PUBLIC_NETWORK_NAMES,
  REGIONS,
  SHARED_PROTOCOLS,
  allowsSharedNodes,
  checkId,
  protocolOfPublicNetwork,
  regionsOf,
  type IdKind,
} from "./values";

/** Values whose combinations the spec constrains; a value that is `undefined` was not given. */
export type Combination = { [K in "provider" | "region" | "protocol" | "publicNetwork" | "type"]?: unknown };

/** Checks each value of a node's placement, then the combinations the spec allows. */
export function validateNodePlacement(n: Combination & { protocol: unknown; type: unknown }): Problem[] {
  const problems = [
    checkOneOf("protocol", n.protocol, PROTOCOLS),
    checkOneOf("type", n.type, NODE_TYPES),
    checkOneOf("provider", n.provider, PROVIDERS),
    checkOneOf("region", n.region, REGIONS),
    n.publicNetwork === undefined
      ? undefined
      : checkOneOf("publicNetwork", n.publicNetwork, PUBLIC_NETWORK_NAMES),
  ].filter((p): p is Problem => p !== undefined);
  return problems.length > 0 ? problems : combinationProblems(n);
}

/** Combinations that never exist: a region of another provider, a public network of another protocol, `shared` nodes of a protocol without them. */
export function combinationProblems(c: Combination, prefix = ""): Problem[] {
  const { provider, region, protocol, publicNetwork, type } = c; // fields named with `prefix`
  const problems: Problem[] = [];
  const regions = regionsOf(provider);
  if (regions && typeof region === "string" && !(regions as readonly string[]).includes(region)) {
    problems.push({
      field: prefix + "region",
      value: show(region),
      allowed: `provider ${String(provider)} offers only ${regions.join(", ")}`,
    });
  }
  const networkProtocol = protocolOfPublicNetwork(publicNetwork);
  if (protocol !== undefined && networkProtocol !== undefined && networkProtocol !== protocol) {
    problems.push({
      field: prefix + "publicNetwork",
      value: show(publicNetwork),
      allowed: `${String(publicNetwork)} belongs to protocol ${networkProtocol}, not ${String(protocol)}`,
    });
  }
  const effectiveProtocol = protocol ?? networkProtocol;
  if (type === "shared" && effectiveProtocol !== undefined && !allowsSharedNodes(effectiveProtocol)) {
    problems.push({
      field: prefix + "type",
      value: show(type),
      allowed: `shared nodes exist only for ${SHARED_PROTOCOLS.join(", ")}; ${
        protocol === undefined
          ? `${String(publicNetwork)} is a ${String(effectiveProtocol)} network, which`
          : `protocol ${String(protocol)}`
      } has dedicated nodes only`,
    });
  }
  return problems;
}

/** Longest network name accepted. The spec sets none; this bound keeps names printable. */
export const MAX_NETWORK_NAME_LENGTH = 255;

/** Checks a network name: a non-empty string, not only whitespace, at most 255 characters. */
export function checkNetworkName(field: string, value: unknown): Problem | undefined {
  if (typeof value !== "string" || value.trim().length === 0) {
    return { field, value: show(value), allowed: "expected a non-empty name" };
  }
  if (value.length > MAX_NETWORK_NAME_LENGTH) {
    return { field, value: show(value), allowed: `expected at most ${MAX_NETWORK_NAME_LENGTH} characters` };
  }
  return undefined;
}

/** Checks the fields of a network update; `undefined` fields are not sent, not checked. */
export function validateNetworkUpdate(update: { name?: unknown; project?: unknown }): Problem[] {
  return [
    update.name === undefined ? undefined : checkNetworkName("name", update.name),
    update.project === undefined ? undefined : checkId("project", "project", update.project),
  ].filter((p): p is Problem => p !== undefined);
}

type FilterRule =
  | { kind: "id"; idKind: IdKind }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "boolean" }
  | { kind: "string" };

/** Every filter of `GET /v1/nodes/` by camelCase name, with its query parameter and rule. */
export const NODE_FILTERS = {
  project: { query: "project", rule: { kind: "id", idKind: "project" } },
  organization: { query: "organization", rule: { kind: "id", idKind: "organization" } },
  network: { query: "network", rule: { kind: "id", idKind: "network" } },
  region: { query: "region", rule: { kind: "enum", values: REGIONS } },
  provider: { query: "provider", rule: { kind: "enum", values: PROVIDERS } },
  protocol: { query: "protocol", rule: { kind: "enum", values: PROTOCOLS } },
  role: { query: "role", rule: { kind: "enum", values: NODE_ROLES } },
  type: { query: "type", rule: { kind: "enum", values: NODE_TYPES } },
  archive: { query: "archive", rule: { kind: "boolean" } },
  publicNetwork: { query: "public_network", rule: { kind: "enum", values: PUBLIC_NETWORK_NAMES } },
  name: { query: "name", rule: { kind: "string" } },
  projectType: { query: "project_type", rule: { kind: "enum", values: PROJECT_TYPES } },
  status: { query: "status", rule: { kind: "enum", values: NODE_STATUSES } },
  orderBy: { query: "order_by", rule: { kind: "enum", values: ORDER_BY_VALUES } },
} as const satisfies Record<string, { query: string; rule: FilterRule }>;

/** The camelCase name of a node list filter (or `orderBy`). */
export type NodeFilterName = keyof typeof NODE_FILTERS;

/** All camelCase filter names, in the appendix's order (`orderBy` last). */
export const NODE_FILTER_NAMES = Object.keys(NODE_FILTERS) as NodeFilterName[];

/** The query parameter that carries the page number. */
export const PAGE_QUERY = "page";

/** Checks one filter value; a `name` that is not a filter is a problem too, never a crash. */
export function checkFilterValue(
  name: NodeFilterName,
  value: unknown,
  field: string = name,
): Problem | undefined {
  if (!isOwnKey(NODE_FILTERS, name)) return unknownFilter(field, value);
  const rule: FilterRule = NODE_FILTERS[name].rule;
  switch (rule.kind) {
    case "id":
      return checkId(rule.idKind, field, value);
    case "enum":
      return checkOneOf(field, value, rule.values);
    case "boolean":
      return typeof value === "boolean"
        ? undefined
        : { field, value: show(value), allowed: "expected true or false" };
    case "string":
      if (typeof value !== "string" || value.length === 0)
        return { field, value: show(value), allowed: "expected a non-empty string" };
      return checkLength(field, value, MAX_NAME_FILTER_LENGTH);
  }
}

function unknownFilter(field: string, value: unknown): Problem {
  const close = closestName(field.slice(field.lastIndexOf(".") + 1), NODE_FILTER_NAMES);
  return {
    field,
    value: show(value),
    allowed: `unknown filter${close ? `; did you mean \`${close}\`?` : ""}; expected one of ${NODE_FILTER_NAMES.join(", ")}`,
  };
}

/** Every problem of a filter object (unknown keys, values, combinations that never match); never throws. */
export function validateNodeFilters(filters: Record<string, unknown>, prefix = ""): Problem[] {
  if (typeof filters !== "object" || filters === null || Array.isArray(filters)) {
    const field = prefix.replace(/\.$/, "") || "filters";
    return [{ field, value: show(filters), allowed: "expected an object of filters" }];
  }
  const problems: Problem[] = [];
  const given: Combination = {};
  for (const [key, value] of Object.entries(filters)) {
    const problem =
      value === undefined ? undefined : checkFilterValue(key as NodeFilterName, value, prefix + key);
    if (problem) problems.push(problem);
    else (given as Record<string, unknown>)[key] = value;
  }
  return problems.length > 0 ? problems : combinationProblems(given, prefix);
}

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
