/**
 * The one place where the service's snake_case JSON becomes the camelCase types: unknown fields ignored, a missing
 * optional one left out, a bad required one named; the faucet's amount read exactly (a wei amount passes 2^53).
 */
import { NODE_DETAIL_FIELDS } from "../model/node-fields";
import type { Creator, FaucetResult, NetworkInfo, Node, NodeDetails } from "./types";

/** The response body did not have the shape the spec gives; `problems` name each field, e.g. `node.id: expected a string, got undefined`. */
export class ResponseShapeError extends Error {
  override name = "ResponseShapeError";
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
  }
}

type Json = Record<string, unknown>;

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value === "string" ? "a string" : typeof value;
}

/** `value`, or a {@link ResponseShapeError} of `problems` when there are any. */
function checked<T>(value: T, problems: string[]): T {
  if (problems.length > 0) throw new ResponseShapeError(problems);
  return value;
}

/** Reads the object `wire` at `path`, noting each wrong field in `problems`; `undefined` when it is no object. */
function reader(wire: unknown, path: string, problems: string[]) {
  if (!isObject(wire)) return void problems.push(`${path}: expected an object, got ${describe(wire)}`);
  const wrong = (key: string, expected: string) =>
    problems.push(`${path}.${key}: expected ${expected}, got ${describe(wire[key])}`);
  return {
    wire,
    /** An object field, `{}` when absent. */
    object(key: string): Json {
      if (isObject(wire[key])) return { ...wire[key] };
      if (wire[key] !== undefined && wire[key] !== null) wrong(key, "an object");
      return {};
    },
    required: (key: string) => (typeof wire[key] === "string" ? wire[key] : (wrong(key, "a string"), "")),
  };
}

/** Maps a wire `creator` (spec 2.3), its missing fields `""`; `undefined` when absent or not an object. */
function toCreator(wire: unknown): Creator | undefined {
  if (!isObject(wire)) return undefined;
  const org = isObject(wire.organization) ? wire.organization : {};
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return {
    id: text(wire.id),
    email: text(wire.email),
    firstName: text(wire.first_name),
    lastName: text(wire.last_name),
    organization: { id: text(org.id), name: text(org.name) },
  };
}

/** A node's wire `details` (spec 2.1.1), by the node-field table; a missing or mistyped field is left out. */
function toNodeDetails(wire: unknown): NodeDetails {
  if (!isObject(wire)) return {};
  const details: Record<string, string | string[]> = {};
  for (const [name, field] of Object.entries(NODE_DETAIL_FIELDS)) {
    const value = wire[field.wire];
    if (field.value === "list") {
      if (Array.isArray(value) && value.every((v) => typeof v === "string")) details[name] = [...value];
    } else if (typeof value === "string") details[name] = value;
  }
  return details as NodeDetails;
}

/** Deletes the keys of `value` that hold `undefined`, so a missing field is absent. */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function readNode(wire: unknown, path: string, problems: string[]): Node {
  const r = reader(wire, path, problems);
  if (!r) return undefined as unknown as Node;
  const configuration = r.object("configuration");
  if (configuration.archive !== undefined && typeof configuration.archive !== "boolean")
    delete configuration.archive;
  return compact<Node>({
    id: r.required("id"),
    name: r.required("name"),
    network: r.required("network"),
    organization: r.required("organization"),
    type: r.required("type"),
    role: r.required("role"),
    provider: r.required("provider"),
    region: r.required("region"),
    status: r.required("status"),
    configuration,
    details: toNodeDetails(r.wire.details),
    createdAt: r.required("created_at"),
    creator: toCreator(r.wire.creator),
  });
}

/** Maps one wire node (spec 2.1). Throws {@link ResponseShapeError} when a required field is missing. */
export function toNode(wire: unknown, path = "node"): Node {
  const problems: string[] = [];
  return checked(readNode(wire, path, problems), problems);
}

/** Maps one wire network (spec 2.2): `publicNetwork` is `configuration.network`, missing `nodes` are `[]`. */
export function toNetwork(wire: unknown, path = "network"): NetworkInfo {
  const problems: string[] = [];
  const r = reader(wire, path, problems);
  if (!r) throw new ResponseShapeError(problems);
  const { nodes = [] } = r.wire;
  if (!Array.isArray(nodes ?? [])) problems.push(`${path}.nodes: expected an array, got ${describe(nodes)}`);
  const configuration = r.object("configuration");
  const network = compact<NetworkInfo>({
    id: r.required("id"),
    name: r.required("name"),
    project: r.required("project"),
    protocol: r.required("protocol"),
    publicNetwork: typeof configuration.network === "string" ? configuration.network : undefined,
    configuration,
    details: r.object("details"),
    status: r.required("status"),
    nodes: Array.isArray(nodes) ? nodes.map((n, i) => readNode(n, `${path}.nodes[${i}]`, problems)) : [],
    creator: toCreator(r.wire.creator),
    createdAt: r.required("created_at"),
  });
  return checked(network, problems);
}

/** A non-negative JSON number token (RFC 8259): integer, fraction and exponent digits. */
const NUMBER_TOKEN = /^(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Largest decimal exponent accepted when expanding an amount (keeps the expansion bounded). */
const MAX_EXPONENT = 400;

/** The exact digits of the integer a JSON number token denotes (`5e17`), or `undefined` for any other. */
export function integerDigits(token: string): string | undefined {
  const match = NUMBER_TOKEN.exec(token.trim());
  if (!match) return undefined;
  const [, intPart, fracPart = "", expPart = "0"] = match;
  const exponent = Number(expPart);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  const digits = intPart + fracPart;
  // Where the decimal point falls in `digits`, padded with zeros when it falls past them.
  const point = Math.max(0, intPart.length + exponent);
  const padded = digits.padEnd(point, "0");
  if (/[1-9]/.test(padded.slice(point))) return undefined;
  return padded.slice(0, point).replace(/^0+(?=\d)/, "") || "0";
}

/**
 * The source text of a top-level key's value in valid JSON (the last one, as JSON.parse keeps), so a number
 * beyond 2^53 reads without loss; keys of nested objects or in strings do not count.
 */
export function rawTopLevelValue(json: string, key: string): string | undefined {
  // Strings, other literals, and each punctuation mark, with where each starts.
  const tokens = [...json.matchAll(/"(?:\\[^]|[^"\\])*"|[^\s"{}[\],:]+|\S/g)];
  if (tokens[0]?.[0] !== "{") return undefined;
  let [depth, found, name, from] = [0, undefined as string | undefined, undefined as unknown, 0];
  for (const [i, [token]] of tokens.entries()) {
    if (depth === 1 && token === ":")
      [name, from] = [JSON.parse(tokens[i - 1][0]), tokens[i + 1]?.index ?? 0];
    if (depth === 1 && (token === "," || token === "}") && name !== undefined) {
      if (name === key) found = json.slice(from, tokens[i].index).trimEnd();
      name = undefined;
    }
    if (token === "{" || token === "[") depth++;
    else if (token === "}" || token === "]") depth--;
  }
  return found;
}

/** The exact digits of the faucet's `amountSent` (wei): an integer number or string of any size (`5e17` too). */
export function extractAmountSent(rawJson: string): string {
  let raw: string | undefined;
  try {
    raw = rawTopLevelValue(rawJson, "amountSent");
  } catch (e) {
    throw new ResponseShapeError([`amountSent: could not read the JSON text (${(e as Error).message})`]);
  }
  if (raw === undefined) throw new ResponseShapeError(["amountSent: missing"]);
  const token = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  const digits = integerDigits(token);
  const shown = raw.length > 60 ? `${raw.slice(0, 57)}...` : raw;
  if (digits === undefined)
    throw new ResponseShapeError([`amountSent: expected a non-negative integer amount of wei, got ${shown}`]);
  return digits;
}

/** Maps the faucet's result (spec 2.4), reading `amountSent` exactly from `rawJson`, the body's text. */
export function toFaucetResult(parsed: unknown, rawJson: string): FaucetResult {
  const problems: string[] = [];
  const r = reader(parsed, "faucet result", problems);
  if (!r) throw new ResponseShapeError(problems);
  const { transaction } = r.wire;
  let amountSent = "";
  try {
    amountSent = extractAmountSent(rawJson);
  } catch (e) {
    problems.push(...(e as ResponseShapeError).problems);
  }
  if (typeof transaction !== "string")
    problems.push(`transaction: expected a string, got ${describe(transaction)}`);
  return checked({ amountSent, transaction: transaction as string }, problems);
}
