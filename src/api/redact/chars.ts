/**
 * Characters and text helpers of the scanners: character classes, ASCII case folding, word
 * search, lenient percent-decoding. Linear time.
 */

/** An ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** ASCII letter (`c | 0x20` folds upper case onto lower case and never lands in a-z from elsewhere). */
export function isLetter(c: number): boolean {
  const l = c | 0x20;
  return l >= 97 && l <= 122;
}

/** An ASCII letter or digit. */
export function isAlnum(c: number): boolean {
  return isLetter(c) || isDigit(c);
}

/** A character of `\w` (what `\b` looks at). */
export function isWordChar(c: number): boolean {
  return isAlnum(c) || c === 95;
}

/** A character of `\s`. */
export function isSpace(c: number): boolean {
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

/** A double or single quote. */
export function isQuote(c: number): boolean {
  return c === 34 || c === 39;
}

/** Whether `text` has `lowerWord` (lower-case ASCII) at `at`, ignoring ASCII case. */
export function hasWordAt(text: string, at: number, lowerWord: string): boolean {
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
export function wordFinder(text: string, lowerWord: string): (from: number) => number {
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

/**
 * The result of a pass that copies `text` in `parts` up to `last`, with replacements: the parts
 * and the rest of the text from `last`, or `text` itself when nothing was replaced.
 */
export function spliced(text: string, parts: string[], last: number): string {
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts.join("");
}

/** Lower-cases ASCII letters only, so that the result has the same length and indices. */
export function lowerAscii(text: string): string {
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
  return spliced(text, parts, last);
}

/** `encode(text)`, or `undefined` when the text cannot be encoded. */
export function safeEncode(text: string, encode: (s: string) => string): string | undefined {
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
export function looseDecode(text: string): string {
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
