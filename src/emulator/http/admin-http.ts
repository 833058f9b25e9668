import { createHash, timingSafeEqual } from "crypto";
import { show } from "../../model/rules";
import { ProblemsError } from "../data/admin";
import type { Fault, FaultOptions, RouteDelays } from "./faults";
import type { ApiRequest, Reply } from "./reply";
import { errorReply, json, methodNotAllowed, notFound, parseJsonObject, validationError } from "./reply";
import { fitTemplate } from "./routes";
import type { RunningEmulator } from "./running-emulator";

/** Every path of the emulator's own admin endpoints starts with this; the service has none. */
export const ADMIN_PREFIX = "/_emulator/";

type AdminRequest = Pick<ApiRequest, "method" | "path" | "headers" | "body">;

type AdminHandler = (target: RunningEmulator, body: Record<string, unknown>, param: string) => Reply;

const faultsState = (t: RunningEmulator) => json(200, { random: t.faults(), queued: t.queuedFaults() });
const found = (what: string, value: unknown) =>
  value === undefined ? notFound(`No ${what}.`) : json(200, value);
const node = (id: string) => `node ${show(id)}`;

/**
 * The admin endpoints under {@link ADMIN_PREFIX} (docs/emulator.md), by template (`{id}` and
 * `{organization}` stand for the parameter). Every one answers JSON; a body is a JSON object.
 */
const ADMIN_ROUTES: Readonly<Record<string, Readonly<Record<string, AdminHandler>>>> = {
  faults: {
    GET: faultsState,
    PUT: (t, body) => {
      t.setFaults(body as FaultOptions);
      return faultsState(t);
    },
  },
  "faults/queue": {
    GET: faultsState,
    POST: (t, body) => {
      if (!Array.isArray(body.faults)) throw new RangeError(`expected a body { "faults": [ ... ] }`);
      t.enqueueFaults(body.faults as Fault[]);
      return faultsState(t);
    },
    DELETE: (t) => {
      t.clearQueuedFaults();
      return faultsState(t);
    },
  },
  "route-delays": {
    GET: (t) => json(200, t.routeDelays()),
    PUT: (t, body) => {
      t.setRouteDelays(body as RouteDelays);
      return json(200, t.routeDelays());
    },
  },
  "faucet/sends": { GET: (t) => json(200, t.faucetSendCounts()) },
  requests: { GET: (t) => json(200, t.requestStats()) },
  "nodes/{id}": { PATCH: (t, body, id) => found(node(id), t.admin.updateNode(id, body)) },
  "nodes/{id}/rotate-credentials": { POST: (t, _body, id) => found(node(id), t.admin.rotateCredentials(id)) },
  "nodes/{id}/endpoint": {
    GET: (t, _body, id) => found(node(id), t.admin.nodeEndpoint(id)),
    PUT: (t, body, id) => found(node(id), t.admin.setNodeEndpoint(id, body)),
  },
  "keys/{organization}/rotate": {
    POST: (t, _body, org) => {
      const apiKey = t.admin.rotateKey(org);
      return found(`organization ${show(org)}`, apiKey === undefined ? undefined : { apiKey });
    },
  },
};

/** The admin route of a path (one trailing `/` allowed): its template, methods and percent-decoded parameter. */
function matchAdmin(path: string) {
  for (const [template, methods] of Object.entries(ADMIN_ROUTES)) {
    const param = fitTemplate(ADMIN_PREFIX + template, path.replace(/(.)\/$/, "$1"));
    if (param !== undefined) return { template: ADMIN_PREFIX + template, methods, param };
  }
  return undefined;
}

/** The template of an admin path, for the log (never its parameter), or undefined. */
export function adminTemplate(path: string): string | undefined {
  return matchAdmin(path)?.template;
}

function sameKey(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Answers one admin request: unknown path 404, then the admin key (401; an organization's key is
 * not enough), then method (405), then the handler; a value refused is a 400 naming it.
 */
export function handleAdminRequest(req: AdminRequest, target: RunningEmulator, adminKey: string): Reply {
  const matched = matchAdmin(req.path);
  if (!matched) return errorReply(404, "not_found", "Unknown admin path.");
  const { methods } = matched;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!match || !sameKey(match[1], adminKey)) {
    const headers = { "WWW-Authenticate": 'Bearer realm="emulator-admin"' };
    const message = "The admin endpoints need the emulator's admin key.";
    return errorReply(401, "authentication_failed", message, { headers });
  }
  const handler = Object.hasOwn(methods, req.method) ? methods[req.method] : undefined;
  if (!handler) return methodNotAllowed(req.method, Object.keys(methods));
  const body = parseJsonObject(req.body, req.headers["content-type"]);
  if ("reply" in body) return body.reply;
  try {
    return handler(target, body.value, matched.param);
  } catch (error) {
    if (error instanceof ProblemsError) return validationError(error.problems);
    if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
    return errorReply(400, "validation_error", error.message);
  }
}
