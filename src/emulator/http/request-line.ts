import { METHODS } from "http";
import { NODE_FILTERS, NODE_FILTER_NAMES, PAGE_QUERY, checkFilterValue, isId } from "../../model/rules";
import type { NodeFilterName } from "../../model/rules";
import { ARCHIVE_VALUES } from "./node-list";
import { FAUCET_TEMPLATE, NODES_TEMPLATE, matchRoute, type Route } from "./routes";
import { EMULATOR_DEFAULTS } from "./options";
import { nodeRequestShape } from "./node-endpoints";
import { adminTemplate } from "./admin-http";

/** What the log shows instead of the path of a request that matches no route. */
const UNMATCHED_ROUTE = "(unmatched route)";
/** What the log shows instead of a value that could carry a secret. */
const HIDDEN = "(hidden)";
const KNOWN_METHODS = new Set(METHODS);
const PAGE_NUMBER = /^[1-9][0-9]{0,5}$/;
const FILTER_BY_QUERY = new Map<string, NodeFilterName>(
  NODE_FILTER_NAMES.map((n) => [NODE_FILTERS[n].query, n]),
);

/** The route template of a path, or `(unmatched route)`, never the raw path; a served chain's faucet is its own path. */
export function routeTemplate(path: string, faucetChains: readonly string[]): string {
  const matched = matchRoute(path);
  return matched ? templateOf(matched, faucetChains) : (nodeRequestShape(path)?.route ?? UNMATCHED_ROUTE);
}

const templateOf = ({ route, id }: { route: Route; id: string }, faucetChains: readonly string[]) =>
  route.template === FAUCET_TEMPLATE && faucetChains.includes(id) ? `/v1/faucet/${id}` : route.template;

/**
 * A request for the log, with only what cannot carry a secret: a standard method, the route or
 * admin template, an id of the model's shape, and on the node list the known query parameters with
 * their values only when the model allows them (`name` always hidden); others are only counted;
 * a node's endpoint path with its key and unknown segments masked (`/node/nd-100-000-001/***`).
 * `describeRequest("PATCH", "/v1/networks/NW-100-000-2/", "")` is `PATCH /v1/networks/{id}/ id=NW-100-000-2`.
 */
export function describeRequest(
  method: string,
  path: string,
  rawQuery: string,
  faucetChains: readonly string[] = EMULATOR_DEFAULTS.faucetChains,
): string {
  const parts = [KNOWN_METHODS.has(method) ? method : "(other method)"];
  const matched = matchRoute(path);
  if (!matched) parts.push(nodeRequestShape(path)?.path ?? adminTemplate(path) ?? UNMATCHED_ROUTE);
  else {
    parts.push(templateOf(matched, faucetChains));
    const id = idPart(matched.route, matched.id);
    if (id) parts.push(id);
  }
  const query = queryPart(matched?.route.template === NODES_TEMPLATE, rawQuery);
  if (query) parts.push(query);
  return parts.join(" ");
}

function idPart(route: Route, id: string): string | undefined {
  return route.idKind ? `id=${isId(route.idKind, id) ? id : HIDDEN}` : undefined;
}

function queryPart(isNodeList: boolean, rawQuery: string): string | undefined {
  if (rawQuery === "") return undefined;
  const params = new URLSearchParams(rawQuery);
  const shown = new Map<string, string>();
  let others = 0;
  for (const [name, value] of params) {
    if (isNodeList && (name === PAGE_QUERY || FILTER_BY_QUERY.has(name))) {
      shown.delete(name); // the last value is the one applied: show it in its place
      shown.set(name, safeValue(name, value));
    } else others++;
  }
  const items = [...shown].map(([name, value]) => `${name}=${value}`);
  if (others > 0) items.push(`+${others} other query ${others === 1 ? "parameter" : "parameters"}`);
  return items.length > 0 ? `query: ${items.join(" ")}` : undefined;
}

function safeValue(name: string, raw: string): string {
  if (name === PAGE_QUERY) return PAGE_NUMBER.test(raw) ? raw : HIDDEN;
  const filter = FILTER_BY_QUERY.get(name) as NodeFilterName;
  if (raw === "") return "";
  if (NODE_FILTERS[filter].rule.kind === "string") return HIDDEN;
  const value = filter === "archive" ? (ARCHIVE_VALUES.get(raw) ?? raw) : raw;
  return checkFilterValue(filter, value) === undefined ? raw : HIDDEN;
}
