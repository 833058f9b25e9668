import type { IdKind } from "../../model";
import { authenticate } from "./context";
import type { ApiContext, ApiRequest } from "./context";
import { deleteNetwork, getNode, listNodes, requestTokens, updateNetwork } from "./handlers";
import type { Reply } from "./reply";
import { errorReply, notFound } from "./reply";

/**
 * A handler: the request, the context, the caller's organization and the path parameter (the id,
 * or the faucet's chain; `""` when the route has none).
 */
type Handler = (req: ApiRequest, ctx: ApiContext, organization: string, id: string) => Reply;

/** One route of the service. */
export interface Route {
  /** The path template, as logged: `{id}` stands for the path parameter. */
  template: string;
  /**
   * Path segments after the leading `/`; a segment starting with `:` (`:id`, `:chain`) captures
   * one percent-decoded segment, the route's one path parameter.
   */
  segments: readonly string[];
  /** The kind of identifier `:id` stands for, when the route has one. */
  idKind?: IdKind;
  /** The handler of each method the route allows. */
  methods: Readonly<Record<string, Handler>>;
}

/** The template of the node list route. */
export const NODES_TEMPLATE = "/v1/nodes/";

/** The template of the network route (`PATCH` updates, `DELETE` deletes). */
export const NETWORK_TEMPLATE = "/v1/networks/{id}/";

/**
 * The template of the faucet route (`POST` only): `{chain}` is `goerli` in the spec's text; the
 * emulator serves the chains of its `faucetChains` option (see the `requestTokens` handler).
 */
export const FAUCET_TEMPLATE = "/v1/faucet/{chain}";

/** Every route of the service (spec 4): all paths end with `/`, except the faucet's. */
export const ROUTES: readonly Route[] = [
  { template: NODES_TEMPLATE, segments: ["v1", "nodes", ""], methods: { GET: listNodes } },
  {
    template: "/v1/nodes/{id}/",
    segments: ["v1", "nodes", ":id", ""],
    idKind: "node",
    methods: { GET: getNode },
  },
  {
    template: NETWORK_TEMPLATE,
    segments: ["v1", "networks", ":id", ""],
    idKind: "network",
    methods: { PATCH: updateNetwork, DELETE: deleteNetwork },
  },
  { template: FAUCET_TEMPLATE, segments: ["v1", "faucet", ":chain"], methods: { POST: requestTokens } },
];

/**
 * Matches a raw path. Segments are split before percent-decoding, so an encoded `/` stays
 * inside one segment (and then fails the id shape: 404); empty or undecodable segments match
 * no path parameter.
 */
export function matchRoute(path: string): { route: Route; id: string } | undefined {
  if (!path.startsWith("/")) return undefined;
  const parts = path.slice(1).split("/");
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length) continue;
    let id = "";
    const ok = route.segments.every((segment, i) => {
      if (!segment.startsWith(":")) return segment === parts[i];
      if (parts[i] === "") return false;
      try {
        id = decodeURIComponent(parts[i]);
      } catch {
        return false;
      }
      return true;
    });
    if (ok) return { route, id };
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
    return errorReply(405, "method_not_allowed", `Method "${req.method}" not allowed.`, {
      headers: { Allow: allow.join(", ") },
    });
  }
  return handler(req, ctx, auth.organization, id);
}
