/**
 * The checks of the two options that hold or may hold a credential, the API URL and the API
 * key, and the errors of construction: no error shows the key, nor the text of a refused API URL
 * (which may be a key put in the wrong place).
 */
import { MAX_API_KEY_LENGTH, secretForms } from "../model";
import { REDACTED } from "./defaults";
import { InvalidInputError } from "./errors";
import { typeOf } from "./option-checks";
import { Redactor, redact } from "./redact";
import { ApiBase, ApiUrlError, parseApiUrl } from "./url";

/**
 * Texts shorter than this are not redacted as literals from construction errors (they cannot be
 * told apart from ordinary words, and the messages never quote the key or the URL anyway).
 */
const MIN_LITERAL_SECRET_LENGTH = 4;
/** An invalid API URL shorter than this is not hidden by the redactor: it cannot be a key. */
const MIN_HIDDEN_URL_LENGTH = 8;

const OPERATION = "NodeServiceClient";

/**
 * A redactor for construction errors: replaces each secret (and its JSON-escaped and URL-encoded
 * forms) with `[REDACTED]`, then applies the generic credential patterns of `redact`. Works for
 * any string, lone surrogates included.
 */
export function constructionRedactor(secrets: readonly string[]): Redactor {
  const literals = [
    ...new Set(secrets.filter((s) => s.length >= MIN_LITERAL_SECRET_LENGTH).flatMap((s) => secretForms(s))),
  ].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = String(text);
    for (const literal of literals) out = out.split(literal).join(REDACTED);
    return redact(out);
  };
}

/** Throws the `InvalidInputError` of a refused option (nothing is sent), redacted with `redactor`. */
export function fail(
  redactor: Redactor,
  code: string,
  detail: string,
  fields: Record<string, string[]>,
  hint?: string,
): never {
  throw new InvalidInputError({ operation: OPERATION, code, detail, fields, attempts: 0, hint }, redactor);
}

/** The first character of a key that an HTTP header cannot carry, described without showing it. */
function headerProblem(key: string): string | undefined {
  let position = 0;
  for (const char of key) {
    position += 1;
    const code = char.codePointAt(0) ?? 0;
    let what: string | undefined;
    if (code === 0x0a || code === 0x0d) what = "a line break";
    else if (code < 0x20 || code === 0x7f) what = "a control character";
    else if (code > 0x7e) what = "a non-ASCII character";
    if (what) {
      return `the API key contains a character that cannot be sent in an HTTP header (${what} at position ${position} of ${[...key].length}); check how it was copied`;
    }
  }
  return undefined;
}

function looksLikeUrl(text: unknown): boolean {
  return typeof text === "string" && /^\s*https?:\/\//i.test(text);
}

/** The API key as sent (trimmed), and its forms that no error may show. */
export function keyForms(rawKey: unknown): { key: string; secrets: string[] } {
  const key = typeof rawKey === "string" ? rawKey.trim() : "";
  return { key, secrets: key === "" ? [] : [rawKey as string, key] };
}

/**
 * Checks the API URL (see `parseApiUrl`; it must not contain the key), then the key (not empty,
 * only characters an HTTP header can carry); returns the parsed URL or throws an
 * `InvalidInputError` (`invalid_api_url`, `missing_api_key`, `invalid_api_key`).
 */
export function checkUrlAndKey(rawUrl: unknown, rawKey: unknown): ApiBase {
  const { key, secrets } = keyForms(rawKey);
  let redactor = constructionRedactor(secrets);
  let base: ApiBase;
  try {
    base = parseApiUrl(rawUrl);
    if (key.length >= MIN_HIDDEN_URL_LENGTH && (rawUrl as string).includes(key)) {
      throw new ApiUrlError(
        "the API URL contains the API key; give the key only as apiKey, never in the URL (it would end up in logs)",
      );
    }
  } catch (error) {
    if (!(error instanceof ApiUrlError)) throw error;
    if (typeof rawUrl === "string" && rawUrl.trim().length >= MIN_HIDDEN_URL_LENGTH) {
      redactor = constructionRedactor([...secrets, rawUrl, rawUrl.trim()]);
    }
    const swapped = !looksLikeUrl(rawUrl) && looksLikeUrl(rawKey);
    fail(
      redactor,
      "invalid_api_url",
      "invalid API URL",
      { apiUrl: [error.message] },
      swapped ? "apiKey looks like a URL and apiUrl does not: were apiUrl and apiKey swapped?" : undefined,
    );
  }
  if (key === "") {
    fail(redactor, "missing_api_key", "the API key is empty", {
      apiKey: [
        typeof rawKey === "string"
          ? `got ${rawKey === "" ? "an empty string" : "only whitespace"}; expected the API key`
          : `got ${typeOf(rawKey)}; expected the API key as a string`,
      ],
    });
  }
  if (key.length > MAX_API_KEY_LENGTH) {
    fail(redactor, "invalid_api_key", "invalid API key", {
      apiKey: [
        `the API key is ${key.length} characters long, more than the ${MAX_API_KEY_LENGTH} accepted; check how it was copied`,
      ],
    });
  }
  const keyProblem = headerProblem(key);
  if (keyProblem) fail(redactor, "invalid_api_key", "invalid API key", { apiKey: [keyProblem] });
  return base;
}
