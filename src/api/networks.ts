/** Network endpoints: read and update (both `PATCH`), delete (spec 4.3, 4.4). */
import { PATHS, show, validateNetworkUpdate } from "../model";
import { confirmNotFound } from "./confirm-not-found";
import { NotFoundError } from "./errors";
import { toNetwork } from "./mapping";
import { mapResponse } from "./answer";
import { request } from "./request";
import { Transport, learnNodeSecrets } from "./transport";
import type { DeleteResult, NetworkInfo, NetworkUpdate } from "./types";
import { apiUrl } from "./url";
import { requireId, requireNoProblems } from "./errors";

const UPDATE_FIELDS = ["name", "project"] as const;

/** {@link confirmNotFound} for a network: a 404 not confirmed is not taken as gone. */
function confirmGone(t: Transport, notFound: NotFoundError, startedAt: number) {
  return confirmNotFound(
    t,
    notFound,
    startedAt,
    PATHS.network(notFound.resourceId ?? ""),
    "the network is not taken as gone",
  );
}

async function patchNetwork(t: Transport, operation: string, id: string, body: Record<string, unknown>) {
  const spec = { operation, resourceId: id };
  const startedAt = t.now();
  let response;
  try {
    response = await request(t, {
      ...spec,
      method: "PATCH",
      url: apiUrl(t.base, PATHS.network(id)),
      body,
    });
  } catch (error) {
    if (error instanceof NotFoundError) throw await confirmGone(t, error, startedAt);
    throw error;
  }
  const network = mapResponse(t, spec, response, (json) => toNetwork(json));
  learnNodeSecrets(t, network.nodes);
  return network;
}

/**
 * Reads a network with its nodes. The service has no GET for a network: this sends a `PATCH`
 * with an empty JSON body `{}`, the only call that returns a Network. A `NotFoundError` is
 * thrown only for the service's own "does not exist" answer, confirmed against the same API base
 * (see {@link deleteNetwork}); any other 404 is an `invalid_response` error.
 */
export async function readNetwork(t: Transport, id: string): Promise<NetworkInfo> {
  requireId(t, "readNetwork", "network", id);
  return patchNetwork(t, "readNetwork", id, {});
}

/**
 * Changes a network's `name` and/or `project` and returns the network. Only the given fields
 * are sent; with none, this reads the network. Fields are checked before any request.
 */
export async function updateNetwork(t: Transport, id: string, update: NetworkUpdate): Promise<NetworkInfo> {
  const operation = "updateNetwork";
  requireId(t, operation, "network", id);
  if (update === undefined || update === null || typeof update !== "object" || Array.isArray(update)) {
    requireNoProblems(t, operation, [
      {
        field: "update",
        value: show(update),
        allowed: `expected an object with ${UPDATE_FIELDS.join(" and/or ")}`,
      },
    ]);
  }
  const given = update as unknown as Record<string, unknown>;
  const unknown = Object.keys(given).filter(
    (k) => given[k] !== undefined && !(UPDATE_FIELDS as readonly string[]).includes(k),
  );
  requireNoProblems(t, operation, [
    ...unknown.map((field) => ({
      field,
      value: show(given[field]),
      allowed: `not an updatable field; expected ${UPDATE_FIELDS.join(" or ")}`,
    })),
    ...validateNetworkUpdate(given),
  ]);
  const body: Record<string, unknown> = {};
  for (const field of UPDATE_FIELDS)
    if (Object.hasOwn(given, field) && given[field] !== undefined) body[field] = given[field];
  return patchNetwork(t, operation, id, body);
}

/**
 * Deletes a network: `{status: "deleted"}` on success, `{status: "alreadyGone"}` only when the
 * service itself says the network does not exist: a 404 with its JSON error object, confirmed by
 * a list call on the same API base that answers as the service does. A 404 from a wrong base
 * path or a proxy (HTML, another JSON, an unknown route) throws an `invalid_response` error that
 * says the API URL looks wrong. Any other failure throws; a network that still has nodes is
 * refused by the service (a `conflict` or `validation` error).
 */
export async function deleteNetwork(t: Transport, id: string): Promise<DeleteResult> {
  const operation = "deleteNetwork";
  requireId(t, operation, "network", id);
  const startedAt = t.now();
  try {
    await request(t, { operation, resourceId: id, method: "DELETE", url: apiUrl(t.base, PATHS.network(id)) });
    return { status: "deleted" };
  } catch (error) {
    if (error instanceof NotFoundError) {
      await confirmGone(t, error, startedAt);
      return { status: "alreadyGone" };
    }
    throw error;
  }
}
