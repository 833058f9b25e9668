import { MAX_API_URL_LENGTH } from "../model";
import { LOOPBACK_HOSTNAMES } from "./defaults";
import { redact } from "./redact";

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
  /** Builds the error. */
  constructor(message: string) {
    super(message);
    this.name = "ApiUrlError";
  }
}

/**
 * True for loopback host names, where plain `http://` is allowed: `localhost`, any IPv4 address
 * in `127.0.0.0/8`, and `[::1]`. Takes a URL's `hostname` (IPv6 in brackets).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (LOOPBACK_HOSTNAMES.includes(host)) return true;
  const octets = host.split(".");
  return (
    octets.length === 4 && octets[0] === "127" && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)
  );
}

/**
 * Shows the origin and path of a parsed URL, never its user-info, query or fragment; a path
 * segment that looks like a key is redacted.
 */
function showUrl(url: URL): string {
  const text = redact(`${url.protocol}//${url.host}${url.pathname}`);
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 97)}...` : text);
}

const EXPECTED = "expected e.g. https://<api host> or https://<api host>/<path prefix>";

/** A host name DNS can carry: at most 253 characters, labels of 1 to 63 (a trailing dot allowed). */
function isDnsName(hostname: string): boolean {
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (name.length === 0 || name.length > 253) return false;
  return name.split(".").every((label) => label.length >= 1 && label.length <= 63);
}

function notAUrl(text: string): ApiUrlError {
  const length = [...text].length;
  return new ApiUrlError(
    `the API URL is not a valid absolute URL (${length} character${length === 1 ? "" : "s"}, not shown in case it is a key); ${EXPECTED}`,
  );
}

/**
 * Parses and checks the API URL: an absolute `https://` URL (or `http://` on a loopback host,
 * for a local emulator), optionally with a path prefix and a trailing slash; no credentials, no
 * query, no fragment. Throws an {@link ApiUrlError} that says what is wrong and how to fix it.
 * The message shows at most the URL's scheme, host and path: never its user-info, query or
 * fragment, and nothing of an input that is not a URL at all (only its length), since a key put
 * in the wrong place would otherwise end up in logs.
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

/**
 * The absolute URL of an API path (`/v1/...`) under the base, with an optional query string
 * (without `?`).
 */
export function apiUrl(base: ApiBase, path: string, query?: string): string {
  const suffix = path.startsWith("/") ? path : `/${path}`;
  return `${base.href}${suffix}${query ? `?${query}` : ""}`;
}

/**
 * Resolves a pagination link (`next`) against the URL of the page that carried it, then keeps
 * only its path and query and puts them on the configured origin. An absolute link to another
 * host or scheme is therefore fetched from the configured origin: the API key never leaves it.
 * Throws a `TypeError` when the link is not a URL reference at all.
 */
export function resolveLink(base: ApiBase, currentUrl: string, link: string): string {
  const resolved = new URL(link, currentUrl);
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

/**
 * Checks an API URL without throwing: `undefined` when {@link parseApiUrl} accepts it, otherwise
 * the reason (which says how to fix it).
 */
export function checkApiUrl(apiUrl: unknown): string | undefined {
  try {
    parseApiUrl(apiUrl);
    return undefined;
  } catch (error) {
    if (error instanceof ApiUrlError) return error.message;
    throw error;
  }
}

/** The path of a request URL, for messages: never a query value. */
export function shownPath(url: string): string {
  return new URL(url).pathname;
}
