/**
 * The arguments of the functions as plain values, Pulumi-free: what `./fetch.ts` takes, and what
 * the TypeScript functions and the provider plugin's functions both accept.
 */
import type { NodeFilterArgs } from "./filters";
import { NODE_FILTER_NAMES } from "../model";
import { CALL_SETTING_NAMES, type ConnectionArgs } from "../settings";
import type { WaitFor } from "./wait";

/** Arguments of `getNode`. */
export interface GetNodeArgs extends ConnectionArgs {
  /** The node's id: `ND-` and digit groups, e.g. `ND-123-456-789`. */
  id: string;
  /**
   * Poll until the node reaches a status, e.g. `{ status: "running", timeoutSeconds: 600 }`, or
   * fail with a clear timeout error.
   */
  waitFor?: WaitFor;
}

/** Arguments of `getNodes`: every filter of the node list, ordering, a bound and connection settings. */
export interface GetNodesArgs extends NodeFilterArgs, ConnectionArgs {
  /**
   * Most nodes to return (default 1000). More matching nodes is an error asking to narrow the
   * filters, never a silent cut.
   */
  limit?: number;
  /**
   * Poll until every matching node reaches a status, e.g. `{ status: "running" }`, or fail with a
   * clear timeout error naming the nodes still elsewhere.
   */
  waitFor?: WaitFor;
}

/**
 * Arguments of `getNodeConnectionsOutput`, as plain values: the filters, `limit`, `waitFor`
 * and connection settings of `getNodes`, or the `id` of one node.
 */
export interface GetNodeConnectionsArgs extends GetNodesArgs {
  /**
   * One node's id, e.g. `ND-123-456-789`: the result is that node alone (`GET /v1/nodes/{id}/`),
   * an unknown id fails. Not together with filters, `orderBy` or `limit`.
   */
  id?: string;
}

/** Every argument of `getNode`. */
export const GET_NODE_ARG_NAMES: readonly string[] = [
  "id",
  "waitFor",
  "apiUrl",
  "apiKey",
  ...CALL_SETTING_NAMES,
];

/** Every argument of `getNodes` (its filters and `orderBy` included). */
export const GET_NODES_ARG_NAMES: readonly string[] = [
  "waitFor",
  "limit",
  "apiUrl",
  "apiKey",
  ...CALL_SETTING_NAMES,
  ...NODE_FILTER_NAMES,
];

/** Every argument of `getNodeConnectionsOutput`: those of `getNodes`, or an `id`. */
export const GET_NODE_CONNECTIONS_ARG_NAMES: readonly string[] = ["id", ...GET_NODES_ARG_NAMES];
