/**
 * Server text in error messages: bodies previewed on one line, control and bidi characters
 * escaped, lengths capped. Linear time.
 */
import { BODY_PREVIEW_CHARS } from "../defaults";
import { isSpace } from "./chars";
import type { Redactor } from "./redact";

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
 * field cut short by the end of the body shows as `"password":"[REDACTED]`. A surrogate
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
