/**
 * The data-source functions: node metadata, readable (`getNode`, `getNodes`), and the Output
 * forms, which add every endpoint and credential, secret as a whole (`getNodeOutput`,
 * `getNodesOutput`, `getNodeConnectionsOutput`). Each runs a host-neutral lookup
 * (`./lookups.ts`) through the program host (`./program.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import {
  toNodeResult,
  toNodeWithConnection,
  type NodeConnection,
  type NodeResult,
  type NodeWithConnection,
} from "../provider";
import { nodeConnections, type GetNodeArgs, type GetNodeConnectionsArgs, type GetNodesArgs } from "./lookups";
import { checkPromiseOptions, lookupOutput } from "./options";
import { failingQuietly, fetchNode, fetchNodes } from "./program";

export type { GetNodeArgs, GetNodeConnectionsArgs, GetNodesArgs, NodeFilterArgs } from "./lookups";
export type { NodeConnection, NodeResult, NodeWithConnection } from "../provider";
export type { WaitFor } from "./wait";

/**
 * Every field of `T` as a `pulumi.Input`, optional where it is optional in `T`. A homomorphic
 * mapped type: each field keeps its JSDoc, so the `…Output` forms show the same docs as the
 * plain ones.
 */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<Exclude<T[K], undefined>> };

/** Arguments of {@link getNodeOutput}: those of {@link getNode}, each an Input (`apiKey` may be a secret Output). */
export type GetNodeOutputArgs = Inputs<GetNodeArgs>;

/** Arguments of {@link getNodesOutput}: those of {@link getNodes}, each an Input (`apiKey` may be a secret Output). */
export type GetNodesOutputArgs = Inputs<GetNodesArgs>;

/**
 * Arguments of {@link getNodeConnectionsOutput}: those of `getNodesOutput`, or an `id`, each an
 * Input (`apiKey` may be a secret Output).
 */
export type GetNodeConnectionsOutputArgs = Inputs<GetNodeConnectionsArgs>;

/**
 * Looks up one node (`GET /v1/nodes/{id}/`): its metadata and masked endpoints (`NodeResult`),
 * readable. A Promise cannot carry secretness, so this form has **no endpoint and no
 * credential**: use {@link getNodeOutput} for them.
 *
 * Expected failures (no API key, a refused key, an unknown id, an invalid input, a `waitFor`
 * timeout, an unreachable or failing service) throw a `pulumi.RunError`: the program ends with
 * that one message, no stack trace.
 * @param opts Pulumi's invoke options: `parent` shows the call's waits and failure under that
 * resource; `provider`, `version`, `pluginDownloadURL` are ignored (no plugin serves this call);
 * `dependsOn` is refused: the Output form waits for resources.
 */
export function getNode(args: GetNodeArgs, opts: pulumi.InvokeOptions = {}): Promise<NodeResult> {
  return failingQuietly(async () => {
    checkPromiseOptions("getNode", opts);
    return toNodeResult(await fetchNode("getNode", args));
  }, opts.parent);
}

/**
 * One node (`GET /v1/nodes/{id}/`) with its metadata, masked twins **and** every endpoint and
 * credential, as one Output **secret as a whole**: each field of the result, e.g. the node's HTTPS
 * endpoint, is a secret `Output<string>` that fits any resource input or stack output. Everything computed from
 * it stays secret; for a readable value, `pulumi.unsecret(getNodeOutput({ id }).status)`.
 *
 * Expected failures throw a `pulumi.RunError` (one message, no stack trace), as in `getNode`.
 * @param opts Pulumi's invoke options. `dependsOn`: the lookup starts once every resource listed
 * has been created or updated (during a preview that creates one, the result is unknown), e.g.
 * `getNodeOutput({ id }, { dependsOn: [network] })`. `parent` shows the call's waits and failure
 * under that resource. `provider`, `version`, `pluginDownloadURL` are ignored: no plugin serves
 * this call, it runs in the program.
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
 * Lists the nodes visible to the API key's organization (`GET /v1/nodes/`, every page), filtered
 * and ordered: their metadata and masked endpoints (`NodeResult`), readable; no endpoint and no
 * credential (use {@link getNodesOutput} for them). The list may be empty.
 *
 * Expected failures (no API key, a refused key, an invalid filter, a `waitFor` timeout, an
 * unreachable or failing service) throw a `pulumi.RunError`: the program ends with that one
 * message, no stack trace.
 * @param opts Pulumi's invoke options, as in {@link getNode}.
 */
export function getNodes(args: GetNodesArgs = {}, opts: pulumi.InvokeOptions = {}): Promise<NodeResult[]> {
  return failingQuietly(async () => {
    checkPromiseOptions("getNodes", opts);
    return (await fetchNodes("getNodes", args)).map(toNodeResult);
  }, opts.parent);
}

/**
 * The matching nodes (`GET /v1/nodes/`, every page), each a {@link NodeWithConnection} with its
 * metadata, masked twins **and** every endpoint and credential, as one Output **secret as a
 * whole**. Everything computed from it stays secret; for a readable list,
 * `pulumi.unsecret(nodes.apply((ns) => ns.map((n) => n.name)))`. The list may be empty: check
 * `ns.length` before `ns[0]`.
 *
 * Expected failures throw a `pulumi.RunError` (one message, no stack trace), as in `getNodes`.
 * @param opts Pulumi's invoke options, as in {@link getNodeOutput}, e.g.
 * `getNodesOutput({ network: "NW-100-000-1" }, { dependsOn: [network] })`.
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
 * The endpoints and credentials of nodes, as one Output **secret as a whole**, holding plain
 * strings: one {@link NodeConnection} per node (its id, name, and each endpoint and credential
 * the service sent), in the order of the list, or the one node of `id`. Takes the filters,
 * `limit` and `waitFor` of `getNodesOutput`, or `id`. No Promise form: a Promise cannot carry
 * secretness.
 *
 * Expected failures throw a `pulumi.RunError` (one message, no stack trace), as in `getNodes`.
 * @param opts Pulumi's invoke options, as in {@link getNodeOutput}, e.g.
 * `getNodeConnectionsOutput({ network: "NW-100-000-1" }, { dependsOn: [network] })`.
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
