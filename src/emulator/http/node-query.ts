import { NODE_FILTERS, NODE_FILTER_NAMES, checkFilterValue } from "../../model";
import type { NodeFilterName, OrderBy, Problem } from "../../model";
import type { NodeView } from "../data/store";
import { compare } from "../data/store";

/** The filters of `GET /v1/nodes/` (camelCase names of the model), already validated. */
export type NodeListFilters = {
  [K in Exclude<NodeFilterName, "orderBy">]?: K extends "archive" ? boolean : string;
};

/** A validated node list query: filters and ordering (the page is handled by pagination). */
export interface NodeListQuery {
  filters: NodeListFilters;
  orderBy: OrderBy;
}

/** The ordering when `order_by` is absent: oldest first. */
export const DEFAULT_ORDER_BY: OrderBy = "created_at";

/** Spellings of the `archive` query accepted as booleans (as Django's boolean filter does). */
export const ARCHIVE_VALUES: ReadonlyMap<string, boolean> = new Map<string, boolean>([
  ["true", true],
  ["True", true],
  ["1", true],
  ["false", false],
  ["False", false],
  ["0", false],
]);

/**
 * Reads and validates the node list query with the model's {@link NODE_FILTERS} table. Unknown
 * parameters are ignored; a repeated parameter counts with its last value; an empty value means
 * "no filter" (as django-filter treats it). Every invalid value is reported under its query name.
 */
export function parseNodeListQuery(params: URLSearchParams): { query: NodeListQuery; problems: Problem[] } {
  const problems: Problem[] = [];
  const filters: Record<string, string | boolean> = {};
  let orderBy = DEFAULT_ORDER_BY;
  for (const name of NODE_FILTER_NAMES) {
    const field = NODE_FILTERS[name].query;
    const raw = params.getAll(field).pop();
    if (raw === undefined || raw === "") continue;
    const value = name === "archive" ? (ARCHIVE_VALUES.get(raw) ?? raw) : raw;
    const problem = checkFilterValue(name, value, field);
    if (problem) problems.push(problem);
    else if (name === "orderBy") orderBy = value as OrderBy;
    else filters[name] = value;
  }
  return { query: { filters: filters as NodeListFilters, orderBy }, problems };
}

/**
 * Whether a node passes every filter. All comparisons are exact and case-sensitive; in
 * particular `name` is an exact match of the whole name, not a substring search. `archive`
 * matches only nodes whose configuration carries the flag (the protocols it applies to).
 */
export function matchesFilters(view: NodeView, filters: NodeListFilters): boolean {
  const { node, network, project } = view;
  const actual: Record<keyof NodeListFilters, string | boolean | undefined> = {
    project: network.project,
    organization: node.organization,
    network: node.network,
    region: node.region,
    provider: node.provider,
    protocol: network.protocol,
    role: node.role,
    type: node.type,
    archive: node.archive,
    publicNetwork: network.publicNetwork,
    name: node.name,
    projectType: project.type,
    status: node.status,
  };
  return (Object.keys(filters) as Array<keyof NodeListFilters>).every((key) => actual[key] === filters[key]);
}

/**
 * Sorts nodes by `name` or `created_at`, ascending or (with `-`) descending, with the node id
 * ascending as tie-breaker so every order is total. Names compare by code unit (case-sensitive).
 */
export function sortNodes(views: NodeView[], orderBy: OrderBy): NodeView[] {
  const descending = orderBy.startsWith("-");
  const key = (descending ? orderBy.slice(1) : orderBy) as "name" | "created_at";
  const sign = descending ? -1 : 1;
  const value = (v: NodeView) => (key === "name" ? v.node.name : v.node.createdAt);
  return [...views].sort((a, b) => sign * compare(value(a), value(b)) || compare(a.node.id, b.node.id));
}
