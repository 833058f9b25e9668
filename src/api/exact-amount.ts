/**
 * Reading an amount exactly from JSON text (a wei amount passes 2^53): the source text of a top-level value,
 * and the decimal digits of an integer number token of any size. A small scanner, linear in the text.
 */

/** A non-negative JSON number token (RFC 8259): integer, fraction and exponent digits. */
const NUMBER_TOKEN = /^(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Largest decimal exponent accepted when expanding an amount (keeps the expansion bounded). */
const MAX_EXPONENT = 400;

/**
 * Expands a JSON number token (`500000000000000000`, `5e17`, `5.0E+17`) into the exact decimal
 * digits of the integer it denotes, without going through a floating-point number. Returns
 * `undefined` when the token is not a number, not an integer, negative, or absurdly large.
 */
export function integerDigits(token: string): string | undefined {
  const match = NUMBER_TOKEN.exec(token.trim());
  if (!match) return undefined;
  const [, intPart, fracPart = "", expPart = "0"] = match;
  if (expPart.replace(/^[+-]?0*/, "").length > 4) return undefined;
  const exponent = Number(expPart);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  const digits = intPart + fracPart;
  // Where the decimal point falls in `digits`, padded with zeros when it falls past them.
  const point = Math.max(0, intPart.length + exponent);
  const padded = digits.padEnd(point, "0");
  if (/[1-9]/.test(padded.slice(point))) return undefined;
  return padded.slice(0, point).replace(/^0+(?=\d)/, "") || "0";
}

/** Skips JSON whitespace from `i`. */
function skipSpace(text: string, i: number): number {
  while (i < text.length && " \t\n\r".includes(text[i])) i++;
  return i;
}

/** The end (exclusive) of the JSON string starting at `i` (which is a `"`). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new SyntaxError("unterminated string");
}

/** The end (exclusive) of the JSON value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = stringEnd(text, j) - 1;
      else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    throw new SyntaxError("unterminated container");
  }
  let j = i;
  while (j < text.length && !/[\s,}\]]/.test(text[j])) j++;
  return j;
}

/**
 * The raw source text of the value of a top-level key of a JSON object, e.g. the literal
 * `123456789012345678901` of `{"amountSent": 123456789012345678901}`, so that a number beyond
 * 2^53 can be read without loss. Only keys of the outermost object count (a key of the same name
 * inside a nested object or a string is ignored). Returns `undefined` when the key is absent.
 * The text should already be known to be valid JSON.
 */
export function rawTopLevelValue(json: string, key: string): string | undefined {
  let i = skipSpace(json, 0);
  if (json[i] !== "{") return undefined;
  i = skipSpace(json, i + 1);
  if (json[i] === "}") return undefined;
  let found: string | undefined;
  while (i < json.length) {
    if (json[i] !== '"') throw new SyntaxError("expected a key");
    const keyEnd = stringEnd(json, i);
    const name = JSON.parse(json.slice(i, keyEnd)) as string;
    i = skipSpace(json, keyEnd);
    if (json[i] !== ":") throw new SyntaxError("expected ':'");
    i = skipSpace(json, i + 1);
    const end = valueEnd(json, i);
    // JSON.parse keeps the last duplicate key; do the same.
    if (name === key) found = json.slice(i, end);
    i = skipSpace(json, end);
    if (json[i] === ",") i = skipSpace(json, i + 1);
    else break;
  }
  return found;
}
