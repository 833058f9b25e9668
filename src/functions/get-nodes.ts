import * as pulumi from "@pulumi/pulumi";
import { toNodeResult, type Node, type NodeResult } from "../api";
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
  const { apiUrl, apiKey, limit = DEFAULT_GET_NODES_LIMIT, waitFor, ...filters } = args;
  const listing = () => listNodes(operation, args, withFunctionClient);
  // The same listing in one program run is made once; a call that waits polls on its own.
  return waitFor ? listing() : oncePerRun("listNodes", { apiUrl, apiKey, limit, filters }, listing);
}

/**
 * Lists the nodes visible to the API key's organization (`GET /v1/nodes/`, every page), filtered
 * and ordered: their metadata and masked endpoints, never secret. For their endpoints and
 * credentials, use `getNodeConnectionsOutput` with the same filters.
 *
 * Expected failures (no API key, a refused key, an invalid filter, a `waitFor` timeout) throw a
 * `pulumi.RunError`: the program ends with that one message, no stack trace.
 */
export function getNodes(args: GetNodesArgs = {}): Promise<NodeResult[]> {
  return failingQuietly(async () => (await fetchNodes("getNodes", args)).map(toNodeResult));
}

/**
 * {@link getNodes} taking Inputs and returning an Output: readable metadata and masked endpoints,
 * not secret (a secret `apiKey` does not make it secret).
 */
export function getNodesOutput(args: GetNodesOutputArgs = {}): pulumi.Output<NodeResult[]> {
  return unsecretArgs(args).apply((a) => getNodes(a as GetNodesArgs));
}
