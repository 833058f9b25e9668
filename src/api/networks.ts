/** Network endpoints: read and update (both `PATCH`), delete (spec 4.3, 4.4). */
import { PATHS, validateNetworkUpdate } from "../model";
import { isNotFound } from "./errors";
import { toNetwork } from "./mapping";
import { Transport, mapResponse, request } from "./request";
import type { DeleteResult, Network, NetworkUpdate } from "./types";
import { apiUrl } from "./url";
import { requireId, requireNoProblems } from "./validation";

const UPDATE_FIELDS = ["name", "project"] as const;

async function patchNetwork(t: Transport, operation: string, id: string, body: Record<string, unknown>) {
  const spec = { operation, resourceId: id };
  const response = await request(t, {
    ...spec,
    method: "PATCH",
    url: apiUrl(t.base, PATHS.network(id)),
    body,
  });
  return mapResponse(t, spec, response, (json) => toNetwork(json));
}

/**
 * Reads a network with its nodes. The service has no GET for a network: this sends a `PATCH`
 * with an empty JSON body `{}`, the only call that returns a Network.
 */
export async function readNetwork(t: Transport, id: string): Promise<Network> {
  requireId("readNetwork", "network", id);
  return patchNetwork(t, "readNetwork", id, {});
}

/**
 * Changes a network's `name` and/or `project` and returns the network. Only the given fields
 * are sent; with none, this reads the network. Fields are checked before any request.
 */
export async function updateNetwork(t: Transport, id: string, update: NetworkUpdate): Promise<Network> {
  const operation = "updateNetwork";
  requireId(operation, "network", id);
  const given = (update ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(given).filter(
    (k) => given[k] !== undefined && !(UPDATE_FIELDS as readonly string[]).includes(k),
  );
  requireNoProblems(operation, [
    ...unknown.map((field) => ({
      field,
      value: JSON.stringify(given[field]) ?? String(given[field]),
      allowed: `not an updatable field; expected ${UPDATE_FIELDS.join(" or ")}`,
    })),
    ...validateNetworkUpdate(given),
  ]);
  const body: Record<string, unknown> = {};
  for (const field of UPDATE_FIELDS) if (given[field] !== undefined) body[field] = given[field];
  return patchNetwork(t, operation, id, body);
}

/**
 * Deletes a network: `{status: "deleted"}` on success, `{status: "alreadyGone"}` when the
 * service answers 404 (no such network, or not visible to the key). Any other failure throws; a
 * network that still has nodes is refused by the service (a `conflict` or `validation` error).
 */
export async function deleteNetwork(t: Transport, id: string): Promise<DeleteResult> {
  const operation = "deleteNetwork";
  requireId(operation, "network", id);
  try {
    await request(t, { operation, resourceId: id, method: "DELETE", url: apiUrl(t.base, PATHS.network(id)) });
    return { status: "deleted" };
  } catch (error) {
    if (isNotFound(error)) return { status: "alreadyGone" };
    throw error;
  }
}
