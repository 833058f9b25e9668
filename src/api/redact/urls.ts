/**
 * URLs: the parts of a URL that hold or look like credentials, masking them ({@link
 * maskUrlCredentials}), and the URL pass of `redact`. Linear time.
 */
import { REDACTED } from "../defaults";
import { isAlnum, isLetter, isQuote, isSpace, looseDecode, lowerAscii, safeEncode, spliced } from "./chars";
import { hasSecretWord, isKeyLikeStats, joinStats, NO_TEXT, statsOf } from "./key-like";
import { occurrences, pushSpan, replaceSpans, unionSpans } from "./spans";

/** Characters of a URL scheme. */
function isSchemeChar(c: number): boolean {
  return isAlnum(c) || c === 43 || c === 45 || c === 46;
}

/** Where a URL found in free text ends: whitespace, quotes, `<`, `>` and backtick. */
function isUrlChar(c: number): boolean {
  return !(isSpace(c) || isQuote(c) || c === 60 || c === 62 || c === 96);
}

function isAuthorityEnd(c: number): boolean {
  return c === 47 || c === 63 || c === 35; // / ? #
}

/** A path segment's span without a short alphabetic extension (`<key>.json` keeps `.json`). */
function pushSegment(spans: number[], url: string, s: number, e: number): void {
  let dot = e - 1;
  while (dot > s && e - dot <= 6 && isLetter(url.charCodeAt(dot))) dot--;
  if (dot > s && dot < e - 1 && url.charCodeAt(dot) === 46) pushSpan(spans, s, dot);
  else pushSpan(spans, s, e);
}

/**
 * Spans of a path-like part `url[s, e)` split on `/`: if the whole part looks like a key, every
 * segment that has an unusual word or base64 padding or `+`. Judging the whole part catches keys that contain `/`
 * (base64) and so span several segments, each of which alone looks harmless.
 */
function pathSpans(spans: number[], url: string, s: number, e: number): void {
  const starts: number[] = [];
  const ends: number[] = [];
  const suspect: boolean[] = [];
  let total = NO_TEXT;
  let segStart = s;
  let base64 = false;
  for (let i = s; i <= e; i++) {
    const c = i < e ? url.charCodeAt(i) : -1;
    if (c === 43 || c === 61) base64 = true;
    if (c === -1 || c === 47) {
      const stats = statsOf(url, segStart, i);
      total = starts.length === 0 ? stats : joinStats(total, stats, 1);
      starts.push(segStart);
      ends.push(i);
      suspect.push(stats.unusual || base64);
      segStart = i + 1;
      base64 = false;
    }
  }
  if (!isKeyLikeStats(total)) return;
  for (let k = 0; k < starts.length; k++) if (suspect[k]) pushSegment(spans, url, starts[k], ends[k]);
}

/**
 * Spans of one query (or fragment) parameter `url[s, e)`: the value of a secret-named
 * parameter (`api_key=…`), and the name and/or value when the parameter looks like a key
 * (`?<key>`, `?<key>=1`, `?cursor=<key>`).
 */
function paramSpans(spans: number[], url: string, s: number, e: number, pathLike: boolean): void {
  if (e <= s) return;
  let eq = s;
  while (eq < e && url.charCodeAt(eq) !== 61) eq++;
  if (eq === e) {
    if (pathLike) {
      pathSpans(spans, url, s, e);
      return;
    }
    if (isKeyLikeStats(statsOf(url, s, e))) pushSpan(spans, s, e);
    return;
  }
  const name = statsOf(url, s, eq);
  const value = statsOf(url, eq + 1, e);
  const keyLike = isKeyLikeStats(joinStats(name, value, 1));
  if (keyLike && name.unusual) pushSpan(spans, s, eq);
  if (
    eq + 1 < e &&
    ((keyLike && value.unusual) || hasSecretWord(lowerAscii(looseDecode(url.slice(s, eq)))))
  ) {
    pushSpan(spans, eq + 1, e);
  }
}

/** Spans of the parameters of a query or fragment `url[s, e)` (split on `&` and `;`). */
function paramsSpans(spans: number[], url: string, s: number, e: number, pathLike: boolean): void {
  let start = s;
  for (let i = s; i <= e; i++) {
    const c = i < e ? url.charCodeAt(i) : -1;
    if (c === -1 || c === 38 || c === 59) {
      paramSpans(spans, url, start, i, pathLike);
      start = i + 1;
    }
  }
}

/** Spans of the user info of URLs nested in `url[from, e)` (`…/https://user:pass@host/…`). */
function nestedUserinfoSpans(url: string, from: number, e: number): number[] {
  const spans: number[] = [];
  let i = url.indexOf("://", from);
  while (i >= 0 && i + 3 <= e) {
    const s = i + 3;
    let a = s;
    let at = -1;
    while (a < e && !isAuthorityEnd(url.charCodeAt(a))) {
      if (url.charCodeAt(a) === 64) at = a;
      a++;
    }
    if (at > s) pushSpan(spans, s, at);
    i = url.indexOf("://", Math.max(a, i + 1));
  }
  return spans;
}

/**
 * Spans of `url` (which starts with its scheme) that hold or look like credentials: user info,
 * key-like host labels, path segments, query names and values, values of secret-named
 * parameters, fragments, and the user info of nested URLs. Sorted and merged.
 */
function urlSpans(url: string): number[] {
  const colon = url.indexOf(":");
  if (colon < 0) return [];
  return referenceSpans(url, colon + 1);
}

/**
 * Spans of the part of `url` from `p` on: an authority if it starts with `//` (user info, host
 * labels), then path, query and fragment; also the user info of nested URLs.
 */
function referenceSpans(url: string, p: number): number[] {
  const spans: number[] = [];
  const e = url.length;
  const from = p;
  if (url.startsWith("//", p)) {
    const s = p + 2;
    let a = s;
    let at = -1;
    while (a < e && !isAuthorityEnd(url.charCodeAt(a))) {
      if (url.charCodeAt(a) === 64) at = a;
      a++;
    }
    let hostStart = s;
    if (at >= s) {
      pushSpan(spans, s, at);
      hostStart = at + 1;
    }
    if (url.charCodeAt(hostStart) !== 91) {
      // Host labels and port (IPv6 literals hold no key).
      let label = hostStart;
      for (let i = hostStart; i <= a; i++) {
        const c = i < a ? url.charCodeAt(i) : -1;
        if (c === -1 || c === 46 || c === 58) {
          if (isKeyLikeStats(statsOf(url, label, i))) pushSpan(spans, label, i);
          label = i + 1;
        }
      }
    }
    p = a;
  }
  let q = p;
  while (q < e && url.charCodeAt(q) !== 63 && url.charCodeAt(q) !== 35) q++;
  pathSpans(spans, url, p, q);
  if (q < e && url.charCodeAt(q) === 63) {
    let h = q + 1;
    while (h < e && url.charCodeAt(h) !== 35) h++;
    paramsSpans(spans, url, q + 1, h, false);
    q = h;
  }
  if (q < e) paramsSpans(spans, url, q + 1, e, true);
  return unionSpans(spans, nestedUserinfoSpans(url, from, e));
}

/** Options of {@link maskUrlCredentials}. */
export interface MaskUrlOptions {
  /** What replaces each credential. */
  replacement: string;
  /** Known secrets: each occurrence (and its URL-encoded forms) is replaced too. */
  secrets?: ReadonlyArray<string>;
  /** Whether known secrets are matched regardless of ASCII case (host names are lower-cased). */
  ignoreCase?: boolean;
}

/**
 * Replaces what holds or looks like a credential in `url` (a URL that starts with its scheme,
 * taken as is, not parsed): user info; host labels, path segments (an extension such as
 * `.json` stays), query parameter names and values, and fragments that look like keys (see
 * {@link isKeyLike}; a key with `/` spanning several path segments is caught too); the value of
 * any secret-named query parameter (`api_key`, `token`, `sig`, …), whatever its length; the user
 * info of URLs nested in it; and every occurrence of `secrets` (also URL-encoded). Scheme,
 * ordinary host names, ordinary path words (`/v1/`, `/rpc`) and resource ids stay readable. If a
 * known secret could still be read afterwards (say, percent-encoded in an unusual way), the
 * whole URL is replaced. Linear time.
 */
export function maskUrlCredentials(url: string, options: MaskUrlOptions): string {
  const text = String(url);
  const fold = options.ignoreCase ? lowerAscii : (s: string) => s;
  const secrets = (options.secrets ?? []).filter((s) => typeof s === "string" && s.length > 0);
  const haystack = fold(text);
  let spans = urlSpans(text);
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(fold(secret));
    const component = safeEncode(secret, encodeURIComponent);
    if (component !== undefined) forms.add(fold(component));
    const uri = safeEncode(secret, encodeURI);
    if (uri !== undefined) forms.add(fold(uri));
  }
  for (const form of forms) spans = unionSpans(spans, occurrences(haystack, form));
  const out = replaceSpans(text, spans, options.replacement);
  if (secrets.length > 0) {
    // Belt and braces: nothing of a known secret may be readable, however it was encoded.
    const plain = fold(out);
    for (const form of forms) if (occurrences(plain, form).length > 0) return options.replacement;
    const decoded = fold(looseDecode(out));
    for (const secret of secrets)
      if (occurrences(decoded, fold(secret)).length > 0) return options.replacement;
  }
  return out;
}

/**
 * URLs in the text (`scheme://…` up to whitespace, a quote, `<`, `>` or a backtick; also a path
 * on its own, starting with `/` at the start of a word): see {@link maskUrlCredentials}.
 */
export function redactUrls(text: string): string {
  const parts: string[] = [];
  let last = 0;
  const n = text.length;
  let schemeStart = 0;
  let schemeHasLetter = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isSchemeChar(c)) {
      if (i === 0 || !isSchemeChar(text.charCodeAt(i - 1))) {
        schemeStart = i;
        schemeHasLetter = false;
      }
      if (isLetter(c)) schemeHasLetter = true;
      continue;
    }
    if (c === 47 && (i === 0 || !isUrlChar(text.charCodeAt(i - 1)))) {
      // A path on its own (`GET /v1/<key>`, `"path": "/<key>/rpc"`, `//host/…`).
      let end = i + 1;
      while (end < n && isUrlChar(text.charCodeAt(end))) end++;
      const path = text.slice(i, end);
      parts.push(text.slice(last, i), replaceSpans(path, referenceSpans(path, 0), REDACTED));
      last = end;
      i = end - 1;
      continue;
    }
    if (
      c !== 58 ||
      i === 0 ||
      !isSchemeChar(text.charCodeAt(i - 1)) ||
      !schemeHasLetter ||
      text.charCodeAt(i + 1) !== 47 ||
      text.charCodeAt(i + 2) !== 47
    ) {
      continue;
    }
    let end = i + 3;
    while (end < n && isUrlChar(text.charCodeAt(end))) end++;
    if (end === i + 3) continue;
    parts.push(
      text.slice(last, schemeStart),
      maskUrlCredentials(text.slice(schemeStart, end), { replacement: REDACTED }),
    );
    last = end;
    i = end - 1;
  }
  return spliced(text, parts, last);
}
