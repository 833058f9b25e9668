import { createHash, timingSafeEqual } from "crypto";
import type { IncomingHttpHeaders } from "http";
import { show } from "../../model";
import { ProblemsError } from "../data/admin";
import type { Fault, FaultOptions, RouteDelays } from "./faults";
import type { Reply } from "./reply";
import { errorReply, json, notFound, parseJsonObject, validationError } from "./reply";
import { fitTemplate } from "./routes";
import type { RunningEmulator } from "./running-emulator";

/** Every path of the emulator's own admin endpoints starts with this; the service has none. */
export const ADMIN_PREFIX = "/_emulator/";

/** The running emulator's controls the admin endpoints act on. */
export type AdminTarget = Pick<
  RunningEmulator,
  | "setFaults"
  | "faults"
  | "enqueueFaults"
  | "queuedFaults"
  | "clearQueuedFaults"
  | "setRouteDelays"
  | "routeDelays"
  | "faucetSendCounts"
  | "requestStats"
  | "admin"
>;

interface AdminRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type AdminHandler = (target: AdminTarget, body: Record<string, unknown>, param: string) => Reply;

/** `template` is the path as logged: `{id}` and `{organization}` stand for the path parameter. */
interface AdminRoute {
  template: string;
  methods: Readonly<Record<string, AdminHandler>>;
}

const faultsState = (t: AdminTarget) => json(200, { random: t.faults(), queued: t.queuedFaults() });
const found = (value: unknown, what: string) =>
  value === undefined ? notFound(`No ${what}.`) : json(200, value);

/** The admin endpoints (docs/emulator.md). Every one answers JSON; a body is a JSON object. */
const ADMIN_ROUTES: readonly AdminRoute[] = [
  {
    template: `${ADMIN_PREFIX}faults`,
    methods: {
      GET: faultsState,
      PUT: (t, body) => {
        t.setFaults(body as FaultOptions);
        return faultsState(t);
      },
    },
  },
  {
    template: `${ADMIN_PREFIX}faults/queue`,
    methods: {
      GET: faultsState,
      POST: (t, body) => {
        const list = body.faults;
        if (!Array.isArray(list)) throw new RangeError(`expected a body { "faults": [ ... ] }`);
        t.enqueueFaults(list as Fault[]);
        return faultsState(t);
      },
      DELETE: (t) => {
        t.clearQueuedFaults();
        return faultsState(t);
      },
    },
  },
  {
    template: `${ADMIN_PREFIX}route-delays`,
    methods: {
      GET: (t) => json(200, t.routeDelays()),
      PUT: (t, body) => {
        t.setRouteDelays(body as RouteDelays);
        return json(200, t.routeDelays());
      },
    },
  },
  { template: `${ADMIN_PREFIX}faucet/sends`, methods: { GET: (t) => json(200, t.faucetSendCounts()) } },
  { template: `${ADMIN_PREFIX}requests`, methods: { GET: (t) => json(200, t.requestStats()) } },
  {
    template: `${ADMIN_PREFIX}nodes/{id}`,
    methods: { PATCH: (t, body, id) => found(t.admin.updateNode(id, body), `node ${show(id)}`) },
  },
  {
    template: `${ADMIN_PREFIX}nodes/{id}/rotate-credentials`,
    methods: { POST: (t, _body, id) => found(t.admin.rotateCredentials(id), `node ${show(id)}`) },
  },
  {
    template: `${ADMIN_PREFIX}nodes/{id}/endpoint`,
    methods: {
      GET: (t, _body, id) => found(t.admin.nodeEndpoint(id), `node ${show(id)}`),
      PUT: (t, body, id) => found(t.admin.setNodeEndpoint(id, body), `node ${show(id)}`),
    },
  },
  {
    template: `${ADMIN_PREFIX}keys/{organization}/rotate`,
    methods: {
      POST: (t, _body, org) => {
        const apiKey = t.admin.rotateKey(org);
        return found(apiKey === undefined ? undefined : { apiKey }, `organization ${show(org)}`);
      },
    },
  },
];

/** The admin route of a path (one trailing `/` allowed) and its percent-decoded parameter. */
function matchAdmin(path: string): { route: AdminRoute; param: string } | undefined {
  for (const route of ADMIN_ROUTES) {
    const param = fitTemplate(route.template, path.replace(/(.)\/$/, "$1"));
    if (param !== undefined) return { route, param };
  }
  return undefined;
}

/** The template of an admin path, for the log (never its parameter), or undefined. */
export function adminTemplate(path: string): string | undefined {
  return matchAdmin(path)?.route.template;
}

/** Whether a path belongs to the admin endpoints. */
export function isAdminPath(path: string): boolean {
  return path.startsWith(ADMIN_PREFIX);
}

function sameKey(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Answers one admin request: unknown path 404, then the admin key (401; an organization's key is
 * not enough), then method (405), then the handler; a value refused is a 400 naming it.
 */
export function handleAdminRequest(req: AdminRequest, target: AdminTarget, adminKey: string): Reply {
  const matched = matchAdmin(req.path);
  if (!matched) return errorReply(404, "not_found", "Unknown admin path.");
  const { methods } = matched.route;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  if (!match || !sameKey(match[1], adminKey)) {
    return errorReply(401, "authentication_failed", "The admin endpoints need the emulator's admin key.", {
      headers: { "WWW-Authenticate": 'Bearer realm="emulator-admin"' },
    });
  }
  const handler = Object.hasOwn(methods, req.method) ? methods[req.method] : undefined;
  if (!handler) {
    return errorReply(405, "method_not_allowed", `Method "${req.method}" not allowed.`, {
      headers: { Allow: Object.keys(methods).join(", ") },
    });
  }
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
