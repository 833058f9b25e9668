import { checkId, isId, show, validateNetworkUpdate } from "../model";
import type { Problem } from "../model";
import type { ApiContext, ApiRequest } from "./context";
import { parseJsonObject } from "./json-body";
import type { Reply } from "./reply";
import { errorReply, json, noContent, notFound, validationError } from "./reply";

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
  if (typeof update.project === "string") network.project = update.project;
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
