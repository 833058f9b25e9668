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
  const match = header === undefined ? null : /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  if (!match) {
    return {
      reply: errorReply(401, "not_authenticated", "Authentication credentials were not provided.", {
        headers: CHALLENGE,
      }),
    };
  }
  const key = (match[1] ?? "").trim();
  const organization = key === "" ? undefined : store.organizationOfKey(key);
  if (organization === undefined) {
    return { reply: errorReply(401, "authentication_failed", "Invalid API key.", { headers: CHALLENGE }) };
  }
  return { organization };
}
