/** What replaces a credential in a masked endpoint. */
export const MASK = "***";

/** A path segment or query value that looks like a key or token: long, letters and digits. */
const KEY_LIKE = /^(?=.*[0-9])(?=.*[a-zA-Z])[A-Za-z0-9_-]{16,}$/;

/**
 * Returns an endpoint URL fit for display: user info, every known credential and every
 * key-like path segment or query value replaced by `***`. The scheme, host and the rest of the
 * path stay readable. A value that is not a URL is masked whole.
 */
export function maskEndpoint(url: string, credentials: ReadonlyArray<string | undefined> = []): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASK;
  }
  const secrets = credentials.filter((c): c is string => typeof c === "string" && c.length >= 4);
  const maskPart = (part: string): string => {
    let decoded = part;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      // keep as is
    }
    if (KEY_LIKE.test(decoded) || secrets.some((s) => decoded === s)) return MASK;
    return secrets.reduce((acc, s) => acc.split(s).join(MASK), part);
  };
  const auth = parsed.username || parsed.password ? `${MASK}@` : "";
  const pathname = parsed.pathname.split("/").map(maskPart).join("/");
  const params = [...parsed.searchParams.entries()].map(([k, v]) => `${k}=${maskPart(v)}`);
  const search = params.length > 0 ? `?${params.join("&")}` : "";
  const hostname = secrets.reduce((acc, s) => acc.split(s.toLowerCase()).join(MASK), parsed.host);
  return `${parsed.protocol}//${auth}${hostname}${pathname === "/" && !url.endsWith("/") ? "" : pathname}${search}`;
}
