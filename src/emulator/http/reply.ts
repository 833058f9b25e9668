import type { IncomingHttpHeaders } from "http";
import { formatProblems, type Problem } from "../../model/rules";
import type { WireError } from "../../model/wire";
import type { FaucetLedger } from "../data/faucet-ledger";
import type { Store } from "../data/store";

/** A response to write: status, headers and an optional body. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /** A body sent in parts (instead of `body`), so that a big part can be shared between replies. */
  chunks?: ReadonlyArray<string | Buffer>;
}

/** The JSON content type of every JSON answer. */
export const JSON_TYPE = "application/json";

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "Content-Type": JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** An error reply with the service's error body `{"error": {"code", "message"}}`. */
export function errorReply(
  status: number,
  code: string,
  message: string,
  options: {
    fields?: Record<string, string[]>;
    top?: Record<string, unknown>;
    headers?: Record<string, string>;
  } = {},
): Reply {
  const body: WireError = {
    error: { code, message, ...(options.fields ? { fields: options.fields } : {}) },
    ...options.top,
  };
  return json(status, body, options.headers);
}

/** The 404 answer: missing, or not visible to the caller (the service does not tell them apart). */
export function notFound(message = "Not found."): Reply {
  return errorReply(404, "not_found", message);
}

/** The 405 answer, with the methods allowed. */
export function methodNotAllowed(method: string, allow: readonly string[]): Reply {
  const headers = { Allow: allow.join(", ") };
  return errorReply(405, "method_not_allowed", `Method "${method}" not allowed.`, { headers });
}

/** A 400 `validation_error`: `fields` maps each field (wire name) to its messages; `message` lists them. */
export function validationError(problems: readonly Problem[]): Reply {
  const fields: Record<string, string[]> = {};
  for (const p of problems) (fields[p.field] ??= []).push(`${p.allowed} (got ${p.value})`);
  return errorReply(400, "validation_error", formatProblems(problems), { fields });
}

/**
 * A JSON object body (empty: `{}`), or the error to answer: 415 without a JSON content type,
 * 400 `parse_error` when it does not parse, 400 `validation_error` when it is not an object.
 */
export function parseJsonObject(
  body: Buffer,
  type?: string,
): { value: Record<string, unknown> } | { reply: Reply } {
  const text = body.toString("utf8");
  if (text.trim() === "") return { value: {} };
  const mediaType = (type ?? "").split(";")[0].trim().toLowerCase();
  if (!/^application\/(?:[a-z0-9.+-]+\+)?json$/.test(mediaType)) {
    const message = `Unsupported media type "${mediaType}" in request; send JSON with Content-Type: application/json.`;
    return { reply: errorReply(415, "unsupported_media_type", message) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { reply: errorReply(400, "parse_error", `JSON parse error - ${(error as Error).message}`) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "list" : typeof value;
    const message = `Invalid data. Expected a dictionary, but got ${got}.`;
    const fields = { non_field_errors: [message] };
    return { reply: errorReply(400, "validation_error", message, { fields }) };
  }
  return { value: value as Record<string, unknown> };
}

/** A request as the API handlers see it: upper-case method, raw path and query, the body read. */
export interface ApiRequest {
  method: string;
  path: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** `http://host:port` as the client addressed the server, for absolute links. */
  origin: string;
}

/** Shared state and settings of the handlers. */
export interface ApiContext {
  store: Store;
  faucet: FaucetLedger;
  pageSize: number;
  faucetDailyLimit: number;
  /** The chains whose faucet is served; any other answers 404. */
  faucetChains: readonly string[];
  now: () => Date;
}

/**
 * Checks `Authorization: Bearer <API_KEY>` (spec 5). No header, or another scheme: 401
 * `not_authenticated`. A Bearer header with an empty or unknown key: 401 `authentication_failed`.
 */
export function authenticate(
  header: string | undefined,
  store: Store,
): { organization: string } | { reply: Reply } {
  const key = bearerKey(header);
  const organization = key ? store.organizationOfKey(key) : undefined;
  if (organization !== undefined) return { organization };
  const [code, message] =
    key === undefined
      ? ["not_authenticated", "Authentication credentials were not provided."]
      : ["authentication_failed", "Invalid API key."];
  return { reply: errorReply(401, code, message, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } }) };
}

/** The key of a Bearer `Authorization` header (`""` when empty), or undefined for none or another scheme. */
export function bearerKey(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? "").trim() : undefined;
}

/**
 * Requests per second per API key over a sliding 1 s window (only served requests count):
 * `take(key)` records one and returns undefined, or returns the seconds until one is allowed.
 */
export function rateLimiter(perSecond: number, now: () => number): (key: string) => number | undefined {
  const windows = new Map<string, number[]>();
  return (key) => {
    const t = now();
    const times = windows.get(key) ?? [];
    while (times.length > 0 && times[0] <= t - 1000) times.shift();
    windows.set(key, times);
    if (times.length >= perSecond) return Math.max(1, Math.ceil((times[0] + 1000 - t) / 1000));
    times.push(t);
    return undefined;
  };
}
