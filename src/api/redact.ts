import { BODY_PREVIEW_CHARS, REDACTED } from "./defaults";

/** Turns text into the same text with credentials replaced by `[REDACTED]`. */
export type Redactor = (text: string) => string;

const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi;
const AUTH_HEADER =
  /(\bauthorization["']?\s*[:=]\s*["']?)(?:(?:Basic|Token|Digest)\s+)?(?!Bearer\b)[^\s,;"'}]+/gi;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const SECRET_QUERY =
  /([?&;][^=&#\s"'<>]*(?:key|token|secret|password|passwd|pwd|auth|signature|sig|credential)[^=&#\s"'<>]*=)[^&#\s"'<>]*/gi;
const SECRET_JSON_FIELD =
  /("(?:auth_?password|auth_?key|auth_?username|password|passwd|api_?key|apiKey|access_?token|accessToken|refresh_?token|token|secret|client_?secret)"\s*:\s*")(?:[^"\\]|\\.)*(")/gi;
/** A path segment that looks like a key: long, letters and digits mixed. */
const TOKEN_SEGMENT = /^[A-Za-z0-9_~.-]{16,}$/;
/** Resource identifiers (`ND-123-456-789`) are not credentials, however long. */
const RESOURCE_ID = /^[A-Z]{2}(?:-[0-9]+)+$/;

function looksLikeToken(segment: string): boolean {
  return (
    TOKEN_SEGMENT.test(segment) &&
    !RESOURCE_ID.test(segment) &&
    /[0-9]/.test(segment) &&
    /[A-Za-z]/.test(segment)
  );
}

/** Redacts path segments of one URL that look like embedded keys (`https://host/3c6e0b8a…`). */
function redactUrlPath(url: string): string {
  const schemeEnd = url.indexOf("://") + 3;
  const pathStart = url.slice(schemeEnd).search(/[/?#]/);
  if (pathStart < 0) return url;
  const head = url.slice(0, schemeEnd + pathStart);
  const rest = url.slice(schemeEnd + pathStart);
  const queryStart = rest.search(/[?#]/);
  const path = queryStart < 0 ? rest : rest.slice(0, queryStart);
  const tail = queryStart < 0 ? "" : rest.slice(queryStart);
  const redactedPath = path
    .split("/")
    .map((segment) => (looksLikeToken(segment) ? REDACTED : segment))
    .join("/");
  return head + redactedPath + tail;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Returns a copy of `text` with credentials replaced by `[REDACTED]`:
 * each of `secrets` (and its URL-encoded form), `Bearer …` tokens, `Authorization` header values,
 * URL user-info (`https://user:pass@host`), secret-looking query parameters (`?api_key=…`),
 * key-looking URL path segments (endpoint URLs that embed a key) and credential fields of
 * JSON text (`"auth_password": "…"`). The input is never modified.
 */
export function redact(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = String(text);
  const literal = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length === 0) continue;
    literal.add(secret);
    literal.add(encodeURIComponent(secret));
    literal.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so that a secret containing another is replaced whole.
  for (const secret of [...literal].sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(escapeRegExp(secret), "g"), REDACTED);
  }
  return out
    .replace(BEARER, `Bearer ${REDACTED}`)
    .replace(AUTH_HEADER, `$1${REDACTED}`)
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(SECRET_QUERY, `$1${REDACTED}`)
    .replace(SECRET_JSON_FIELD, `$1${REDACTED}$2`)
    .replace(URL, (url) => redactUrlPath(url));
}

/** Returns a {@link Redactor} that always redacts `secrets` besides the generic patterns. */
export function createRedactor(secrets: ReadonlyArray<string | undefined> = []): Redactor {
  const copy = [...secrets];
  return (text: string) => redact(text, copy);
}

/**
 * The first `max` characters of a response body, redacted, for an error message. The text is
 * redacted before it is cut, so that a key straddling the cut cannot leak half of itself.
 */
export function previewBody(body: string, redactor: Redactor, max: number = BODY_PREVIEW_CHARS): string {
  const redacted = redactor(body.slice(0, Math.max(max * 20, 4096)));
  const oneLine = redacted.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
