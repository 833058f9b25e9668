import type { Reply } from "./reply";
import { errorReply } from "./reply";
import type { Store } from "../data/store";

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
