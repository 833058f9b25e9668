/** Network endpoints: read and update (both `PATCH`), delete (spec 4.3, 4.4). */
import { show, validateNetworkUpdate } from "../model/rules";
import { NotFoundError, requireId, requireNoProblems } from "./errors";
import { toNetwork } from "./mapping";
import { judgeNotFound, learnNodeSecrets } from "./nodes";
import type { Context } from "./options";
import { mapAnswer, request, startCall, type Call, type CallOptions } from "./request";
import type { DeleteResult, NetworkInfo, NetworkUpdate } from "./types";
import { apiUrl, PATHS } from "./url";

const UPDATE_FIELDS = ["name", "project"] as const;

function networkCall(t: Context, method: string, id: string, options: CallOptions | undefined): Call {
  const call = startCall(t, method, options, id);
  requireId(t, call.operation, "network", id);
  return call;
}

async function patchNetwork(t: Context, call: Call, id: string, body: Record<string, unknown>) {
  try {
    const answer = await request(t, call, { method: "PATCH", url: apiUrl(t.base, PATHS.network(id)), body });
    const network = mapAnswer(t, call, answer, (a) => toNetwork(a.body));
    learnNodeSecrets(t, network.nodes);
    return network;
  } catch (error) {
    if (error instanceof NotFoundError) throw await judgeNotFound(t, call, error, "PATCH", PATHS.network(id));
    throw error;
  }
}

/** Reads a network with its nodes: a `PATCH` of `{}`, the only call that returns a Network (no GET). */
export async function readNetwork(t: Context, id: string, options?: CallOptions): Promise<NetworkInfo> {
  return patchNetwork(t, networkCall(t, "readNetwork", id, options), id, {});
}

/** Changes a network's `name` and/or `project` (only the given ones are sent; with neither, reads it). */
export async function updateNetwork(t: Context, id: string, update: NetworkUpdate, options?: CallOptions) {
  const call = networkCall(t, "updateNetwork", id, options);
  if (typeof update !== "object" || update === null || Array.isArray(update)) {
    const allowed = `expected an object with ${UPDATE_FIELDS.join(" and/or ")}`;
    requireNoProblems(t, call.operation, [{ field: "update", value: show(update), allowed }]);
  }
  const given = update as unknown as Record<string, unknown>;
  const unknown = Object.keys(given).filter(
    (k) => given[k] !== undefined && !(UPDATE_FIELDS as readonly string[]).includes(k),
  );
  const allowed = `not an updatable field; expected ${UPDATE_FIELDS.join(" or ")}`;
  requireNoProblems(t, call.operation, [
    ...unknown.map((field) => ({ field, value: show(given[field]), allowed })),
    ...validateNetworkUpdate(given),
  ]);
  const body: Record<string, unknown> = {};
  for (const field of UPDATE_FIELDS)
    if (Object.hasOwn(given, field) && given[field] !== undefined) body[field] = given[field];
  return patchNetwork(t, call, id, body);
}

/** Deletes a network: `deleted`, or `alreadyGone` when the service itself says it does not exist. */
export async function deleteNetwork(t: Context, id: string, options?: CallOptions): Promise<DeleteResult> {
  const call = networkCall(t, "deleteNetwork", id, options);
  try {
    await request(t, call, { method: "DELETE", url: apiUrl(t.base, PATHS.network(id)) });
    return { status: "deleted" };
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const judged = await judgeNotFound(t, call, error, "DELETE", PATHS.network(id));
    if (judged !== error) throw judged;
    return { status: "alreadyGone" };
  }
}
