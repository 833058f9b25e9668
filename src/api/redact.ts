import { BODY_PREVIEW_CHARS, REDACTED } from "./defaults";

/*
 * Everything in this file reads text that may come from a server (error messages, response
 * bodies, URLs), so nothing here may take more than linear time in the length of that text.
 * There are no regular expressions: each pass is a hand-written scanner that looks at every
 * character a bounded number of times, and known secrets are found with Knuth-Morris-Pratt.
 */

/** Turns text into the same text with credentials replaced by `[REDACTED]`. */
export type Redactor = (text: string) => string;

// ---------------------------------------------------------------------------------------------
// Characters

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** ASCII letter (`c | 0x20` folds upper case onto lower case and never lands in a-z from elsewhere). */
function isLetter(c: number): boolean {
  const l = c | 0x20;
  return l >= 97 && l <= 122;
}

function isAlnum(c: number): boolean {
  return isLetter(c) || isDigit(c);
}

/** A character of `\w` (what `\b` looks at). */
function isWordChar(c: number): boolean {
  return isAlnum(c) || c === 95;
}

/** A character of `\s`. */
function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isQuote(c: number): boolean {
  return c === 34 || c === 39;
}

/** Whether `text` has `lowerWord` (lower-case ASCII) at `at`, ignoring ASCII case. */
function hasWordAt(text: string, at: number, lowerWord: string): boolean {
  if (at < 0 || at + lowerWord.length > text.length) return false;
  for (let k = 0; k < lowerWord.length; k++) {
    const c = text.charCodeAt(at + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== lowerWord.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Returns a function giving the next position, from a given one, where `text` has `lowerWord`
 * (lower-case ASCII) ignoring ASCII case. Uses the native search on a lower-cased copy when that
 * copy lines up with `text` (no character changed length), a plain scan otherwise; either way the
 * positions asked for must not decrease, and the total work is linear.
 */
function wordFinder(text: string, lowerWord: string): (from: number) => number {
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    return (from) => {
      for (let i = lower.indexOf(lowerWord, from); i >= 0; i = lower.indexOf(lowerWord, i + 1)) {
        if (hasWordAt(text, i, lowerWord)) return i;
      }
      return -1;
    };
  }
  return (from) => {
    for (let i = from; i < text.length; i++) if (hasWordAt(text, i, lowerWord)) return i;
    return -1;
  };
}

/** Lower-cases ASCII letters only, so that the result has the same length and indices. */
function lowerAscii(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      let j = i;
      while (j < text.length && text.charCodeAt(j) >= 65 && text.charCodeAt(j) <= 90) j++;
      parts.push(text.slice(last, i), text.slice(i, j).toLowerCase());
      last = j;
      i = j - 1;
    }
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

// ---------------------------------------------------------------------------------------------
// Spans: sorted lists of [start, end) pairs, flattened (`[s0, e0, s1, e1, …]`)

/** The union of two sorted span lists, sorted and merged (touching spans become one). */
function unionSpans(a: number[], b: number[]): number[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let s: number;
    let e: number;
    if (j >= b.length || (i < a.length && a[i] <= b[j])) {
      s = a[i];
      e = a[i + 1];
      i += 2;
    } else {
      s = b[j];
      e = b[j + 1];
      j += 2;
    }
    const n = out.length;
    if (n > 0 && s <= out[n - 1]) {
      if (e > out[n - 1]) out[n - 1] = e;
    } else {
      out.push(s, e);
    }
  }
  return out;
}

/** Adds `[s, e)` to a span list built in increasing order of `s`. */
function pushSpan(spans: number[], s: number, e: number): void {
  if (e <= s) return;
  const n = spans.length;
  if (n > 0 && s <= spans[n - 1]) {
    if (e > spans[n - 1]) spans[n - 1] = e;
  } else {
    spans.push(s, e);
  }
}

/** `text` with every span replaced by `replacement`. */
function replaceSpans(text: string, spans: number[], replacement: string): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < spans.length; k += 2) {
    parts.push(text.slice(last, spans[k]), replacement);
    last = spans[k + 1];
  }
  parts.push(text.slice(last));
  return parts.join("");
}

/**
 * Every occurrence of `pattern` in `text` (overlapping ones included) as a merged span list:
 * Knuth-Morris-Pratt, O(text + pattern) whatever the input.
 */
function occurrences(text: string, pattern: string): number[] {
  const m = pattern.length;
  const spans: number[] = [];
  if (m === 0 || m > text.length || text.indexOf(pattern) < 0) return spans;
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    const c = pattern.charCodeAt(i);
    while (k > 0 && c !== pattern.charCodeAt(k)) k = fail[k - 1];
    if (c === pattern.charCodeAt(k)) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== pattern.charCodeAt(k)) k = fail[k - 1];
    if (c === pattern.charCodeAt(k)) k++;
    if (k === m) {
      pushSpan(spans, i + 1 - m, i + 1);
      k = fail[k - 1];
    }
  }
  return spans;
}

function safeEncode(text: string, encode: (s: string) => string): string | undefined {
  try {
    return encode(text);
  } catch {
    return undefined; // a lone surrogate
  }
}

function isHex(c: number): boolean {
  return isDigit(c) || ((c | 0x20) >= 97 && (c | 0x20) <= 102);
}

/** Whether `text` has a `%XX` escape at `i`. */
function isPercentByte(text: string, i: number): boolean {
  return (
    i + 2 < text.length &&
    text.charCodeAt(i) === 37 &&
    isHex(text.charCodeAt(i + 1)) &&
    isHex(text.charCodeAt(i + 2))
  );
}

/** Percent-decodes what can be decoded and keeps the rest (never throws). */
function looseDecode(text: string): string {
  if (text.indexOf("%") < 0) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // decode byte runs one by one below
  }
  const parts: string[] = [];
  const decoder = new TextDecoder();
  let last = 0;
  let i = 0;
  while (i < text.length) {
    if (!isPercentByte(text, i)) {
      i++;
      continue;
    }
    const start = i;
    const bytes: number[] = [];
    while (isPercentByte(text, i)) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    }
    parts.push(text.slice(last, start), decoder.decode(new Uint8Array(bytes)));
    last = i;
  }
  parts.push(text.slice(last));
  return parts.join("");
}

// ---------------------------------------------------------------------------------------------
// What looks like a key

/**
 * Whether the alphanumeric word `text[s, e)` is unusual for a name: ordinary words are all
 * letters (`rpc`), all digits (`123`), or up to 12 letters followed by up to 3 digits (`v1`,
 * `eth2`, `sha256`). Anything else (`3c6e0b8a`, `p2pify`, `abcdef0123456789`) is unusual.
 */
function isUnusualWord(text: string, s: number, e: number): boolean {
  let i = s;
  while (i < e && isLetter(text.charCodeAt(i))) i++;
  const letters = i - s;
  const digitsStart = i;
  while (i < e && isDigit(text.charCodeAt(i))) i++;
  if (i < e) return true;
  const digits = i - digitsStart;
  return letters > 0 && digits > 0 && (letters > 12 || digits > 3);
}

/** What the key heuristics need to know about a piece of text. */
interface TextStats {
  length: number;
  letter: boolean;
  digit: boolean;
  unusual: boolean;
}

const NO_TEXT: TextStats = { length: 0, letter: false, digit: false, unusual: false };

/** Statistics of `url[s, e)`, percent-decoded, not counting `[REDACTED]`. */
function statsOf(url: string, s: number, e: number): TextStats {
  if (e <= s) return NO_TEXT;
  let text = url.slice(s, e);
  if (text.indexOf("%") >= 0) text = looseDecode(text);
  let letter = false;
  let digit = false;
  let unusual = false;
  let length = text.length;
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) === 91 && text.startsWith(REDACTED, i)) {
      // Text redacted already counts for nothing, so that redacting twice changes nothing.
      length -= REDACTED.length;
      i += REDACTED.length;
      continue;
    }
    if (!isAlnum(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isAlnum(text.charCodeAt(i))) {
      if (isDigit(text.charCodeAt(i))) digit = true;
      else letter = true;
      i++;
    }
    if (!unusual && isUnusualWord(text, start, i)) unusual = true;
  }
  return { length, letter, digit, unusual };
}

function joinStats(a: TextStats, b: TextStats, separators: number): TextStats {
  return {
    length: a.length + b.length + separators,
    letter: a.letter || b.letter,
    digit: a.digit || b.digit,
    unusual: a.unusual || b.unusual,
  };
}

/** At least 16 characters, letters and digits, and a word no ordinary name has. */
function isKeyLikeStats(stats: TextStats): boolean {
  return stats.length >= 16 && stats.letter && stats.digit && stats.unusual;
}

/**
 * Whether `text` looks like a key or token rather than a name: at least 16 characters, with
 * letters and digits, and at least one alphanumeric word that ordinary names do not have
 * (ordinary words are all letters, all digits, or up to 12 letters followed by up to 3
 * digits). So `3c6e0b8a9c15224a8228b9a98ca1531d`, `sk_live_abcdef0123456789` and
 * `550e8400-e29b-41d4-a716-446655440000` are key-like, while resource ids (`ND-123-456-789`),
 * host labels such as `ws-nd-123-456-789` and words such as `validation-error-2023` are not.
 * Percent-encoded text is decoded first. Linear time.
 */
export function isKeyLike(text: string): boolean {
  const s = String(text);
  return isKeyLikeStats(statsOf(s, 0, s.length));
}

/** Words that make a query parameter name secret: its value is always hidden. */
const SECRET_NAME_WORDS = [
  "key",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "auth",
  "signature",
  "sig",
  "credential",
];

function hasSecretWord(lowerName: string): boolean {
  for (const word of SECRET_NAME_WORDS) if (lowerName.includes(word)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// URLs

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

// ---------------------------------------------------------------------------------------------
// Passes of redact(): each one scans the text once, left to right.

/** Known secrets, URL-encoded and JSON-escaped too; overlapping occurrences become one. */
function redactKnown(text: string, secrets: ReadonlyArray<string | undefined>): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length === 0) continue;
    forms.add(secret);
    const encoded = safeEncode(secret, encodeURIComponent);
    if (encoded !== undefined) forms.add(encoded);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  let spans: number[] = [];
  for (const form of forms) spans = unionSpans(spans, occurrences(text, form));
  return replaceSpans(text, spans, REDACTED);
}

function isBearerTokenChar(c: number): boolean {
  // [A-Za-z0-9._~+/=-]
  return isAlnum(c) || c === 46 || c === 95 || c === 126 || c === 43 || c === 47 || c === 61 || c === 45;
}

/** `Bearer <token>` (any case, at a word start) becomes `Bearer [REDACTED]`. */
function redactBearer(text: string): string {
  const parts: string[] = [];
  let last = 0;
  const n = text.length;
  const find = wordFinder(text, "bearer");
  for (let i = find(0); i >= 0; i = find(i + 1)) {
    if (i > 0 && isWordChar(text.charCodeAt(i - 1))) continue;
    let j = i + 6;
    while (j < n && isSpace(text.charCodeAt(j))) j++;
    if (j === i + 6) continue;
    const token = j;
    while (j < n && isBearerTokenChar(text.charCodeAt(j))) j++;
    if (j === token) continue;
    parts.push(text.slice(last, i), "Bearer ", REDACTED);
    last = j;
    i = j - 1;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

function isAuthValueChar(c: number): boolean {
  // [^\s,;"'}]
  return !(isSpace(c) || c === 44 || c === 59 || isQuote(c) || c === 125);
}

/** `Bearer` as a whole word at `at`. */
function isBearerWord(text: string, at: number): boolean {
  return hasWordAt(text, at, "bearer") && !(at + 6 < text.length && isWordChar(text.charCodeAt(at + 6)));
}

/**
 * The value of an `Authorization` header (`authorization: Basic …`, `"Authorization": "Token …"`,
 * `authorization=…`) becomes `[REDACTED]`, scheme included; `Bearer` values are left to
 * {@link redactBearer}.
 */
function redactAuthorization(text: string): string {
  const parts: string[] = [];
  let last = 0;
  const n = text.length;
  const find = wordFinder(text, "authorization");
  for (let i = find(0); i >= 0; i = find(i + 1)) {
    if (i > 0 && isWordChar(text.charCodeAt(i - 1))) continue;
    let j = i + 13;
    if (j < n && isQuote(text.charCodeAt(j))) j++;
    while (j < n && isSpace(text.charCodeAt(j))) j++;
    if (j >= n || (text.charCodeAt(j) !== 58 && text.charCodeAt(j) !== 61)) continue;
    j++;
    while (j < n && isSpace(text.charCodeAt(j))) j++;
    if (j < n && isQuote(text.charCodeAt(j))) j++;
    const valueStart = j;
    let start = -1;
    for (const scheme of ["basic", "token", "digest"]) {
      if (!hasWordAt(text, j, scheme)) continue;
      let k = j + scheme.length;
      const spaces = k;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      if (k > spaces && k < n && isAuthValueChar(text.charCodeAt(k)) && !isBearerWord(text, k)) start = k;
      break;
    }
    if (start < 0) {
      if (j >= n || !isAuthValueChar(text.charCodeAt(j)) || isBearerWord(text, j)) continue;
      start = j;
    }
    let end = start;
    while (end < n && isAuthValueChar(text.charCodeAt(end))) end++;
    parts.push(text.slice(last, valueStart), REDACTED);
    last = end;
    i = end - 1;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

function isQueryNameChar(c: number): boolean {
  // [^=&#\s"'<>]
  return !(c === 61 || c === 38 || c === 35 || isSpace(c) || isQuote(c) || c === 60 || c === 62);
}

function isQueryValueChar(c: number): boolean {
  // [^&#\s"'<>]
  return c === 61 || isQueryNameChar(c);
}

/**
 * Values of secret-named parameters after `?`, `&` or `;` (`?api_key=…`, `&token=…`), in URLs
 * or anywhere else. A name runs from the first delimiter of its run of name characters to `=`.
 */
function redactSecretParams(text: string): string {
  const parts: string[] = [];
  let last = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const runStart = i;
    let delimiter = runStart > 0 && text.charCodeAt(runStart - 1) === 38 ? runStart - 1 : -1;
    while (i < n && isQueryNameChar(text.charCodeAt(i))) {
      const c = text.charCodeAt(i);
      if (delimiter < 0 && (c === 63 || c === 59)) delimiter = i;
      i++;
    }
    if (i < n && text.charCodeAt(i) === 61 && delimiter >= 0 && delimiter + 1 < i) {
      if (hasSecretWord(lowerAscii(text.slice(delimiter + 1, i)))) {
        let end = i + 1;
        while (end < n && isQueryValueChar(text.charCodeAt(end))) end++;
        parts.push(text.slice(last, i + 1), REDACTED);
        last = end;
        i = end;
        continue;
      }
    }
    if (i === runStart) i++;
    else if (i < n) i++;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

/** Whether a field name (already lower-cased, `_` and `-` removed) names a credential. */
function isCredentialFieldName(name: string): boolean {
  if (name === "auth" || name === "pass" || name === "sig" || name === "authusername") return true;
  for (const part of [
    "password",
    "passwd",
    "passphrase",
    "secret",
    "apikey",
    "authkey",
    "privatekey",
    "accesskey",
    "credential",
    "authorization",
  ]) {
    if (name.includes(part)) return true;
  }
  for (const suffix of ["token", "key", "pwd", "signature"]) if (name.endsWith(suffix)) return true;
  return false;
}

function isAssignmentNameChar(c: number): boolean {
  return isAlnum(c) || c === 95 || c === 45 || c === 46; // _ - .
}

/** Where an unquoted value in free text ends. */
function isAssignmentValueEnd(c: number): boolean {
  return isSpace(c) || isQuote(c) || c === 44 || c === 59 || c === 38 || c === 41 || c === 93 || c === 125; // , ; & ) ] }
}

/**
 * Unquoted credential assignments in free text: `auth_key=…`, `password:…`, `api-key = …`
 * (a name that {@link isCredentialFieldName} accepts, `=`, or `:` directly followed by the value, then a
 * value up to whitespace or `,;&)]}` or a quote). Quoted JSON fields are left to
 * {@link redactCredentialFields}.
 */
function redactSecretAssignments(text: string): string {
  const parts: string[] = [];
  let last = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (
      !isAssignmentNameChar(text.charCodeAt(i)) ||
      (i > 0 && isAssignmentNameChar(text.charCodeAt(i - 1)))
    ) {
      i++;
      continue;
    }
    const nameStart = i;
    while (i < n && isAssignmentNameChar(text.charCodeAt(i))) i++;
    const nameEnd = i;
    let j = i;
    while (j < n && text.charCodeAt(j) === 32) j++;
    const op = text.charCodeAt(j);
    if (
      (op !== 61 && op !== 58) ||
      (op === 58 && text.charCodeAt(j + 1) === 47 && text.charCodeAt(j + 2) === 47)
    ) {
      continue;
    }
    if (nameEnd - nameStart > MAX_FIELD_NAME) continue;
    const name = lowerAscii(text.slice(nameStart, nameEnd)).replace(/[-_.]/g, "");
    if (!isCredentialFieldName(name)) continue;
    j++;
    // `name: value` with a space is how messages list fields (`apiKey: got …`); only `name:value` counts.
    if (op === 58 && text.charCodeAt(j) === 32) continue;
    while (j < n && text.charCodeAt(j) === 32) j++;
    if (j >= n || isQuote(text.charCodeAt(j))) continue;
    if (text.startsWith(REDACTED, j)) {
      i = j + REDACTED.length;
      continue;
    }
    const valueStart = j;
    while (j < n && !isAssignmentValueEnd(text.charCodeAt(j))) j++;
    const value = text.slice(valueStart, j);
    if (value === "" || value === "Bearer") {
      i = j;
      continue;
    }
    parts.push(text.slice(last, valueStart), REDACTED);
    last = j;
    i = j;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

/** Longest field name considered (longer quoted text is not a credential field name). */
const MAX_FIELD_NAME = 64;

/**
 * String values of credential fields of JSON-like text (`"auth_password": "…"`, whitespace
 * around the colon, single or double quotes, and JSON that is itself escaped inside a JSON
 * string: `\"auth_key\":\"…\"`). A value that is not closed (a body cut short) is redacted to
 * the end of the text, so no part of it shows.
 */
function redactCredentialFields(text: string): string {
  const parts: string[] = [];
  let last = 0;
  const n = text.length;
  // Next double and single quote at or after the position asked for (-1: none left).
  let double = text.indexOf('"');
  let single = text.indexOf("'");
  const nextQuote = (from: number): number => {
    if (double >= 0 && double < from) double = text.indexOf('"', from);
    if (single >= 0 && single < from) single = text.indexOf("'", from);
    if (double < 0) return single < 0 ? n : single;
    return single < 0 || double < single ? double : single;
  };
  let i = nextQuote(0);
  while (i < n) {
    const q = text.charCodeAt(i);
    if (!isQuote(q)) {
      i = nextQuote(i + 1);
      continue;
    }
    // The name runs to the next quote of the same kind.
    let j = i + 1;
    while (j < n && j - i <= MAX_FIELD_NAME + 4 && text.charCodeAt(j) !== q) j++;
    if (j >= n || text.charCodeAt(j) !== q) {
      i = nextQuote(i + 1);
      continue;
    }
    // Backslashes before the opening quote: 0 in plain JSON, 1 in JSON escaped in a string.
    let escapes = 0;
    while (escapes < i && text.charCodeAt(i - 1 - escapes) === 92) escapes++;
    let nameEnd = j;
    for (let k = 0; k < escapes && nameEnd > i + 1 && text.charCodeAt(nameEnd - 1) === 92; k++) nameEnd--;
    if (j - nameEnd !== escapes || !isFieldName(text, i + 1, nameEnd)) {
      i = nextQuote(i + 1);
      continue;
    }
    let k = j + 1;
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    if (k >= n || text.charCodeAt(k) !== 58) {
      i = nextQuote(i + 1);
      continue;
    }
    k++;
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    let opened = true;
    for (let b = 0; b < escapes; b++) if (text.charCodeAt(k + b) !== 92) opened = false;
    const vq = text.charCodeAt(k + escapes);
    if (!opened || k + escapes >= n || !isQuote(vq)) {
      i = nextQuote(i + 1);
      continue;
    }
    const valueStart = k + escapes + 1;
    const { end, close } = findValueEnd(text, valueStart, vq, escapes);
    parts.push(text.slice(last, valueStart), REDACTED);
    last = end;
    i = close;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

/** Whether `text[s, e)` is a credential field name. */
function isFieldName(text: string, s: number, e: number): boolean {
  if (e <= s || e - s > MAX_FIELD_NAME) return false;
  let name = "";
  for (let k = s; k < e; k++) {
    const c = text.charCodeAt(k);
    if (c === 95 || c === 45) continue;
    if (!isAlnum(c)) return false;
    name += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
  }
  return isCredentialFieldName(name);
}

/**
 * Where a quoted value starting at `s` ends: `end` is where its closing quote (with the
 * backslashes of an escaped context) starts, `close` just after it; both are the end of the
 * text when the value is not closed.
 */
function findValueEnd(
  text: string,
  s: number,
  quote: number,
  escapes: number,
): { end: number; close: number } {
  const n = text.length;
  let k = s;
  if (escapes === 0) {
    while (k < n) {
      const c = text.charCodeAt(k);
      if (c === 92) k += 2;
      else if (c === quote) return { end: k, close: k + 1 };
      else k++;
    }
    return { end: n, close: n };
  }
  let backslashes = 0;
  while (k < n) {
    const c = text.charCodeAt(k);
    if (c === quote && backslashes === escapes) return { end: k - escapes, close: k + 1 };
    backslashes = c === 92 ? backslashes + 1 : 0;
    k++;
  }
  return { end: n, close: n };
}

/**
 * URLs in the text (`scheme://…` up to whitespace, a quote, `<`, `>` or a backtick; also a path
 * on its own, starting with `/` at the start of a word): see {@link maskUrlCredentials}.
 */
function redactUrls(text: string): string {
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
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

/**
 * Returns a copy of `text` with credentials replaced by `[REDACTED]`:
 * each of `secrets` (and its URL-encoded and JSON-escaped forms), `Bearer …` tokens,
 * `Authorization` header values, URL user-info (`https://user:pass@host`), secret-looking query
 * parameters (`?api_key=…`, whatever the length of the value), key-looking URL host labels,
 * path segments, query names and values and fragments (endpoint URLs that embed a key, see
 * {@link isKeyLike}) and credential fields of JSON text (`"auth_password": "…"`, also when the
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

/** `text` with each run of whitespace replaced by one space, trimmed. */
function oneLine(text: string): string {
  const parts: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const s = i;
    while (i < n && !isSpace(text.charCodeAt(i))) i++;
    if (i > s) parts.push(text.slice(s, i));
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  }
  return parts.join(" ");
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * The first `max` characters of a response body, redacted and on one line (whitespace runs
 * become one space), for an error message; `…` marks a cut. The WHOLE body is redacted before
 * it is cut, so that a key straddling the cut cannot leak part of itself, and a credential
 * field cut short by the end of the body shows as `"auth_password":"[REDACTED]`. A surrogate
 * pair is never split. Linear time.
 */
export function previewBody(body: string, redactor: Redactor, max: number = BODY_PREVIEW_CHARS): string {
  const line = oneLine(redactor(String(body)));
  const limit = Number.isNaN(max) ? 0 : Math.max(0, Math.floor(max));
  if (line.length <= limit) return line;
  const cut = limit > 0 && isHighSurrogate(line.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return `${line.slice(0, cut)}…`;
}

// ---------------------------------------------------------------------------------------------
// Server text in error messages

/** Invisible characters that reorder or break displayed text (bidi controls, line separators). */
function isFormatControl(c: number): boolean {
  return (
    c === 0x061c ||
    c === 0x200e ||
    c === 0x200f ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0x2028 ||
    c === 0x2029
  );
}

function escapeChar(c: number): string {
  if (c === 10) return "\\n";
  if (c === 13) return "\\r";
  if (c === 9) return "\\t";
  return `\\u${c.toString(16).padStart(4, "0")}`;
}

function countCodePoints(text: string, from: number): number {
  let count = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHighSurrogate(c) && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * Makes text that came from a server safe to put in an error message, on one line: C0 and C1
 * control characters, DEL, lone surrogates, bidi controls and line/paragraph separators become
 * visible escapes (`\n`, `\r`, `\t`, `\u001b`, `\u202e`, …), so a message cannot clear or
 * retitle a terminal, overwrite a line with a bare CR, reorder text, or span several lines. Nothing
 * else is changed or collapsed. The result keeps at most `maxChars` characters of escaped text
 * (never splitting an escape or a surrogate pair), followed, when text was left out, by
 * `… (N more characters)` where N counts the code points left out. Linear time.
 */
export function sanitizeServerText(text: string, maxChars: number): string {
  const s = String(text);
  const limit = Number.isNaN(maxChars) ? 0 : Math.max(0, Math.floor(maxChars));
  const n = s.length;
  const parts: string[] = [];
  let last = 0;
  let used = 0;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    let width = 1;
    let escaped: string | undefined;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || isFormatControl(c)) {
      escaped = escapeChar(c);
    } else if (isHighSurrogate(c)) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) width = 2;
      else escaped = escapeChar(c);
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      escaped = escapeChar(c);
    }
    const size = escaped === undefined ? width : escaped.length;
    if (used + size > limit) break;
    if (escaped !== undefined) {
      parts.push(s.slice(last, i), escaped);
      last = i + 1;
    }
    used += size;
    i += width;
  }
  parts.push(s.slice(last, i));
  if (i < n) {
    const more = countCodePoints(s, i);
    parts.push(`… (${more} more character${more === 1 ? "" : "s"})`);
  }
  return parts.join("");
}

/** Longest input value quoted as is in an "invalid input" message. */
const MAX_QUOTED_INPUT = 40;

/**
 * An input value as rendered for an "invalid input" message (`"ND-1-2"`, `42`), or, when quoting
 * it could show a credential pasted in the wrong place (a key given as an id, a password as an
 * address), a description by length only. Values up to 40 characters without a key-like run
 * (see {@link isKeyLike}) or a credential pattern are quoted; everything else is described.
 * Linear time.
 */
export function guardInputValue(shown: string): string {
  const text = String(shown);
  if (isQuotedHexAddress(text)) return text;
  if (text.length <= MAX_QUOTED_INPUT + 2 && redact(text) === text && !hasKeyLikeRun(text)) return text;
  return `a value of ${text.length} characters (not shown: it may hold a credential)`;
}

/** `"0x…"` with up to 64 hex digits: an address (even a mistyped one), shown so it can be fixed. */
function isQuotedHexAddress(text: string): boolean {
  const body = text.startsWith('"') && text.endsWith('"') && text.length >= 2 ? text.slice(1, -1) : text;
  if (body.length < 2 || body.length > 66 || body[0] !== "0" || (body[1] !== "x" && body[1] !== "X"))
    return false;
  for (let i = 2; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Whether `text` holds a run of token characters that {@link isKeyLike} accepts. */
function hasKeyLikeRun(text: string): boolean {
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    const token =
      isAlnum(c) || c === 95 || c === 45 || c === 46 || c === 126 || c === 43 || c === 47 || c === 61;
    if (token) continue;
    if (i - start >= 16 && isKeyLike(text.slice(start, i))) return true;
    start = i + 1;
  }
  return false;
}
