/** What the functions look up, Pulumi-free, shared by the TypeScript functions and the plugin: each host passes its {@link Connect}. */
import { invalidInput } from "../api/errors";
import { type Node, type NodeFilters } from "../api/types";
import { type NodeServiceClient } from "../api/client";
import { NODE_FILTER_NAMES, show, unknownProperties } from "../model/rules";
import { toNodeConnection, type NodeConnection } from "../provider/node-views";
import { SETTING_NAMES, type ConnectionArgs, type SettingName } from "../settings";
import { camelSpelling, checkVerify, verifyNodes } from "./verify";
import type { CheckedNode, Known, VerifyHost, VerifyOptions } from "./verify";
import { waitUntil, type WaitFor } from "./wait";

/** The filters of the node list (`GET /v1/nodes/`): the client's `NodeFilters`. */
export type NodeFilterArgs = NodeFilters;

/** Arguments of `getNode`. */
export interface GetNodeArgs extends ConnectionArgs {
  /** The node's id: `ND-` and digit groups, e.g. `ND-123-456-789`. */
  id: string;
  /**
   * Poll until the node reaches a status, e.g. `{ status: "running", timeoutSeconds: 600 }`, or
   * fail with a clear timeout error.
   */
  waitFor?: WaitFor;
  /**
   * Call the node's own endpoint as an app would before returning it: it must answer, accept its
   * credentials, serve its network's chain and have a fresh head; else the call fails naming what
   * failed. `true` for the defaults, e.g. `{ maxHeadAgeSeconds: 120 }`. With `waitFor`, the wait
   * ends when the node has the status and passes the check. The result carries `verified`.
   * `minVerified` may only be 1 here: a healthy set of several comes from `getNodes`.
   */
  verify?: boolean | VerifyOptions;
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
  /**
   * Check every matching node's endpoint before returning them, as `getNode`'s `verify` does (at
   * most 8 at once). With `minVerified`, a healthy set: the nodes that pass, freshest head first,
   * when at least that many pass, e.g. `{ minVerified: 2 }`; each node left out is named in one warning.
   */
  verify?: boolean | VerifyOptions;
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
export const GET_NODE_ARG_NAMES: readonly string[] = ["id", "waitFor", "verify", ...SETTING_NAMES];

/** Every argument of `getNodes` (its filters and `orderBy` included). */
export const GET_NODES_ARG_NAMES: readonly string[] = [
  "waitFor",
  "verify",
  "limit",
  ...SETTING_NAMES,
  ...NODE_FILTER_NAMES,
];

/** Every argument of `getNodeConnectionsOutput`: those of `getNodes`, or an `id`. */
export const GET_NODE_CONNECTIONS_ARG_NAMES: readonly string[] = ["id", ...GET_NODES_ARG_NAMES];

/** Default bound of a node listing: more matching nodes than this is an error, never a silent cut. */
export const DEFAULT_GET_NODES_LIMIT = 1000;

/** Runs `use` with the client of these connection arguments (`withClient` with a host's config reader). */
export type Connect = <T>(args: ConnectionArgs, use: (client: NodeServiceClient) => Promise<T>) => Promise<T>;

function connectionOf<T extends ConnectionArgs>(args: T): [ConnectionArgs, Omit<T, SettingName>] {
  const rest = { ...args } as Record<string, unknown>;
  const connection = Object.fromEntries(SETTING_NAMES.map((n) => [n, rest[n]]));
  for (const n of SETTING_NAMES) delete rest[n];
  return [connection, rest as Omit<T, SettingName>];
}

/** `fetch`, then the wait and the endpoint check asked for. */
async function settled<T>(
  operation: string,
  { waitFor, verify, label = operation }: { waitFor?: WaitFor; verify?: unknown; label?: string },
  fetch: () => Promise<T>,
  nodesOf: (value: T) => Node[],
  check: (value: T, verified: (nodes: Node[]) => Promise<CheckedNode[]>) => Promise<T>,
  client: NodeServiceClient,
  host: VerifyHost,
  known: Known = {},
): Promise<T> {
  const checks = checkVerify(operation, verify, host);
  const settle = checks && ((v: T) => check(v, (ns) => verifyNodes(operation, ns, checks, client, known)));
  // A healthy set is checked as soon as enough nodes have the status: the others are left out.
  if (waitFor) return waitUntil(label, waitFor, fetch, nodesOf, {}, settle, checks?.minVerified);
  const value = await fetch();
  return settle ? settle(value) : value;
}

/**
 * Lists the matching nodes (waits for their status and checks their endpoints when asked), for the
 * views to shape; `host`: how the caller's language spells arguments, where a warning goes.
 */
export function listNodes(operation: string, args: GetNodesArgs, connect: Connect, host: VerifyHost = {}) {
  const [connection, { limit = DEFAULT_GET_NODES_LIMIT, waitFor, verify, ...filters }] = connectionOf(args);
  const known = { protocol: filters.protocol, publicNetwork: filters.publicNetwork } as Known;
  return connect(connection, (client) => {
    const list = (): Promise<CheckedNode[]> => client.listAllNodes(filters, { limit, operation });
    return settled(
      operation,
      { waitFor, verify },
      list,
      (ns) => ns,
      (ns, check) => check(ns),
      client,
      host,
      known,
    );
  });
}

/** Reads one node (waits for its status and checks its endpoint when asked), for the views to shape. */
export function readNode(operation: string, args: GetNodeArgs, connect: Connect, host: VerifyHost = {}) {
  const unknown = unknownProperties(
    args as unknown as Record<string, unknown>,
    GET_NODE_ARG_NAMES,
    "argument",
  );
  if (unknown.length > 0) return Promise.reject(invalidInput(operation, unknown));
  const [connection, { id, waitFor, verify }] = connectionOf(args);
  return connect(connection, async (client) => {
    // One node is checked: a healthy set of more than one can never be met.
    const several = checkVerify(operation, verify, host)?.minVerified ?? 1;
    if (several > 1) {
      const field = `verify.${(host.spell ?? camelSpelling)("minVerified")}`;
      const allowed = "at most 1 here: one node is checked; a healthy set of several comes from getNodes";
      throw invalidInput(operation, [{ field, value: show(several), allowed }], { resourceId: id });
    }
    const read = () => client.getNode(id, { operation });
    const check = async (n: Node, verified: (ns: Node[]) => Promise<CheckedNode[]>) =>
      (await verified([n]))[0];
    const label = `${operation} ${id}`;
    return settled<CheckedNode>(operation, { waitFor, verify, label }, read, (n) => [n], check, client, host);
  });
}

/** The arguments that do not select a list: the only ones that can come with an `id`. */
const NOT_LISTING = ["id", "waitFor", "verify", ...SETTING_NAMES];

/** The connections of the listed nodes, or of the one node `args.id` (an `id` with list arguments is refused). */
export async function nodeConnections(
  operation: string,
  args: GetNodeConnectionsArgs,
  list: (args: GetNodesArgs) => Promise<Node[]>,
  read: (args: GetNodeArgs) => Promise<Node>,
): Promise<NodeConnection[]> {
  const { id, ...rest } = args;
  if (id === undefined) return (await list(rest)).map(toNodeConnection);
  const given = args as Record<string, unknown>;
  const extra = Object.keys(given).filter((k) => !NOT_LISTING.includes(k) && given[k] !== undefined);
  if (extra.length > 0) {
    const allowed = "not with id: pass either id (one node) or filters (a list)";
    const problems = extra.map((field) => ({ field, value: show(given[field]), allowed }));
    throw invalidInput(operation, problems, { resourceId: id });
  }
  const [connection, { waitFor, verify }] = connectionOf(rest);
  return [toNodeConnection(await read({ id, waitFor, verify, ...connection }))];
}
