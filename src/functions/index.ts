/** The data-source functions: readable node metadata, and Output forms adding secret endpoints and credentials. */
import * as pulumi from "@pulumi/pulumi";
import { toNodeResult, toNodeWithConnection } from "../provider/node-views";
import type { NodeConnection, NodeResult, NodeWithConnection } from "../provider/node-views";
import { nodeConnections, type GetNodeArgs, type GetNodeConnectionsArgs, type GetNodesArgs } from "./lookups";
import { checkPromiseOptions, failingQuietly, fetchNode, fetchNodes, lookupOutput } from "./program";

export type { GetNodeArgs, GetNodeConnectionsArgs, GetNodesArgs, NodeFilterArgs } from "./lookups";
export type { NodeConnection, NodeResult, NodeWithConnection } from "../provider/node-views";
export type { WaitFor } from "./wait";

/** Every field of `T` as a `pulumi.Input` (a homomorphic mapped type: each field keeps its doc). */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<Exclude<T[K], undefined>> };

/** Arguments of {@link getNodeOutput}: those of {@link getNode}, each an Input (`apiKey` may be a secret Output). */
export type GetNodeOutputArgs = Inputs<GetNodeArgs>;

/** Arguments of {@link getNodesOutput}: those of {@link getNodes}, each an Input (`apiKey` may be a secret Output). */
export type GetNodesOutputArgs = Inputs<GetNodesArgs>;

/** Arguments of {@link getNodeConnectionsOutput}: those of `getNodesOutput`, or an `id`, each an Input. */
export type GetNodeConnectionsOutputArgs = Inputs<GetNodeConnectionsArgs>;

/**
 * One node's metadata and masked endpoints (`GET /v1/nodes/{id}/`), readable: no endpoint or
 * credential (use {@link getNodeOutput}). Expected failures throw a `pulumi.RunError` (one message, no trace).
 * @param opts `parent` shows the call's waits and failure under it; `dependsOn` is refused (use the Output form).
 */
export function getNode(args: GetNodeArgs, opts: pulumi.InvokeOptions = {}): Promise<NodeResult> {
  return failingQuietly(async () => {
    checkPromiseOptions("getNode", opts);
    return toNodeResult(await fetchNode("getNode", args));
  }, opts.parent);
}

/**
 * One node with its metadata **and** every endpoint and credential, in an Output **secret as a
 * whole**; for a readable value, `pulumi.unsecret(getNodeOutput({ id }).status)`.
 * @param opts `dependsOn` waits for those resources, e.g. `getNodeOutput({ id }, { dependsOn: [network] })`;
 * `parent` shows the call's waits and failure under it.
 */
export function getNodeOutput(
  args: GetNodeOutputArgs,
  opts: pulumi.InvokeOutputOptions = {},
): pulumi.Output<NodeWithConnection> {
  return lookupOutput("getNodeOutput", args, opts, async (a: GetNodeArgs, fresh) =>
    toNodeWithConnection(await fetchNode("getNodeOutput", a, fresh)),
  );
}

/**
 * The matching nodes' metadata and masked endpoints (`GET /v1/nodes/`, every page), readable; the
 * list may be empty. No endpoint or credential (use {@link getNodesOutput}). Failures as in {@link getNode}.
 * @param opts As in {@link getNode}.
 */
export function getNodes(args: GetNodesArgs = {}, opts: pulumi.InvokeOptions = {}): Promise<NodeResult[]> {
  return failingQuietly(async () => {
    checkPromiseOptions("getNodes", opts);
    return (await fetchNodes("getNodes", args)).map(toNodeResult);
  }, opts.parent);
}

/**
 * The matching nodes, each with every endpoint and credential, in an Output **secret as a whole**;
 * the list may be empty: check `ns.length` before `ns[0]`.
 * @param opts As in {@link getNodeOutput}, e.g. `getNodesOutput({ network: "NW-100-000-1" }, { dependsOn: [network] })`.
 */
export function getNodesOutput(
  args: GetNodesOutputArgs = {},
  opts: pulumi.InvokeOutputOptions = {},
): pulumi.Output<NodeWithConnection[]> {
  return lookupOutput("getNodesOutput", args, opts, async (a: GetNodesArgs, fresh) =>
    (await fetchNodes("getNodesOutput", a, fresh)).map(toNodeWithConnection),
  );
}

/**
 * The endpoints and credentials of the matching nodes (or of the one node `id`), one
 * {@link NodeConnection} each, in an Output **secret as a whole**. No Promise form: it cannot carry secretness.
 * @param opts As in {@link getNodeOutput}.
 */
export function getNodeConnectionsOutput(
  args: GetNodeConnectionsOutputArgs = {},
  opts: pulumi.InvokeOutputOptions = {},
): pulumi.Output<NodeConnection[]> {
  const operation = "getNodeConnectionsOutput";
  return lookupOutput(operation, args, opts, (a: GetNodeConnectionsArgs, fresh) =>
    nodeConnections(
      operation,
      a,
      (args) => fetchNodes(operation, args, fresh),
      (args) => fetchNode(operation, args, fresh),
    ),
  );
}
