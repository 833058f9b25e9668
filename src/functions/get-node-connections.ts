import * as pulumi from "@pulumi/pulumi";
import type { NodeConnection } from "../api";
import { nodeConnections } from "./fetch";
import { fetchNode, unsecretArgs } from "./get-node";
import { fetchNodes } from "./get-nodes";
import type { GetNodeConnectionsArgs } from "./args";
import { Inputs } from "./filters";
import { failingQuietly } from "./run-error";

export type { GetNodeConnectionsArgs };

/**
 * Arguments of {@link getNodeConnectionsOutput}: those of `getNodesOutput`, or an `id`, each an
 * Input (`apiKey` may be a secret Output).
 */
export type GetNodeConnectionsOutputArgs = Inputs<GetNodeConnectionsArgs>;

/**
 * The endpoints and credentials of nodes, as one Output **secret as a whole**, holding plain
 * strings: one {@link NodeConnection} per node (its id, name, and each endpoint and credential
 * the service sent), in the order of the list (or the one node of
 * `id`). Every value computed from it (`apply`, `pulumi.interpolate`, `pulumi.all`) is secret
 * too, so an app's configuration is one `apply` away:
 *
 * ```ts
 * const conns = getNodeConnectionsOutput({ network: "NW-100-000-1", status: "running", orderBy: "name" });
 * ```
 *
 * Takes the filters, `limit` and `waitFor` of `getNodesOutput`, or `id` for one node. There is no
 * Promise form on purpose: a Promise cannot carry secretness. Metadata (status, region, masked
 * endpoints, ...) comes from `getNodesOutput`, readable.
 *
 * Expected failures throw a `pulumi.RunError` (one message, no stack trace), as in `getNodes`.
 */
export function getNodeConnectionsOutput(
  args: GetNodeConnectionsOutputArgs = {},
): pulumi.Output<NodeConnection[]> {
  // Secret from the arguments on, so that the one Output returned is secret even while unknown.
  return pulumi.secret(unsecretArgs(args)).apply((a) =>
    failingQuietly(() =>
      nodeConnections(
        "getNodeConnectionsOutput",
        a as GetNodeConnectionsArgs,
        (args) => fetchNodes("getNodeConnectionsOutput", args),
        (args) => fetchNode("getNodeConnectionsOutput", args),
      ),
    ),
  );
}
