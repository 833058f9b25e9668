/**
 * What looks like a key: the statistics of a piece of text that tell a key or token from a name,
 * and the names of secret parameters and credential fields. Linear time.
 */
import { SECRET_FIELD_NAMES } from "../../model";
import { REDACTED } from "../defaults";
import { isAlnum, isDigit, isLetter, looseDecode } from "./chars";

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

/** The statistics of empty text. */
export const NO_TEXT: TextStats = { length: 0, letter: false, digit: false, unusual: false };

/** Statistics of `url[s, e)`, percent-decoded, not counting `[REDACTED]`. */
export function statsOf(url: string, s: number, e: number): TextStats {
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

/** The statistics of two pieces of text joined by `separators` characters. */
export function joinStats(a: TextStats, b: TextStats, separators: number): TextStats {
  return {
    length: a.length + b.length + separators,
    letter: a.letter || b.letter,
    digit: a.digit || b.digit,
    unusual: a.unusual || b.unusual,
  };
}

/** At least 16 characters, letters and digits, and a word no ordinary name has. */
export function isKeyLikeStats(stats: TextStats): boolean {
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

/** Whether a lower-cased parameter name holds a word of {@link SECRET_NAME_WORDS}. */
export function hasSecretWord(lowerName: string): boolean {
  for (const word of SECRET_NAME_WORDS) if (lowerName.includes(word)) return true;
  return false;
}

/** Whether a field name (already lower-cased, `_` and `-` removed) names a credential. */
export function isCredentialFieldName(name: string): boolean {
  if (name === "auth" || name === "pass" || name === "sig" || SECRET_FIELD_NAMES.has(name)) return true;
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
