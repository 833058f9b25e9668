import * as pulumi from "@pulumi/pulumi";
import { toNodeResult, type Node, type NodeResult } from "../api";
import { withFunctionClient } from "./connect";
import { Inputs } from "./filters";
import { oncePerFlight } from "./dedup";
import { failingQuietly } from "./run-error";
import { readNode } from "./fetch";
import type { GetNodeArgs } from "./args";

export type { GetNodeArgs };

/** Arguments of {@link getNodeOutput}: those of {@link getNode}, each an Input (`apiKey` may be a secret Output). */
export type GetNodeOutputArgs = Inputs<GetNodeArgs>;

/** Reads one node (and waits for its status when asked), with the program's stack config. */
export function fetchNode(operation: string, args: GetNodeArgs): Promise<Node> {
  const { id, waitFor, apiUrl, apiKey } = args;
  const reading = () => readNode(operation, args, withFunctionClient);
  // Concurrent reads of one node share one request; a call that waits polls on its own.
  return waitFor ? reading() : oncePerFlight("getNode", { id, apiUrl, apiKey }, reading);
}

/**
 * Looks up one node (`GET /v1/nodes/{id}/`): its metadata and masked endpoints, never secret.
 * For its endpoints and credentials, use `getNodeConnectionsOutput({ id })`.
 *
 * Expected failures (no API key, a refused key, an unknown id, an invalid input, a `waitFor`
 * timeout) throw a `pulumi.RunError`: the program ends with that one message, no stack trace.
 */
export function getNode(args: GetNodeArgs): Promise<NodeResult> {
  return failingQuietly(async () => toNodeResult(await fetchNode("getNode", args)));
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

/**
 * {@link getNode} taking Inputs and returning an Output: readable metadata and masked endpoints,
 * not secret (a secret `apiKey` does not make it secret).
 */
export function getNodeOutput(args: GetNodeOutputArgs): pulumi.Output<NodeResult> {
  return unsecretArgs(args).apply((a) => getNode(a as GetNodeArgs));
}
