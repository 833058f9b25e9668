import { createHash, timingSafeEqual } from "crypto";
import type { IncomingHttpHeaders } from "http";
import type { RouteDelays } from "./delays";
import type { Fault, FaultOptions } from "./fault-options";
import { parseJsonObject } from "./reply";
import type { Reply } from "./reply";
import { errorReply, json } from "./reply";
import type { RunningEmulator } from "./running-emulator";

/** Every path of the emulator's own admin endpoints starts with this; the service has none. */
export const ADMIN_PREFIX = "/_emulator/";

/** What the admin endpoints act on: the running emulator's controls. */
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
>;

/** A request to an admin endpoint (the body already read). */
export interface AdminRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type AdminHandler = (target: AdminTarget, body: Record<string, unknown>) => Reply;

const faultsState = (t: AdminTarget) => json(200, { random: t.faults(), queued: t.queuedFaults() });

/**
 * The admin endpoints, by exact path and method. Every one answers JSON; a body is a JSON object.
 *
 * - `GET /_emulator/faults`: `{ random: FaultOptions, queued: number }`.
 * - `PUT /_emulator/faults` with a `FaultOptions` object: replaces the random faults.
 * - `POST /_emulator/faults/queue` with `{ "faults": [Fault, ...] }`: queues one-shot faults.
 * - `DELETE /_emulator/faults/queue`: drops every queued fault.
 * - `GET` / `PUT /_emulator/route-delays` with `{ faucetMs?, networkUpdateMs? }`: the delays.
 * - `GET /_emulator/faucet/sends`: `{ total, byAddress }`, every send ever counted.
 * - `GET /_emulator/requests`: `{ total, retained, capacity }` of the request record.
 */
export const ADMIN_ROUTES: Readonly<Record<string, Readonly<Record<string, AdminHandler>>>> = {
  [`${ADMIN_PREFIX}faults`]: {
    GET: faultsState,
    PUT: (t, body) => {
      t.setFaults(body as FaultOptions);
      return faultsState(t);
    },
  },
  [`${ADMIN_PREFIX}faults/queue`]: {
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
  [`${ADMIN_PREFIX}route-delays`]: {
    GET: (t) => json(200, t.routeDelays()),
    PUT: (t, body) => {
      t.setRouteDelays(body as RouteDelays);
      return json(200, t.routeDelays());
    },
  },
  [`${ADMIN_PREFIX}faucet/sends`]: { GET: (t) => json(200, t.faucetSendCounts()) },
  [`${ADMIN_PREFIX}requests`]: { GET: (t) => json(200, t.requestStats()) },
};

/** The admin paths, each mapped to itself (they carry nothing secret and may be logged). */
export const ADMIN_PATHS: ReadonlyMap<string, string> = new Map(Object.keys(ADMIN_ROUTES).map((p) => [p, p]));

/** Whether a path belongs to the admin endpoints. */
export function isAdminPath(path: string): boolean {
  return path.startsWith(ADMIN_PREFIX);
}

function sameKey(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Answers one admin request: unknown path 404, then `Authorization: Bearer <adminKey>` (401;
 * an organization's key is not enough), then method (405), then the handler; a value the
 * emulator refuses is a 400 `validation_error` naming it.
 */
export function handleAdminRequest(req: AdminRequest, target: AdminTarget, adminKey: string): Reply {
  const methods = Object.hasOwn(ADMIN_ROUTES, req.path) ? ADMIN_ROUTES[req.path] : undefined;
  if (!methods) return errorReply(404, "not_found", "Unknown admin path.");
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
    return handler(target, body.value);
  } catch (error) {
    if (!(error instanceof RangeError || error instanceof TypeError)) throw error;
    return errorReply(400, "validation_error", error.message);
  }
}
