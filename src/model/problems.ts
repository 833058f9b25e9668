/** One thing wrong with an input: the field, the value given, and what is allowed. */
export interface Problem {
  /** The field (camelCase, as the user typed it), e.g. `networkId` or `filters.region`. */
  field: string;
  /** The offending value, rendered for humans (never a secret). */
  value: string;
  /** What is allowed instead, phrased so the user can fix the input. */
  allowed: string;
}

/** Renders a value for an error message, keeping it short. Never throws, whatever the value. */
export function show(value: unknown): string {
  const cut = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);
  if (value === undefined) return "undefined";
  if (typeof value === "string") return JSON.stringify(cut(value));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return `${String(value)}n`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // a cycle, or a BigInt inside: described by its type
  }
  return cut(text ?? (Array.isArray(value) ? "an array" : "an object"));
}

/** Formats problems as one readable message, one line per problem. */
export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.field}: got ${p.value}; ${p.allowed}`).join("\n");
}

/** Returns a problem when `value` is not one of `allowed`, or undefined. */
export function checkOneOf(field: string, value: unknown, allowed: readonly string[]): Problem | undefined {
  if (typeof value === "string" && allowed.includes(value)) return undefined;
  return { field, value: show(value), allowed: `expected one of ${allowed.join(", ")}` };
}

/** True when `key` is an own property of `table`: user input never finds `Object.prototype`'s members. */
export function isOwnKey<T extends object>(table: T, key: unknown): key is keyof T & string {
  return typeof key === "string" && Object.prototype.hasOwnProperty.call(table, key);
}

/** `table[key]` when `key` is one of the table's own properties, otherwise `undefined`. */
export function ownValue<T extends object>(table: T, key: unknown): T[keyof T] | undefined {
  return isOwnKey(table, key) ? table[key] : undefined;
}

/** Longest API URL accepted, in characters: 2048 (what browsers and proxies reliably carry). */
export const MAX_API_URL_LENGTH = 2048;
/** Longest API key accepted, in characters: 1024 (keys of the service are a few dozen). */
export const MAX_API_KEY_LENGTH = 1024;
/** Longest `name` filter of the node list, in characters: 255, as a network name. */
export const MAX_NAME_FILTER_LENGTH = 255;

/** The edit distance of two short words (insertions, deletions, substitutions, transpositions). */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name `given` most resembles (same letters in another case, or a typo away), if any. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  if (given.length > 64) return undefined;
  const lower = given.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const [best, d] = known
    .map((k) => [k, distance(lower, k.toLowerCase())] as const)
    .reduce((a, b) => (b[1] < a[1] ? b : a), [undefined, Infinity] as readonly [string | undefined, number]);
  return best !== undefined && d <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

/** One problem per name not among `known`, naming the close one; `__` names and `undefined` values skipped. */
export function unknownProperties(
  given: Record<string, unknown>,
  known: readonly string[],
  what = "property",
): Problem[] {
  const problems: Problem[] = [];
  for (const key of Object.keys(given)) {
    if (key.startsWith("__") || given[key] === undefined || known.includes(key)) continue;
    const close = closestName(key, known);
    problems.push({
      field: key.length > 64 ? `${key.slice(0, 61)}...` : key,
      value: show(given[key]),
      allowed: `unknown ${what}${close ? `; did you mean \`${close}\`?` : ""} Known: ${known.map((k) => `\`${k}\``).join(", ")}`,
    });
  }
  return problems;
}

/** A problem when `value` is a string longer than `max` characters. */
export function checkLength(field: string, value: unknown, max: number): Problem | undefined {
  if (typeof value !== "string" || value.length <= max) return undefined;
  return {
    field,
    value: `a string of ${value.length} characters`,
    allowed: `expected at most ${max} characters`,
  };
}
