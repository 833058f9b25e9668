import { maskUrlCredentials } from "./redact";

/** What replaces a credential in a masked endpoint. */
export const MASK = "***";

/** Credentials shorter than this are not searched for (they would mask ordinary text). */
const MIN_CREDENTIAL_LENGTH = 4;

/** Whether `url` as written has a `/` after its authority (`https://host/…`, not `https://host?…`). */
function hasPathSlash(url: string): boolean {
  const start = url.indexOf("://");
  if (start < 0) return true;
  for (let i = start + 3; i < url.length; i++) {
    const c = url[i];
    if (c === "/" || c === "\\") return true;
    if (c === "?" || c === "#") return false;
  }
  return false;
}

/** `text` as the URL parser writes it as a path (dot segments resolved), if it can. */
function normalizedPath(text: string): string | undefined {
  try {
    return new URL(`http://h/${text}`).pathname.slice(1);
  } catch {
    return undefined;
  }
}

/**
 * Returns an endpoint URL fit for display: everything that holds or looks like a credential is
 * replaced by `***`: user info; every occurrence of a known credential (also URL-encoded, and in
 * any case in the host name), even when it spans several path segments; host labels, path
 * segments (`<key>.json` keeps `.json`), query parameter names and values and fragments that
 * look like keys (at least 16 characters with letters, digits and a word no ordinary name has);
 * and the value of every secret-named query parameter (`apikey`, `token`, `sig`, …), however
 * short. The scheme, ordinary host names (`nd-123-456-789.p2pify.com`), ordinary path words
 * (`/v1/`, `/rpc`) and resource ids stay readable. A value that is not a URL is masked whole, and
 * so is a URL from which a known credential could not be removed. The URL is shown normalized
 * (host lower-cased, unsafe characters percent-encoded). Linear time.
 */
export function maskEndpoint(url: string, credentials: ReadonlyArray<string | undefined> = []): string {
  if (typeof url !== "string") return MASK;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASK;
  }
  const secrets: string[] = [];
  for (const c of credentials) {
    if (typeof c !== "string" || c.length < MIN_CREDENTIAL_LENGTH) continue;
    secrets.push(c);
    // What is left of it in a normalized path (`./key` → `key`) is masked too.
    const inPath = normalizedPath(c);
    if (inPath !== undefined && inPath !== c && inPath.length >= MIN_CREDENTIAL_LENGTH) secrets.push(inPath);
  }
  let href = parsed.href;
  if (parsed.pathname === "/" && !hasPathSlash(url)) {
    // `https://host` is shown as written, without the slash the parser adds.
    const authority = href.indexOf("//") + 2;
    const slash = href.indexOf("/", authority);
    if (authority > 1 && slash >= 0) href = href.slice(0, slash) + href.slice(slash + 1);
  }
  return maskUrlCredentials(href, { replacement: MASK, secrets, ignoreCase: true });
}
