/**
 * The input-value guard: an invalid input is quoted in a message only when it cannot be a
 * credential. Linear time.
 */
import { isAlnum } from "./chars";
import { isKeyLike } from "./key-like";
import { redact } from "./redact";

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
