import { PAGE_QUERY, checkAddress, checkId, isId, show, validateNetworkUpdate } from "../../model";
import type { Problem } from "../../model";
import { nextUtcMidnight } from "../data/faucet-ledger";
import type { NodeView, Store } from "../data/store";
import type { ApiContext, ApiRequest } from "./context";
import { parseJsonObject } from "./reply";
import { matchesFilters, parseNodeListQuery, sortNodes } from "./node-query";
import type { NodeListQuery } from "./node-query";
import { pageLinks, slicePage } from "./pagination";
import type { Reply } from "./reply";
import { JSON_TYPE, errorReply, json, noContent, notFound, validationError } from "./reply";

/**
 * The handlers of the service's routes (see `ROUTES` in routes.ts): each gets the request, the shared
 * context, the caller's organization (already authenticated) and the path id, and answers.
 */

/** The filtered, ordered nodes of the last few list queries, per store, while the store is unchanged. */
const listCache = new WeakMap<Store, { version: number; lists: Map<string, NodeView[]> }>();
const LIST_CACHE_ENTRIES = 32;

/**
 * The nodes `organization` sees that match `query`, in its order. Computed once per store
 * version and query (a walk of every page then sorts once, not once per page); node records
 * are shared, so a rename shows at once.
 */
function filteredNodes(ctx: ApiContext, organization: string, query: NodeListQuery): NodeView[] {
  let cache = listCache.get(ctx.store);
  if (!cache || cache.version !== ctx.store.version) {
    cache = { version: ctx.store.version, lists: new Map() };
    listCache.set(ctx.store, cache);
  }
  const key = JSON.stringify([organization, query.orderBy, Object.entries(query.filters).sort()]);
  let views = cache.lists.get(key);
  if (!views) {
    views = sortNodes(
      ctx.store.visibleNodes(organization).filter((v) => matchesFilters(v, query.filters)),
      query.orderBy,
    );
    if (cache.lists.size >= LIST_CACHE_ENTRIES) cache.lists.clear();
    cache.lists.set(key, views);
  }
  return views;
}

/**
 * `GET /v1/nodes/`: the nodes of the networks the caller's organization is part of, filtered,
 * ordered and paginated (`count`, absolute `next` / `previous`, `results`). Invalid filter
 * values: 400 `validation_error`. A page that is not a positive integer or is past the end: 404.
 */
export function listNodes(req: ApiRequest, ctx: ApiContext, organization: string): Reply {
  const params = new URLSearchParams(req.rawQuery);
  const { query, problems } = parseNodeListQuery(params);
  if (problems.length > 0) return validationError(problems);
  const views = filteredNodes(ctx, organization, query);
  const slice = slicePage(views, params.getAll(PAGE_QUERY).pop(), ctx.pageSize);
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

/**
 * `PATCH /v1/networks/{id}/`: applies `name` and `project` (checked with the model; the project
 * must be one of the caller's organization), ignores the read-only `protocol`, `creator`,
 * `created_at` and unknown fields, and returns the full network with its nodes. An empty body
 * changes nothing: it is how clients read a network. Only the owning organization may update it
 * (404 for anyone else).
 */
export function updateNetwork(req: ApiRequest, ctx: ApiContext, organization: string, id: string): Reply {
  const network = isId("network", id) ? ctx.store.ownedNetwork(id, organization) : undefined;
  if (!network) return notFound();
  const body = parseJsonObject(req.body, req.headers["content-type"]);
  if ("reply" in body) return body.reply;
  const update = { name: body.value.name, project: body.value.project };
  const problems: Problem[] = validateNetworkUpdate(update);
  if (update.project !== undefined && !checkId("project", "project", update.project)) {
    const project = ctx.store.project(update.project as string);
    if (!project || project.organization !== organization) {
      problems.push({
        field: "project",
        value: show(update.project),
        allowed: "expected a project of your organization",
      });
    }
  }
  if (problems.length > 0) return validationError(problems);
  if (typeof update.name === "string") network.name = update.name;
  if (typeof update.project === "string") {
    network.project = update.project;
    ctx.store.version++;
  }
  return json(200, ctx.store.networkWire(network, organization));
}

/**
 * `DELETE /v1/networks/{id}/`: 204 without a body. A network that still has nodes is refused
 * with 409 `conflict` (the reference only says deletion is refused; 409 is the chosen status).
 * 404 when missing or not owned by the caller's organization.
 */
export function deleteNetwork(_req: ApiRequest, ctx: ApiContext, organization: string, id: string): Reply {
  const network = isId("network", id) ? ctx.store.ownedNetwork(id, organization) : undefined;
  if (!network) return notFound();
  const remaining = ctx.store.nodesOf(network.id).length;
  if (remaining > 0) {
    return errorReply(
      409,
      "conflict",
      `Network ${network.id} still has ${remaining} ${remaining === 1 ? "node" : "nodes"}; delete all nodes of the network first.`,
    );
  }
  ctx.store.deleteNetwork(network.id);
  return noContent();
}

/**
 * `POST /v1/faucet/{chain}` with `{"address": "0x..."}`: a chain the emulator does not serve
 * (see the `faucetChains` option) answers 404 `not_found` naming it; then checks the address with
 * the model (EIP-55 checksum for mixed case; 400 `validation_error`), applies the daily limit per
 * chain and address (429 `rate_limited` with a top-level `nextFaucetAvailable`: the next UTC
 * midnight) and answers `{"amountSent": <wei as a JSON number>, "transaction": "<link>"}`.
 */
export function requestTokens(req: ApiRequest, ctx: ApiContext, _organization: string, chain: string): Reply {
  if (!ctx.faucetChains.includes(chain)) {
    return notFound(`The faucet has no chain ${show(chain)}; it serves ${ctx.faucetChains.join(", ")}.`);
  }
  const body = parseJsonObject(req.body, req.headers["content-type"]);
  if ("reply" in body) return body.reply;
  const address = body.value.address;
  const problem =
    address === undefined
      ? { field: "address", value: "undefined", allowed: "this field is required" }
      : checkAddress("address", address);
  if (problem) return validationError([problem]);
  const now = ctx.now();
  if (!ctx.faucet.allowed(address as string, now, chain)) {
    const next = nextUtcMidnight(now).toISOString();
    return errorReply(
      429,
      "rate_limited",
      `The ${chain} faucet already sent tokens to ${address as string} today (limit ${ctx.faucetDailyLimit} per address per chain per UTC day); try again after ${next}.`,
      { top: { nextFaucetAvailable: next } },
    );
  }
  const send = ctx.faucet.send(address as string, now, chain);
  // Written by hand so that the wei amount is a JSON number with every digit, like the service's.
  return {
    status: 200,
    headers: { "Content-Type": JSON_TYPE },
    body: `{"amountSent":${send.amountSent},"transaction":${JSON.stringify(send.transaction)}}`,
  };
}
