import { checkAddress, checkId, isId, show, validateNetworkUpdate, type Problem } from "../../model/rules";
import type { IdKind } from "../../model/values";
import { nextUtcMidnight } from "../data/faucet-ledger";
import { listNodes } from "./node-list";
import type { ApiContext, ApiRequest, Reply } from "./reply";
import {
  JSON_TYPE,
  authenticate,
  errorReply,
  json,
  methodNotAllowed,
  notFound,
  parseJsonObject,
  validationError,
} from "./reply";

/** A handler gets the caller's organization and the path parameter (the id or the chain; `""` for none). */
type Handler = (req: ApiRequest, ctx: ApiContext, organization: string, id: string) => Reply;

/** One route: its template (as logged; `{id}` / `{chain}` is its one parameter), its handlers. */
export interface Route {
  template: string;
  /** The kind of identifier `{id}` stands for. */
  idKind?: IdKind;
  methods: Readonly<Record<string, Handler>>;
}

export const NODES_TEMPLATE = "/v1/nodes/";
export const NETWORK_TEMPLATE = "/v1/networks/{id}/";
/** The spec's `goerli` is one of the chains of the `faucetChains` option. */
export const FAUCET_TEMPLATE = "/v1/faucet/{chain}";

/** Every route of the service (spec 4): all paths end with `/`, except the faucet's. */
const ROUTES: readonly Route[] = [
  { template: NODES_TEMPLATE, methods: { GET: listNodes } },
  { template: "/v1/nodes/{id}/", idKind: "node", methods: { GET: getNode } },
  { template: NETWORK_TEMPLATE, idKind: "network", methods: { PATCH: updateNetwork, DELETE: deleteNetwork } },
  { template: FAUCET_TEMPLATE, methods: { POST: requestTokens } },
];

/**
 * The percent-decoded parameter of a raw path that fits a template (`""` when it has none), or
 * undefined. The path is split before decoding: an encoded `/` stays in its segment.
 */
export function fitTemplate(template: string, path: string): string | undefined {
  const segments = template.split("/");
  const parts = path.split("/");
  if (segments.length !== parts.length) return undefined;
  let param = "";
  for (const [i, segment] of segments.entries()) {
    if (!segment.startsWith("{") && segment !== parts[i]) return undefined;
    if (!segment.startsWith("{")) continue;
    try {
      param = decodeURIComponent(parts[i]);
    } catch {
      return undefined;
    }
    if (param === "") return undefined;
  }
  return param;
}

/** The route of a raw path and its parameter. */
export function matchRoute(path: string): { route: Route; id: string } | undefined {
  for (const route of ROUTES) {
    const id = fitTemplate(route.template, path);
    if (id !== undefined) return { route, id };
  }
  return undefined;
}

/**
 * Answers one API request: route (unknown path: 404), then authentication (401), then method
 * (405 with `Allow`), then the handler. `HEAD` is served as `GET`.
 */
export function handleApiRequest(req: ApiRequest, ctx: ApiContext): Reply {
  const matched = matchRoute(req.path);
  if (!matched) {
    const other = req.path.endsWith("/") ? req.path.slice(0, -1) : `${req.path}/`;
    const hint = matchRoute(other) ? `; did you mean ${other}?` : "";
    return notFound(`Unknown path ${req.path.slice(0, 200)}${hint}`);
  }
  const auth = authenticate(req.headers.authorization, ctx.store);
  if ("reply" in auth) return auth.reply;
  const { route, id } = matched;
  const method = req.method === "HEAD" && route.methods.GET ? "GET" : req.method;
  const handler = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
  if (!handler) {
    const allow = Object.keys(route.methods);
    if (allow.includes("GET")) allow.push("HEAD");
    return methodNotAllowed(req.method, allow);
  }
  return handler(req, ctx, auth.organization, id);
}

/** `GET /v1/nodes/{id}/`: one node, or 404 when it does not exist or is not visible to the caller. */
export function getNode(_req: ApiRequest, ctx: ApiContext, organization: string, id: string): Reply {
  const node = isId("node", id) ? ctx.store.visibleNode(id, organization) : undefined;
  return node ? json(200, ctx.store.nodeWire(node, organization)) : notFound();
}

/**
 * `PATCH /v1/networks/{id}/`: applies `name` and `project` (a project of the caller's
 * organization), ignores read-only and unknown fields, answers the network with its nodes. An
 * empty body changes nothing: it is how clients read a network. 404 for any other organization.
 */
export function updateNetwork(req: ApiRequest, ctx: ApiContext, organization: string, id: string): Reply {
  const network = isId("network", id) ? ctx.store.ownedNetwork(id, organization) : undefined;
  if (!network) return notFound();
  const body = parseJsonObject(req.body, req.headers["content-type"]);
  if ("reply" in body) return body.reply;
  const update = { name: body.value.name, project: body.value.project };
  const problems: Problem[] = validateNetworkUpdate(update);
  const project = typeof update.project === "string" ? ctx.store.projects.get(update.project) : undefined;
  const mine = project?.organization === organization;
  if (update.project !== undefined && !checkId("project", "project", update.project) && !mine) {
    const allowed = "expected a project of your organization";
    problems.push({ field: "project", value: show(update.project), allowed });
  }
  if (problems.length > 0) return validationError(problems);
  if (typeof update.name === "string") network.name = update.name;
  if (typeof update.project === "string") {
    network.project = update.project;
    ctx.store.version++;
  }
  return json(200, ctx.store.networkWire(network, organization));
}

/** `DELETE /v1/networks/{id}/`: 204; 409 `conflict` while it has nodes (the spec leaves the status open). */
export function deleteNetwork(_req: ApiRequest, ctx: ApiContext, organization: string, id: string): Reply {
  const network = isId("network", id) ? ctx.store.ownedNetwork(id, organization) : undefined;
  if (!network) return notFound();
  const remaining = ctx.store.nodesOf(network.id).length;
  const nodes = `${remaining} ${remaining === 1 ? "node" : "nodes"}`;
  const message = `Network ${network.id} still has ${nodes}; delete all nodes of the network first.`;
  if (remaining > 0) return errorReply(409, "conflict", message);
  ctx.store.deleteNetwork(network.id);
  return { status: 204, headers: {} };
}

/**
 * `POST /v1/faucet/{chain}` with `{"address": "0x..."}`: 404 for a chain not served, 400 for an
 * address the model refuses, 429 `rate_limited` with `nextFaucetAvailable` past the daily limit.
 */
export function requestTokens(req: ApiRequest, ctx: ApiContext, _organization: string, chain: string): Reply {
  if (!ctx.faucetChains.includes(chain))
    return notFound(`The faucet has no chain ${show(chain)}; it serves ${ctx.faucetChains.join(", ")}.`);
  const body = parseJsonObject(req.body, req.headers["content-type"]);
  if ("reply" in body) return body.reply;
  const address = body.value.address;
  const required = { field: "address", value: "undefined", allowed: "this field is required" };
  const problem = address === undefined ? required : checkAddress("address", address);
  if (problem) return validationError([problem]);
  const now = ctx.now();
  if (!ctx.faucet.allowed(address as string, now, chain)) {
    const next = nextUtcMidnight(now).toISOString();
    const limit = `limit ${ctx.faucetDailyLimit} per address per chain per UTC day`;
    const message = `The ${chain} faucet already sent tokens to ${address as string} today (${limit}); try again after ${next}.`;
    return errorReply(429, "rate_limited", message, { top: { nextFaucetAvailable: next } });
  }
  const send = ctx.faucet.send(address as string, now, chain);
  // Written by hand so that the wei amount is a JSON number with every digit, like the service's.
  return {
    status: 200,
    headers: { "Content-Type": JSON_TYPE },
    body: `{"amountSent":${send.amountSent},"transaction":${JSON.stringify(send.transaction)}}`,
  };
}
