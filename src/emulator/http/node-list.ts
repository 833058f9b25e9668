import { NODE_FILTERS, NODE_FILTER_NAMES, PAGE_QUERY, checkFilterValue } from "../../model/rules";
import type { NodeFilterName, Problem } from "../../model/rules";
import type { OrderBy } from "../../model/values";
import { compare, type NodeRecord, type NodeView, type Store } from "../data/store";
import { errorReply, json, validationError, type ApiContext, type ApiRequest, type Reply } from "./reply";

/** The filters of `GET /v1/nodes/` (camelCase names of the model), already validated. */
type NodeListFilters = { [K in Exclude<NodeFilterName, "orderBy">]?: K extends "archive" ? boolean : string };

/** Spellings of the `archive` query accepted as booleans (as Django's boolean filter does). */
export const ARCHIVE_VALUES = new Map(
  Object.entries({ true: true, True: true, 1: true, false: false, False: false, 0: false }),
);

/**
 * Reads the node list query with the model's {@link NODE_FILTERS}: unknown parameters ignored, the
 * last of a repeated one counts, an empty value is no filter (as django-filter treats it).
 */
function parseQuery(params: URLSearchParams) {
  const problems: Problem[] = [];
  const filters: Record<string, string | boolean> = {};
  let orderBy: OrderBy = "created_at";
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
  return { filters: filters as NodeListFilters, orderBy, problems };
}

/** Exact, case-sensitive matches (`name` is the whole name); `archive` only where the flag applies. */
function matchesFilters({ node, network, project }: NodeView, filters: NodeListFilters): boolean {
  const { protocol, publicNetwork } = network;
  const own: Record<string, unknown> = {
    project: network.project,
    protocol,
    publicNetwork,
    projectType: project.type,
  };
  const value = (key: string) => (key in own ? own[key] : node[key as keyof NodeRecord]);
  return Object.entries(filters).every(([key, wanted]) => value(key) === wanted);
}

/** The filtered, ordered nodes of the last few queries per store while it is unchanged (a walk sorts once). */
const listCache = new WeakMap<Store, { version: number; lists: Map<string, NodeView[]> }>();

function filteredNodes(store: Store, organization: string, filters: NodeListFilters, orderBy: OrderBy) {
  let cache = listCache.get(store);
  if (cache?.version !== store.version)
    listCache.set(store, (cache = { version: store.version, lists: new Map() }));
  const key = JSON.stringify([organization, orderBy, Object.entries(filters).sort()]);
  let views = cache.lists.get(key);
  if (!views) {
    // Ordered by name or created_at (`-`: descending), the node id ascending breaking ties.
    const descending = orderBy.startsWith("-");
    const value = (v: NodeView) => (orderBy.endsWith("name") ? v.node.name : v.node.createdAt);
    views = store
      .visibleNodes(organization)
      .filter((v) => matchesFilters(v, filters))
      .sort((a, b) => (descending ? -1 : 1) * compare(value(a), value(b)) || compare(a.node.id, b.node.id));
    if (cache.lists.size >= 32) cache.lists.clear();
    cache.lists.set(key, views);
  }
  return views;
}

/**
 * `GET /v1/nodes/`: the nodes the caller's organization sees, filtered, ordered and paginated as
 * Django REST framework's page numbers (`page` absent: 1, `last`: the last; past it: 404), with
 * absolute `next` / `previous` links that keep every other parameter (page 1 drops `page`).
 */
export function listNodes(req: ApiRequest, ctx: ApiContext, organization: string): Reply {
  const params = new URLSearchParams(req.rawQuery);
  const { filters, orderBy, problems } = parseQuery(params);
  if (problems.length > 0) return validationError(problems);
  const views = filteredNodes(ctx.store, organization, filters, orderBy);
  const lastPage = Math.max(1, Math.ceil(views.length / ctx.pageSize));
  const pageParam = params.getAll(PAGE_QUERY).pop() ?? "1";
  const page = pageParam === "last" ? lastPage : /^[0-9]{1,9}$/.test(pageParam) ? Number(pageParam) : 0;
  if (page < 1 || page > lastPage) return errorReply(404, "not_found", "Invalid page.");
  const link = (to: number): string => {
    const query = new URLSearchParams(req.rawQuery);
    if (to === 1) query.delete(PAGE_QUERY);
    else query.set(PAGE_QUERY, String(to));
    const text = query.toString();
    return `${req.origin}${req.path}${text ? `?${text}` : ""}`;
  };
  return json(200, {
    count: views.length,
    next: page < lastPage ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: views
      .slice((page - 1) * ctx.pageSize, page * ctx.pageSize)
      .map((v) => ctx.store.nodeWire(v.node, organization)),
  });
}
