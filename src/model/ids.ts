import { isOwnKey, Problem, show } from "./problems";

/** The prefix of each kind of identifier (spec 2), with a human name and an example. */
export const ID_KINDS = {
  node: { prefix: "ND", example: "ND-123-456-789" },
  network: { prefix: "NW", example: "NW-123-456-7" },
  organization: { prefix: "RG", example: "RG-123-456" },
  user: { prefix: "UR", example: "UR-111-111-111" },
  project: { prefix: "PR", example: "PR-123-456" },
} as const;

/** A kind of identifier: `node`, `network`, `organization`, `user` or `project`. */
export type IdKind = keyof typeof ID_KINDS;

/** An identifier: its prefix, then hyphen-separated digit groups; always safe as a URL path segment. */
export function idPattern(kind: IdKind): RegExp {
  if (!isOwnKey(ID_KINDS, kind)) throw new RangeError(`unknown id kind ${JSON.stringify(String(kind))}`);
  return new RegExp(`^${ID_KINDS[kind].prefix}(?:-[0-9]{1,12}){1,6}$`);
}

const PATTERNS = Object.fromEntries(Object.keys(ID_KINDS).map((k) => [k, idPattern(k as IdKind)]));

/** True when `value` is an identifier of the given kind (false for a kind that does not exist). */
export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === "string" && isOwnKey(PATTERNS, kind) && PATTERNS[kind].test(value);
}

/**
 * The problem with `value` as an identifier of `kind`, or undefined.
 * @throws RangeError for a `kind` that does not exist (a programming error).
 */
export function checkId(kind: IdKind, field: string, value: unknown): Problem | undefined {
  if (!isOwnKey(ID_KINDS, kind)) throw new RangeError(`unknown id kind ${JSON.stringify(String(kind))}`);
  if (isId(kind, value)) return undefined;
  const { prefix, example } = ID_KINDS[kind];
  return {
    field,
    value: show(value),
    allowed: `expected a ${kind} id: "${prefix}-" followed by hyphen-separated digit groups, e.g. ${example}`,
  };
}
