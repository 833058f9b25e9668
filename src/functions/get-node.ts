import * as pulumi from "@pulumi/pulumi";
import type { Node } from "../api";
import { ConnectionArgs, withClient } from "../settings";
import { toNodeResult, NodeResult } from "./node-result";
import { readStackConfig } from "./stack-config";
import { waitUntil, WaitFor } from "./wait";

/** Arguments of {@link getNode}. */
export interface GetNodeArgs extends ConnectionArgs {
  /** The node's id (`ND-…`). */
  id: string;
  /** Poll until the node reaches a status, or fail with a clear timeout error. */
  waitFor?: WaitFor;
}

/** Arguments of {@link getNodeOutput}: the same, as Inputs. */
export interface GetNodeOutputArgs {
  id: pulumi.Input<string>;
  apiUrl?: pulumi.Input<string>;
  /** API key; may be a secret Output. */
  apiKey?: pulumi.Input<string>;
  waitFor?: pulumi.Input<WaitFor>;
}

/**
 * Looks up one node (`GET /v1/nodes/{id}/`). Endpoints and credentials come back as secret
 * Outputs; metadata is plain.
 */
export async function getNode(args: GetNodeArgs): Promise<NodeResult> {
  const node: Node = await withClient(args, readStackConfig, (client) => {
    const fetchNode = () => client.getNode(args.id);
    return args.waitFor ? waitUntil(`getNode ${args.id}`, args.waitFor, fetchNode, (n) => [n]) : fetchNode();
  });
  return toNodeResult(node);
}

/**
 * Splits connection Inputs from the rest so that a secret `apiKey` does not make the whole
 * result secret: the key is used, never returned.
 */
export function unsecretArgs<T extends { apiKey?: pulumi.Input<string> }>(
  args: T,
): pulumi.Output<pulumi.Unwrap<Omit<T, "apiKey">> & { apiKey?: string }> {
  const { apiKey, ...rest } = args;
  return pulumi
    .all([pulumi.output(rest), pulumi.unsecret(pulumi.output(apiKey))])
    .apply(
      ([r, key]) =>
        ({ ...(r as object), apiKey: key }) as pulumi.Unwrap<Omit<T, "apiKey">> & { apiKey?: string },
    );
}

/** {@link getNode} taking Inputs and returning an Output; metadata stays readable, secrets stay secret. */
export function getNodeOutput(args: GetNodeOutputArgs): pulumi.Output<NodeResult> {
  return unsecretArgs(args).apply((a) => getNode(a as GetNodeArgs));
}
