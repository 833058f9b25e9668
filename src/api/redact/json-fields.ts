/**
 * The JSON pass of `redact`: string values of credential fields, also in escaped JSON and when
 * cut short. Linear time.
 */
import { REDACTED } from "../defaults";
import { isAlnum, isQuote, isSpace, spliced } from "./chars";
import { isCredentialFieldName } from "./key-like";

/** Longest field name considered (longer quoted text is not a credential field name). */
export const MAX_FIELD_NAME = 64;

/**
 * String values of credential fields of JSON-like text (`"password": "…"`, whitespace
 * around the colon, single or double quotes, and JSON that is itself escaped inside a JSON
 * string: `\"api_key\":\"…\"`). A value that is not closed (a body cut short) is redacted to
 * the end of the text, so no part of it shows.
 */
export function redactCredentialFields(text: string): string {
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
  return spliced(text, parts, last);
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
