import { MAX_API_URL_LENGTH } from "../model/rules";
import { redact } from "./redact";

/**
 * The parsed API address: the `origin` (`https://host[:port]`) every request and the key go to, the `basePath`
 * before `/v1/` (no trailing slash; `""` when none), and the normalized `href`, origin and base path.
 */
export type ApiBase = { origin: string; basePath: string; href: string };

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
  if (apiUrl !== undefined && apiUrl !== null && typeof apiUrl !== "string")
    throw new ApiUrlError(
      `the API URL must be a string, got ${Array.isArray(apiUrl) ? "an array" : `a ${typeof apiUrl}`}; ${EXPECTED}`,
    );
  if (typeof apiUrl !== "string" || apiUrl.trim() === "")
    throw new ApiUrlError(`the API URL is missing; ${EXPECTED}`);
  const text = apiUrl.trim();
  if (text.length > MAX_API_URL_LENGTH)
    throw new ApiUrlError(
      `the API URL is ${text.length} characters long, more than the ${MAX_API_URL_LENGTH} accepted; ${EXPECTED}`,
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw notAUrl(text);
  }
  // `key:value` parses as a URL of scheme `key:`: without a host it is no web address at all.
  if (url.host === "") throw notAUrl(text);
  if (url.username || url.password)
    throw new ApiUrlError(
      `the API URL ${showUrl(url)} contains credentials (user:password@); remove them and pass the API key as the apiKey option`,
    );
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new ApiUrlError(
      `the API URL uses the scheme ${url.protocol}; the service is reached over https://`,
    );
  if (!url.hostname.startsWith("[") && !isDnsName(url.hostname))
    throw new ApiUrlError(
      `the API URL's host name is not a valid DNS name (${url.hostname.length} characters; at most 253, each label at most 63); ${EXPECTED}`,
    );
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

/** The API paths, all under `/v1/` (spec 4). */
export const PATHS = {
  nodes: "/v1/nodes/",
  node: (id: string) => `/v1/nodes/${encodeURIComponent(id)}/`,
  network: (id: string) => `/v1/networks/${encodeURIComponent(id)}/`,
  /** The faucet of a chain (`goerli` in the spec's text; the real service serves several). */
  faucet: (chain: string) => `/v1/faucet/${encodeURIComponent(chain)}`,
} as const;
