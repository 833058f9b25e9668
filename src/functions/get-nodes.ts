import * as pulumi from "@pulumi/pulumi";
import {
  toNodeResult,
  toNodeWithConnection,
  type Node,
  type NodeResult,
  type NodeWithConnection,
} from "../api";
import { withFunctionClient } from "./connect";
import { unsecretArgs } from "./get-node";
import { Inputs } from "./filters";
import { oncePerRun } from "./dedup";
import { failingQuietly } from "./run-error";
import { DEFAULT_GET_NODES_LIMIT, listNodes } from "./fetch";
import type { GetNodesArgs } from "./args";

export type { GetNodesArgs };

/** Arguments of {@link getNodesOutput}: those of {@link getNodes}, each an Input (`apiKey` may be a secret Output). */
export type GetNodesOutputArgs = Inputs<GetNodesArgs>;

/** Lists the matching nodes (and waits for their status when asked), with the program's stack config. */
export function fetchNodes(operation: string, args: GetNodesArgs): Promise<Node[]> {
  const { apiUrl, apiKey, limit = DEFAULT_GET_NODES_LIMIT, waitFor, ...rest } = args;
  const listing = () => listNodes(operation, args, withFunctionClient);
  // The same listing in one program run is made once; a call that waits polls on its own.
  return waitFor ? listing() : oncePerRun("listNodes", { apiUrl, apiKey, limit, filters: rest }, listing);
}

/**
 * Lists the nodes visible to the API key's organization (`GET /v1/nodes/`, every page), filtered
 * and ordered: their metadata and masked endpoints (`NodeResult`), readable. A Promise cannot
 * carry secretness, so this form has **no endpoint and no credential**: for them, use the Output
 * form, `getNodesOutput(filters)` (secret as a whole).
 *
 * Expected failures (no API key, a refused key, an invalid filter, a `waitFor` timeout, an
 * unreachable or failing service) throw a `pulumi.RunError`: the program ends with that one
 * message, no stack trace.
 */
export function getNodes(args: GetNodesArgs = {}): Promise<NodeResult[]> {
  return failingQuietly(async () => (await fetchNodes("getNodes", args)).map(toNodeResult));
}

/**
 * The brief's data source: the matching nodes (`GET /v1/nodes/`, every page), each with its
 * metadata, masked twins **and** every endpoint and credential, as one Output **secret as a
 * whole**:
 *
 * ```ts
 * const nodes = getNodesOutput({ network: "NW-100-000-1", status: "running", orderBy: "name" });
 * ```
 *
 * Each node is a {@link NodeWithConnection}: an `apply` over `nodes` reads its endpoints and
 * credentials, and what it returns is secret too (the README's "Functions" section has examples).
 *
 * Everything computed from it stays secret. For a readable list (names, statuses), unwrap what
 * you keep: `pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.name)))`, or use the Promise
 * form {@link getNodes}.
 *
 * Expected failures throw a `pulumi.RunError` (one message, no stack trace), as in `getNodes`.
 */
export function getNodesOutput(args: GetNodesOutputArgs = {}): pulumi.Output<NodeWithConnection[]> {
  // Secret from the arguments on, so that the one Output returned is secret even while unknown.
  return pulumi
    .secret(unsecretArgs(args))
    .apply((a) =>
      failingQuietly(async () =>
        (await fetchNodes("getNodesOutput", a as GetNodesArgs)).map(toNodeWithConnection),
      ),
    );
}
