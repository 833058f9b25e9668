import type { IncomingHttpHeaders } from "http";
import type { FaucetLedger } from "../data/faucet-ledger";
import type { Store } from "../data/store";
import type { Reply } from "./reply";
import { errorReply } from "./reply";

/** A request as the API handlers see it (the body already read). */
export interface ApiRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Raw path, without the query; not percent-decoded. */
  path: string;
  /** Raw query string without `?` (may be empty). */
  rawQuery: string;
  /** Request headers. */
  headers: IncomingHttpHeaders;
  /** Request body (empty when none). */
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

/** The outcome of authentication: the caller's organization, or the 401 to answer. */
export type AuthResult = { organization: string } | { reply: Reply };

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="api"' };

/**
 * Checks `Authorization: Bearer <API_KEY>` (spec 5). No header, or another scheme: 401
 * `not_authenticated`. A Bearer header with an empty or unknown key: 401 `authentication_failed`.
 */
export function authenticate(header: string | undefined, store: Store): AuthResult {
  const key = bearerKey(header);
  if (key === undefined) {
    return {
      reply: errorReply(401, "not_authenticated", "Authentication credentials were not provided.", {
        headers: CHALLENGE,
      }),
    };
  }
  const organization = key === "" ? undefined : store.organizationOfKey(key);
  if (organization === undefined) {
    return { reply: errorReply(401, "authentication_failed", "Invalid API key.", { headers: CHALLENGE }) };
  }
  return { organization };
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
