/**
 * What the functions fetch, Pulumi-free, so that two hosts share it: the TypeScript functions
 * (`getNode`, `getNodes`, `getNodeConnectionsOutput`: the program's stack config) and the
 * provider plugin's `getNode`, `getNodes`, `getNodeConnections` (its provider config). Each host
 * passes its own {@link Connect}: the one path from connection arguments to a client.
 */
import {
  invalidInput,
  toNodeConnection,
  type Node,
  type NodeConnection,
  type NodeServiceClient,
} from "../api";
import { show, unknownProperties } from "../model";
import { CALL_SETTING_NAMES, type ConnectionArgs } from "../settings";
import { GET_NODE_ARG_NAMES, type GetNodeArgs, type GetNodeConnectionsArgs, type GetNodesArgs } from "./args";
import { waitUntil } from "./wait";

/** Default bound of a node listing: more matching nodes than this is an error, never a silent cut. */
export const DEFAULT_GET_NODES_LIMIT = 1000;

/** Runs `use` with the client of these connection arguments (`withClient` with a host's config reader). */
export type Connect = <T>(args: ConnectionArgs, use: (client: NodeServiceClient) => Promise<T>) => Promise<T>;

/** Lists the matching nodes (and waits for their status when asked): raw `Node`s, for the views to shape. */
export function listNodes(operation: string, args: GetNodesArgs, connect: Connect): Promise<Node[]> {
  const {
    apiUrl,
    apiKey,
    timeoutMs,
    deadlineMs,
    maxRetries,
    limit = DEFAULT_GET_NODES_LIMIT,
    waitFor,
    ...filters
  } = args;
  return connect({ apiUrl, apiKey, timeoutMs, deadlineMs, maxRetries }, (client) => {
    const list = () => client.listAllNodes(filters, { limit });
    return waitFor ? waitUntil(operation, waitFor, list, (ns) => ns) : list();
  });
}

/** Reads one node (and waits for its status when asked): the raw `Node`, for the views to shape. */
export function readNode(operation: string, args: GetNodeArgs, connect: Connect): Promise<Node> {
  const unknown = unknownProperties(
    args as unknown as Record<string, unknown>,
    GET_NODE_ARG_NAMES,
    "argument",
  );
  if (unknown.length > 0) return Promise.reject(invalidInput(operation, unknown));
  const { id, waitFor, apiUrl, apiKey, timeoutMs, deadlineMs, maxRetries } = args;
  return connect({ apiUrl, apiKey, timeoutMs, deadlineMs, maxRetries }, (client) => {
    const read = () => client.getNode(id);
    return waitFor ? waitUntil(`${operation} ${id}`, waitFor, read, (n) => [n]) : read();
  });
}

/** The arguments given that select nodes by list and so cannot come with an `id`. */
const listOnly = (args: GetNodeConnectionsArgs) =>
  Object.keys(args).filter(
    (k) =>
      !["id", "waitFor", "apiUrl", "apiKey", ...CALL_SETTING_NAMES].includes(k) &&
      (args as Record<string, unknown>)[k] !== undefined,
  );

/**
 * The connections of the nodes of a list (`args` without `id`, listed by `list`) or of the one
 * node `args.id` (read by `read`). An `id` with list arguments is an invalid input naming them.
 */
export async function nodeConnections(
  operation: string,
  args: GetNodeConnectionsArgs,
  list: (args: GetNodesArgs) => Promise<Node[]>,
  read: (args: GetNodeArgs) => Promise<Node>,
): Promise<NodeConnection[]> {
  const { id, ...rest } = args;
  if (id === undefined) return (await list(rest)).map(toNodeConnection);
  const extra = listOnly(args);
  if (extra.length > 0) {
    throw invalidInput(
      operation,
      extra.map((field) => ({
        field,
        value: show((args as Record<string, unknown>)[field]),
        allowed: "not with id: pass either id (one node) or filters (a list)",
      })),
      { resourceId: id },
    );
  }
  const { waitFor, apiUrl, apiKey, timeoutMs, deadlineMs, maxRetries } = rest;
  return [toNodeConnection(await read({ id, waitFor, apiUrl, apiKey, timeoutMs, deadlineMs, maxRetries }))];
}
