/**
 * The header passes of `redact`: `Bearer` tokens and `Authorization` values. Linear time.
 */
import { REDACTED } from "../defaults";
import { hasWordAt, isAlnum, isQuote, isSpace, isWordChar, spliced, wordFinder } from "./chars";

function isBearerTokenChar(c: number): boolean {
  // [A-Za-z0-9._~+/=-]
  return isAlnum(c) || c === 46 || c === 95 || c === 126 || c === 43 || c === 47 || c === 61 || c === 45;
}

/** `Bearer <token>` (any case, at a word start) becomes `Bearer [REDACTED]`. */
export function redactBearer(text: string): string {
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
  return spliced(text, parts, last);
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
export function redactAuthorization(text: string): string {
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
  return spliced(text, parts, last);
}
