/**
 * The rules of the service's inputs, each refusal a {@link Problem}: ids, allowed combinations, network names
 * and updates, node list filters, faucet requests.
 */
import { keccak_256 } from "@noble/hashes/sha3";
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
  ID_KINDS,
  PROVIDER_REGIONS,
  PUBLIC_NETWORKS,
  type IdKind,
  type Protocol,
  type Region,
} from "./values";

/** One thing wrong with an input: the field, the value given, and what is allowed. */
export interface Problem {
  /** The field (camelCase, as the user typed it), e.g. `networkId` or `filters.region`. */
  field: string;
  /** The offending value, rendered for humans (never a secret). */
  value: string;
  /** What is allowed instead, phrased so the user can fix the input. */
  allowed: string;
}

/** A problem of `value` (shown with {@link show}) at `field`. */
export const problem = (field: string, value: unknown, allowed: string) => ({
  field,
  value: show(value),
  allowed,
});

/** Renders a value for an error message, keeping it short. Never throws, whatever the value. */
export function show(value: unknown): string {
  const cut = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);
  if (value === undefined) return "undefined";
  if (typeof value === "string") return JSON.stringify(cut(value));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return `${String(value)}n`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // a cycle, or a BigInt inside: described by its type
  }
  return cut(text ?? (Array.isArray(value) ? "an array" : "an object"));
}

/** Formats problems as one readable message, one line per problem. */
export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.field}: got ${p.value}; ${p.allowed}`).join("\n");
}

/** Returns a problem when `value` is not one of `allowed`, or undefined. */
export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): Problem | undefined {
  if (typeof value === "string" && allowed.includes(value)) return undefined;
  return { field, value: show(value), allowed: `expected one of ${allowed.join(", ")}` };
}

/** True when `key` is an own property of `table`: user input never finds `Object.prototype`'s members. */
export function isOwnKey<T extends object>(table: T, key: unknown): key is keyof T & string {
  return typeof key === "string" && Object.prototype.hasOwnProperty.call(table, key);
}

/** `table[key]` when `key` is one of the table's own properties, otherwise `undefined`. */
export function ownValue<T extends object>(table: T, key: unknown): T[keyof T] | undefined {
  return isOwnKey(table, key) ? table[key] : undefined;
}

/** Longest API URL accepted, in characters: 2048 (what browsers and proxies reliably carry). */
export const MAX_API_URL_LENGTH = 2048;
/** Longest API key accepted, in characters: 1024 (keys of the service are a few dozen). */
export const MAX_API_KEY_LENGTH = 1024;
/** Longest `name` filter of the node list, in characters: 255, as a network name. */
export const MAX_NAME_FILTER_LENGTH = 255;

/** The edit distance of two short words (insertions, deletions, substitutions, transpositions). */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name `given` most resembles (same letters in another case, or a typo away), if any. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  if (given.length > 64) return undefined;
  const lower = given.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const [best, d] = known
    .map((k) => [k, distance(lower, k.toLowerCase())] as const)
    .reduce((a, b) => (b[1] < a[1] ? b : a), [undefined, Infinity] as readonly [string | undefined, number]);
  return best !== undefined && d <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

/** One problem per name not among `known`, naming the close one; `__` names and `undefined` values skipped. */
export function unknownProperties(
  given: Record<string, unknown>,
  known: readonly string[],
  what = "property",
) {
  const problems: Problem[] = [];
  for (const key of Object.keys(given)) {
    if (key.startsWith("__") || given[key] === undefined || known.includes(key)) continue;
    const close = closestName(key, known);
    problems.push({
      field: key.length > 64 ? `${key.slice(0, 61)}...` : key,
      value: show(given[key]),
      allowed: `unknown ${what}${close ? `; did you mean \`${close}\`?` : ""} Known: ${known.map((k) => `\`${k}\``).join(", ")}`,
    });
  }
  return problems;
}

/** A problem when `value` is a string longer than `max` characters. */
export function checkLength(field: string, value: unknown, max: number): Problem | undefined {
  if (typeof value !== "string" || value.length <= max) return undefined;
  return {
    field,
    value: `a string of ${value.length} characters`,
    allowed: `expected at most ${max} characters`,
  };
}

/** A kind's prefix and example; a `kind` that does not exist is a programming error (a RangeError). */
function idKind(kind: IdKind) {
  if (!isOwnKey(ID_KINDS, kind)) throw new RangeError(`unknown id kind ${JSON.stringify(String(kind))}`);
  return ID_KINDS[kind];
}

/** An identifier: its prefix, then hyphen-separated digit groups; always safe as a URL path segment. */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${idKind(kind).prefix}(?:-[0-9]{1,12}){1,6}$`);
}

const PATTERNS = Object.fromEntries(Object.keys(ID_KINDS).map((k) => [k, idPattern(k as IdKind)]));

/** True when `value` is an identifier of the given kind (false for a kind that does not exist). */
export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === "string" && isOwnKey(PATTERNS, kind) && PATTERNS[kind].test(value);
}

/** The problem with `value` as an identifier of `kind`, or undefined; throws a RangeError for a `kind` that does not exist. */
export function checkId(kind: IdKind, field: string, value: unknown): Problem | undefined {
  const { prefix, example } = idKind(kind);
  if (isId(kind, value)) return undefined;
  const allowed = `expected a ${kind} id: "${prefix}-" followed by hyphen-separated digit groups, e.g. ${example}`;
  return problem(field, value, allowed);
}

/** The regions a provider offers, or `undefined` for anything that is not a provider. */
export function regionsOf(provider: unknown): readonly Region[] | undefined {
  return ownValue(PROVIDER_REGIONS, provider);
}

/** The protocol a public network belongs to, or `undefined` for anything that is not one. */
export function protocolOfPublicNetwork(publicNetwork: unknown): Protocol | undefined {
  return ownValue(PUBLIC_NETWORKS, publicNetwork);
}

/** True when `shared` nodes exist for `protocol` (one of {@link SHARED_PROTOCOLS}). */
export function allowsSharedNodes(protocol: unknown): boolean {
  return typeof protocol === "string" && (SHARED_PROTOCOLS as readonly string[]).includes(protocol);
}

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
  if (regions && typeof region === "string" && !(regions as readonly string[]).includes(region))
    problems.push(
      problem(prefix + "region", region, `provider ${String(provider)} offers only ${regions.join(", ")}`),
    );
  const networkProtocol = protocolOfPublicNetwork(publicNetwork);
  if (protocol !== undefined && networkProtocol !== undefined && networkProtocol !== protocol) {
    const allowed = `${String(publicNetwork)} belongs to protocol ${networkProtocol}, not ${String(protocol)}`;
    problems.push(problem(prefix + "publicNetwork", publicNetwork, allowed));
  }
  const effectiveProtocol = protocol ?? networkProtocol;
  if (type === "shared" && effectiveProtocol !== undefined && !allowsSharedNodes(effectiveProtocol)) {
    const which =
      protocol === undefined
        ? `${String(publicNetwork)} is a ${String(effectiveProtocol)} network, which`
        : `protocol ${String(protocol)}`;
    const only = `shared nodes exist only for ${SHARED_PROTOCOLS.join(", ")}; ${which} has dedicated nodes only`;
    problems.push(problem(prefix + "type", type, only));
  }
  return problems;
}

/** Longest network name accepted. The spec sets none; this bound keeps names printable. */
export const MAX_NETWORK_NAME_LENGTH = 255;

/** Checks a network name: a non-empty string, not only whitespace, at most 255 characters. */
export function checkNetworkName(field: string, value: unknown): Problem | undefined {
  if (typeof value !== "string" || value.trim().length === 0)
    return problem(field, value, "expected a non-empty name");
  const max = MAX_NETWORK_NAME_LENGTH;
  return value.length > max ? problem(field, value, `expected at most ${max} characters`) : undefined;
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

export const PAGE_QUERY = "page";

/** Checks one filter value; a `name` that is not a filter is a problem too, never a crash. */
export function checkFilterValue(name: NodeFilterName, value: unknown, field: string = name) {
  if (!isOwnKey(NODE_FILTERS, name)) return unknownFilter(field, value);
  const rule: FilterRule = NODE_FILTERS[name].rule;
  switch (rule.kind) {
    case "id":
      return checkId(rule.idKind, field, value);
    case "enum":
      return checkOneOf(field, value, rule.values);
    case "boolean":
      return typeof value === "boolean" ? undefined : problem(field, value, "expected true or false");
    case "string":
      if (typeof value !== "string" || value.length === 0)
        return problem(field, value, "expected a non-empty string");
      return checkLength(field, value, MAX_NAME_FILTER_LENGTH);
  }
}

function unknownFilter(field: string, value: unknown): Problem {
  const close = closestName(field.slice(field.lastIndexOf(".") + 1), NODE_FILTER_NAMES);
  const allowed = `unknown filter${close ? `; did you mean \`${close}\`?` : ""}; expected one of ${NODE_FILTER_NAMES.join(", ")}`;
  return problem(field, value, allowed);
}

/** Every problem of a filter object (unknown keys, values, combinations that never match); never throws. */
export function validateNodeFilters(filters: Record<string, unknown>, prefix = ""): Problem[] {
  if (typeof filters !== "object" || filters === null || Array.isArray(filters)) {
    const field = prefix.replace(/\.$/, "") || "filters";
    return [problem(field, filters, "expected an object of filters")];
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

export const MAX_FAUCET_CHAIN_LENGTH = 63;

/** A faucet chain name: one path segment as it is (never escaped, cannot leave `/v1/faucet/`). */
export const FAUCET_CHAIN_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;

const ALLOWED_CHAIN = `expected a chain name such as ${DEFAULT_FAUCET_CHAIN} or sepolia: a lowercase letter, then lowercase letters, digits and hyphens, 1 to ${MAX_FAUCET_CHAIN_LENGTH} characters`;

/** The problem with a faucet chain name, or undefined; whether the service serves it is its own answer (a 404). */
export function checkFaucetChain(field: string, value: unknown): Problem | undefined {
  if (typeof value === "string" && FAUCET_CHAIN_PATTERN.test(value)) return undefined;
  return problem(field, value, ALLOWED_CHAIN);
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
  if (typeof value !== "string" || !HEX_ADDRESS.test(value))
    return problem(field, value, "expected 0x followed by 40 hex digits (a 20-byte address)");
  const digits = value.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return undefined;
  const expected = toChecksumAddress(value);
  if (expected === value) return undefined;
  const allowed = `the mixed-case checksum (EIP-55) does not match; the checksummed form is ${expected}, or write it all lowercase`;
  return problem(field, value, allowed);
}
