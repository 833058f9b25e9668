import { PAGE_QUERY, isId } from "../model";
import type { ApiContext, ApiRequest } from "./context";
import { matchesFilters, parseNodeListQuery, sortNodes } from "./node-query";
import { pageLinks, slicePage } from "./pagination";
import type { Reply } from "./reply";
import { errorReply, json, notFound, validationError } from "./reply";

/**
 * `GET /v1/nodes/`: the nodes of the networks the caller's organization is part of, filtered,
 * ordered and paginated (`count`, absolute `next` / `previous`, `results`). Invalid filter
 * values: 400 `validation_error`. A page that is not a positive integer or is past the end: 404.
 */
export function listNodes(req: ApiRequest, ctx: ApiContext, organization: string): Reply {
  const params = new URLSearchParams(req.rawQuery);
  const { query, problems } = parseNodeListQuery(params);
  if (problems.length > 0) return validationError(problems);
  const views = ctx.store.visibleNodes(organization).filter((v) => matchesFilters(v, query.filters));
  const slice = slicePage(sortNodes(views, query.orderBy), params.getAll(PAGE_QUERY).pop(), ctx.pageSize);
  if (!slice) return errorReply(404, "not_found", "Invalid page.");
  const { next, previous } = pageLinks(req.origin, req.path, req.rawQuery, slice);
  return json(200, {
    count: views.length,
    next,
    previous,
    results: slice.items.map((v) => ctx.store.nodeWire(v.node, organization)),
  });
}

/** `GET /v1/nodes/{id}/`: one node, or 404 when it does not exist or is not visible to the caller. */
export function getNode(_req: ApiRequest, ctx: ApiContext, organization: string, id: string): Reply {
  const node = isId("node", id) ? ctx.store.visibleNode(id, organization) : undefined;
  return node ? json(200, ctx.store.nodeWire(node, organization)) : notFound();
}
