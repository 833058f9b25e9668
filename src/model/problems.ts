/**
 * One thing wrong with an input: which field, what value was given, and what is allowed.
 * Validation functions return every problem they find, never just the first.
 */
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
  if (value === undefined) return "undefined";
  if (typeof value === "string")
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return `${String(value)}n`;
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = Array.isArray(value) ? "an array" : "an object";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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
