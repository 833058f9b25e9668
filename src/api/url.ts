import { MAX_API_KEY_LENGTH, MAX_API_URL_LENGTH } from "../model";
import { InvalidInputError } from "./errors";
import { createRedactor, redact, type Redactor } from "./redact";

/** The parsed API address: the origin every request goes to, and the path prefix before `/v1/`. */
export interface ApiBase {
  /** `https://host[:port]`: the only origin the API key is ever sent to. */
  origin: string;
  /** The path prefix (the spec's `base_url` path) without trailing slash; `""` when none. */
  basePath: string;
  /** The normalized address, `origin + basePath`. */
  href: string;
}

/** Why an API URL was refused: a plain message that says how to fix it. */
export class ApiUrlError extends Error {
  override name = "ApiUrlError";
}

/** Whether a URL's `hostname` is loopback (plain `http://` allowed): `localhost`, `127.0.0.0/8`, `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const octets = host.split(".");
  return (
    host === "localhost" ||
    host === "[::1]" ||
    (/^127(\.\d{1,3}){3}$/.test(host) && octets.every((o) => +o <= 255))
  );
}

/** A URL's origin and path, redacted, for a message. */
function showUrl(url: URL): string {
  const text = redact(`${url.protocol}//${url.host}${url.pathname}`);
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 97)}...` : text);
}

const EXPECTED = "expected e.g. https://<api host> or https://<api host>/<path prefix>";

/** A host name DNS can carry: at most 253 characters, labels of 1 to 63 (a trailing dot allowed). */
function isDnsName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, "");
  return name.length <= 253 && name.split(".").every((label) => label.length >= 1 && label.length <= 63);
}

function notAUrl(text: string): ApiUrlError {
  const length = [...text].length;
  return new ApiUrlError(
    `the API URL is not a valid absolute URL (${length} character${length === 1 ? "" : "s"}, not shown in case it is a key); ${EXPECTED}`,
  );
}

/**
 * Parses and checks the API URL: absolute `https://` (`http://` only on a loopback host), an optional path
 * prefix, no credentials, query or fragment. Throws an {@link ApiUrlError} saying how to fix it, which shows
 * at most the scheme, host and path (of a non-URL only its length: it may be a key in the wrong place).
 */
export function parseApiUrl(apiUrl: unknown): ApiBase {
  if (apiUrl !== undefined && apiUrl !== null && typeof apiUrl !== "string") {
    throw new ApiUrlError(
      `the API URL must be a string, got ${Array.isArray(apiUrl) ? "an array" : `a ${typeof apiUrl}`}; ${EXPECTED}`,
    );
  }
  if (typeof apiUrl !== "string" || apiUrl.trim() === "") {
    throw new ApiUrlError(`the API URL is missing; ${EXPECTED}`);
  }
  const text = apiUrl.trim();
  if (text.length > MAX_API_URL_LENGTH) {
    throw new ApiUrlError(
      `the API URL is ${text.length} characters long, more than the ${MAX_API_URL_LENGTH} accepted; ${EXPECTED}`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw notAUrl(text);
  }
  // `key:value` parses as a URL of scheme `key:`: without a host it is no web address at all.
  if (url.host === "") throw notAUrl(text);
  if (url.username || url.password) {
    throw new ApiUrlError(
      `the API URL ${showUrl(url)} contains credentials (user:password@); remove them and pass the API key as the apiKey option`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ApiUrlError(
      `the API URL uses the scheme ${url.protocol}; the service is reached over https://`,
    );
  }
  if (!url.hostname.startsWith("[") && !isDnsName(url.hostname)) {
    throw new ApiUrlError(
      `the API URL's host name is not a valid DNS name (${url.hostname.length} characters; at most 253, each label at most 63); ${EXPECTED}`,
    );
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    const path = url.pathname === "/" ? "" : url.pathname;
    const host = redact(`https://${url.host}${path}`).slice("https://".length);
    throw new ApiUrlError(
      `the API URL uses plain http:// on a non-loopback host (${redact(`https://${url.host}`).slice("https://".length)}), which would send the API key unencrypted; use https://${host} (plain http:// is allowed only for localhost, 127.0.0.0/8 and [::1], e.g. a local emulator)`,
    );
  }
  if (url.search || url.hash) {
    const parts = [url.search ? "a query (?…)" : "", url.hash ? "a fragment (#…)" : ""].filter(Boolean);
    throw new ApiUrlError(
      `the API URL ${showUrl(url)} has ${parts.join(" and ")}, not shown; give only the scheme, host, port and optional path prefix`,
    );
  }
  // Every operation path starts with /v1/ (spec 9): a base URL given with its /v1 suffix means the same base.
  const basePath = url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
  return { origin: url.origin, basePath, href: url.origin + basePath };
}

/** The absolute URL of an API path (`/v1/...`) under the base, with an optional query (without `?`). */
export function apiUrl(base: ApiBase, path: string, query?: string): string {
  const suffix = path.startsWith("/") ? path : `/${path}`;
  return `${base.href}${suffix}${query ? `?${query}` : ""}`;
}

/**
 * A pagination link (`next`) resolved against its page's URL, its path and query put on the configured
 * origin (the API key never leaves it); a `TypeError` when it is no URL reference.
 */
export function resolveLink(base: ApiBase, currentUrl: string, link: string): string {
  const resolved = new URL(link, currentUrl);
  if (resolved.protocol !== "http:" && resolved.protocol !== "https:")
    throw new TypeError(`not an HTTP link`);
  return `${base.origin}${resolved.pathname}${resolved.search}`;
}

/** True when `url` is on the configured origin. */
export function isSameOrigin(base: ApiBase, url: string): boolean {
  try {
    return new URL(url).origin === base.origin;
  } catch {
    return false;
  }
}

/** {@link parseApiUrl} without throwing: `undefined` if it accepts the URL, else the reason (with a fix). */
export function checkApiUrl(apiUrl: unknown): string | undefined {
  try {
    parseApiUrl(apiUrl);
    return undefined;
  } catch (error) {
    if (error instanceof ApiUrlError) return error.message;
    throw error;
  }
}

/** A value described by its type only: for what may be a credential. */
export function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string of ${value.length} characters`;
  return typeof value === "object" || value === undefined ? String(typeof value) : `a ${typeof value}`;
}

export type Fields = Record<string, string[]>;

/** Throws the `InvalidInputError` of refused options (nothing was sent), redacted with `r`. */
export function refuse(r: Redactor, code: string, detail: string, fields: Fields, hint?: string): never {
  throw new InvalidInputError({ operation: "NodeServiceClient", code, detail, fields, attempts: 0, hint }, r);
}

/** The first character of a key an HTTP header cannot carry, described without showing it. */
function headerProblem(key: string): string | undefined {
  const chars = [...key];
  const at = chars.findIndex((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0x7e);
  if (at < 0) return undefined;
  const code = chars[at].charCodeAt(0);
  const what =
    code === 10 || code === 13
      ? "a line break"
      : code < 0x20 || code === 0x7f
        ? "a control character"
        : "a non-ASCII character";
  return `the API key contains a character that cannot be sent in an HTTP header (${what} at position ${at + 1} of ${chars.length}); check how it was copied`;
}

/** Checks the API URL, then the key; returns the parsed URL. No error shows the key or a refused URL. */
export function checkUrlAndKey(rawUrl: unknown, rawKey: unknown, secrets: string[]): ApiBase {
  const key = typeof rawKey === "string" ? rawKey.trim() : "";
  let base: ApiBase | undefined;
  try {
    base = parseApiUrl(rawUrl);
    if (key.length >= 8 && (rawUrl as string).includes(key)) {
      throw new ApiUrlError(
        "the API URL contains the API key; give the key only as apiKey, never in the URL",
      );
    }
  } catch (error) {
    if (!(error instanceof ApiUrlError)) throw error;
    // A refused URL may be a key put in the wrong place: it is redacted too.
    const url = typeof rawUrl === "string" && rawUrl.trim().length >= 8 ? [rawUrl, rawUrl.trim()] : [];
    const isUrl = (v: unknown) => typeof v === "string" && /^\s*https?:\/\//i.test(v);
    const swapped = !isUrl(rawUrl) && isUrl(rawKey);
    refuse(
      createRedactor([...secrets, ...url]),
      "invalid_api_url",
      "invalid API URL",
      { apiUrl: [error.message] },
      swapped ? "apiKey looks like a URL and apiUrl does not: were apiUrl and apiKey swapped?" : undefined,
    );
  }
  const redactor = createRedactor(secrets);
  if (key === "") {
    const got =
      typeof rawKey === "string" ? (rawKey === "" ? "an empty string" : "only whitespace") : typeOf(rawKey);
    refuse(redactor, "missing_api_key", "the API key is empty", {
      apiKey: [`got ${got}; expected the API key${typeof rawKey === "string" ? "" : " as a string"}`],
    });
  }
  const problem =
    key.length > MAX_API_KEY_LENGTH
      ? `the API key is ${key.length} characters long, more than the ${MAX_API_KEY_LENGTH} accepted; check how it was copied`
      : headerProblem(key);
  if (problem) refuse(redactor, "invalid_api_key", "invalid API key", { apiKey: [problem] });
  return base;
}
