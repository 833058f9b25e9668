/**
 * `redact`: every pass in order, each scanning the text once, left to right. Linear time.
 */
import { redactSecretAssignments, redactSecretParams } from "./assignments";
import { redactAuthorization, redactBearer } from "./headers";
import { redactCredentialFields } from "./json-fields";
import { redactKnown } from "./known";
import { redactUrls } from "./urls";

/** Turns text into the same text with credentials replaced by `[REDACTED]`. */
export type Redactor = (text: string) => string;

/**
 * Returns a copy of `text` with credentials replaced by `[REDACTED]`:
 * each of `secrets` (and its URL-encoded and JSON-escaped forms), `Bearer …` tokens,
 * `Authorization` header values, URL user-info (`https://user:pass@host`), secret-looking query
 * parameters (`?api_key=…`, whatever the length of the value), key-looking URL host labels,
 * path segments, query names and values and fragments (endpoint URLs that embed a key, see
 * {@link isKeyLike}) and credential fields of JSON text (`"password": "…"`, also when the
 * value is cut short by the end of the text). Resource ids (`ND-123-456-789`) are kept. The input
 * is never modified. Runs in time linear in the length of `text` (no backtracking regular
 * expressions), so a hostile server message cannot stall the process.
 */
export function redact(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = redactKnown(String(text), secrets);
  out = redactBearer(out);
  out = redactAuthorization(out);
  out = redactSecretParams(out);
  out = redactSecretAssignments(out);
  out = redactCredentialFields(out);
  return redactUrls(out);
}

/** Returns a {@link Redactor} that always redacts `secrets` besides the generic patterns. */
export function createRedactor(secrets: ReadonlyArray<string | undefined> = []): Redactor {
  const copy = [...secrets];
  return (text: string) => redact(text, copy);
}
