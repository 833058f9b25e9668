/**
 * The free-text passes of `redact`: secret-named query parameters (`?api_key=…`) and unquoted
 * credential assignments (`password=…`). Linear time.
 */
import { REDACTED } from "../defaults";
import { isAlnum, isQuote, isSpace, lowerAscii, spliced } from "./chars";
import { MAX_FIELD_NAME } from "./json-fields";
import { hasSecretWord, isCredentialFieldName } from "./key-like";

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
export function redactSecretParams(text: string): string {
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
  return spliced(text, parts, last);
}

function isAssignmentNameChar(c: number): boolean {
  return isAlnum(c) || c === 95 || c === 45 || c === 46; // _ - .
}

/** Where an unquoted value in free text ends. */
function isAssignmentValueEnd(c: number): boolean {
  return isSpace(c) || isQuote(c) || c === 44 || c === 59 || c === 38 || c === 41 || c === 93 || c === 125; // , ; & ) ] }
}

/**
 * Unquoted credential assignments in free text: `token=…`, `password:…`, `api-key = …`
 * (a name that {@link isCredentialFieldName} accepts, `=`, or `:` directly followed by the value, then a
 * value up to whitespace or `,;&)]}` or a quote). Quoted JSON fields are left to
 * {@link redactCredentialFields}.
 */
export function redactSecretAssignments(text: string): string {
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
  return spliced(text, parts, last);
}
