import {
  NODE_ROLES,
  NODE_STATUSES,
  NODE_TYPES,
  ORDER_BY_VALUES,
  PROJECT_TYPES,
  PROVIDERS,
  REGIONS,
} from "./enums";
import { checkId, IdKind } from "./ids";
import {
  MAX_NAME_FILTER_LENGTH,
  Problem,
  checkLength,
  checkOneOf,
  closestName,
  isOwnKey,
  show,
} from "./problems";
import { PROTOCOLS, PUBLIC_NETWORK_NAMES } from "./protocols";
import { combinationProblems } from "./rules";

type FilterRule =
  | { kind: "id"; idKind: IdKind }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "boolean" }
  | { kind: "string" };

/** Every filter of `GET /v1/nodes/` by camelCase name, with its query parameter and rule. */
export const NODE_FILTERS = {
  project: { query: "project", rule: { kind: "id", idKind: "project" } },
  organization: { query: "organization", rule: { kind: "id", idKind: "organization" } },
  network: { query: "network", rule: { kind: "id", idKind: "network" } },
  region: { query: "region", rule: { kind: "enum", values: REGIONS } },
  provider: { query: "provider", rule: { kind: "enum", values: PROVIDERS } },
  protocol: { query: "protocol", rule: { kind: "enum", values: PROTOCOLS } },
  role: { query: "role", rule: { kind: "enum", values: NODE_ROLES } },
  type: { query: "type", rule: { kind: "enum", values: NODE_TYPES } },
  archive: { query: "archive", rule: { kind: "boolean" } },
  publicNetwork: { query: "public_network", rule: { kind: "enum", values: PUBLIC_NETWORK_NAMES } },
  name: { query: "name", rule: { kind: "string" } },
  projectType: { query: "project_type", rule: { kind: "enum", values: PROJECT_TYPES } },
  status: { query: "status", rule: { kind: "enum", values: NODE_STATUSES } },
  orderBy: { query: "order_by", rule: { kind: "enum", values: ORDER_BY_VALUES } },
} as const satisfies Record<string, { query: string; rule: FilterRule }>;

/** The camelCase name of a node list filter (or `orderBy`). */
export type NodeFilterName = keyof typeof NODE_FILTERS;

/** All camelCase filter names, in the appendix's order (`orderBy` last). */
export const NODE_FILTER_NAMES = Object.keys(NODE_FILTERS) as NodeFilterName[];

/** The query parameter that carries the page number. */
export const PAGE_QUERY = "page";

/** Checks one filter value; a `name` that is not a filter is a problem too, never a crash. */
export function checkFilterValue(
  name: NodeFilterName,
  value: unknown,
  field: string = name,
): Problem | undefined {
  if (!isOwnKey(NODE_FILTERS, name)) return unknownFilter(field, value);
  const rule: FilterRule = NODE_FILTERS[name].rule;
  switch (rule.kind) {
    case "id":
      return checkId(rule.idKind, field, value);
    case "enum":
      return checkOneOf(field, value, rule.values);
    case "boolean":
      return typeof value === "boolean"
        ? undefined
        : { field, value: show(value), allowed: "expected true or false" };
    case "string":
      if (typeof value !== "string" || value.length === 0)
        return { field, value: show(value), allowed: "expected a non-empty string" };
      return checkLength(field, value, MAX_NAME_FILTER_LENGTH);
  }
}

function unknownFilter(field: string, value: unknown): Problem {
  const close = closestName(field.slice(field.lastIndexOf(".") + 1), NODE_FILTER_NAMES);
  return {
    field,
    value: show(value),
    allowed: `unknown filter${close ? `; did you mean \`${close}\`?` : ""}; expected one of ${NODE_FILTER_NAMES.join(", ")}`,
  };
}

/**
 * Checks a filter object: unknown keys, each value, and combinations that can never match.
 * Returns every problem; never throws (`constructor`, `__proto__` are unknown filters).
 */
export function validateNodeFilters(filters: Record<string, unknown>, prefix = ""): Problem[] {
  if (typeof filters !== "object" || filters === null || Array.isArray(filters)) {
    return [
      {
        field: prefix === "" ? "filters" : prefix.replace(/\.$/, ""),
        value: show(filters),
        allowed: "expected an object of filters",
      },
    ];
  }
  const problems: Problem[] = [];
  const given = new Map<NodeFilterName, unknown>();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (!isOwnKey(NODE_FILTERS, key)) {
      problems.push(unknownFilter(prefix + key, value));
      continue;
    }
    const p = checkFilterValue(key, value, prefix + key);
    if (p) problems.push(p);
    else given.set(key, value);
  }
  if (problems.length > 0) return problems;
  return combinationProblems(
    {
      provider: given.get("provider"),
      region: given.get("region"),
      protocol: given.get("protocol"),
      publicNetwork: given.get("publicNetwork"),
      type: given.get("type"),
    },
    prefix,
  );
}
