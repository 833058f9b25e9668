import * as pulumi from "@pulumi/pulumi";
import type { Node, NodeFilters } from "../api";
import { ConnectionArgs, withClient } from "../settings";
import { unsecretArgs } from "./get-node";
import { toNodeResult, NodeResult } from "./node-result";
import { readStackConfig } from "./stack-config";
import { waitUntil, WaitFor } from "./wait";

/** Default bound of {@link getNodes}: more matching nodes than this is an error, never a silent cut. */
export const DEFAULT_GET_NODES_LIMIT = 1000;

/** Arguments of {@link getNodes}: every filter of the node list, ordering, a bound and connection settings. */
export interface GetNodesArgs extends NodeFilters, ConnectionArgs {
  /** Most nodes to return (default 1000); more matching nodes is an error asking to narrow the filters. */
  limit?: number;
  /** Poll until every matching node reaches a status, or fail with a clear timeout error. */
  waitFor?: WaitFor;
}

/** Arguments of {@link getNodesOutput}: the same, as Inputs. */
export type GetNodesOutputArgs = {
  [K in Exclude<keyof GetNodesArgs, "apiKey">]?: pulumi.Input<NonNullable<GetNodesArgs[K]>>;
} & { apiKey?: pulumi.Input<string> };

/**
 * Lists the nodes visible to the API key's organization (`GET /v1/nodes/`, every page), filtered
 * and ordered. Endpoints and credentials come back as secret Outputs; metadata is plain.
 */
export async function getNodes(args: GetNodesArgs = {}): Promise<NodeResult[]> {
  const { apiUrl, apiKey, limit = DEFAULT_GET_NODES_LIMIT, waitFor, ...filters } = args;
  const nodes: Node[] = await withClient({ apiUrl, apiKey }, readStackConfig, (client) => {
    const list = () => client.listAllNodes(filters, { limit });
    return waitFor ? waitUntil("getNodes", waitFor, list, (ns) => ns) : list();
  });
  return nodes.map(toNodeResult);
}

/** {@link getNodes} taking Inputs and returning an Output; metadata stays readable, secrets stay secret. */
export function getNodesOutput(args: GetNodesOutputArgs = {}): pulumi.Output<NodeResult[]> {
  return unsecretArgs(args).apply((a) => getNodes(a as GetNodesArgs));
}
