import * as pulumi from "@pulumi/pulumi";
import {
  toNodeResult,
  toNodeWithConnection,
  type Node,
  type NodeResult,
  type NodeWithConnection,
} from "../api";
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
  const { waitFor, ...rest } = args;
  const reading = () => readNode(operation, args, withFunctionClient);
  // Concurrent reads of one node share one request; a call that waits polls on its own.
  return waitFor ? reading() : oncePerFlight("getNode", rest, reading);
}

/**
 * Looks up one node (`GET /v1/nodes/{id}/`): its metadata and masked endpoints (`NodeResult`),
 * readable. A Promise cannot carry secretness, so this form has **no endpoint and no
 * credential**: for them, use the Output form {@link getNodeOutput}, whose every endpoint and
 * credential is a secret `Output<string>` property.
 *
 * Expected failures (no API key, a refused key, an unknown id, an invalid input, a `waitFor`
 * timeout, an unreachable or failing service) throw a `pulumi.RunError`: the program ends with
 * that one message, no stack trace.
 */
export function getNode(args: GetNodeArgs): Promise<NodeResult> {
  return failingQuietly(async () => toNodeResult(await fetchNode("getNode", args)));
}

/**
 * Splits connection Inputs from the rest so that a secret `apiKey` is used unwrapped: the key is
 * used, never returned.
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
 * The brief's data source: one node (`GET /v1/nodes/{id}/`) with its metadata, masked twins
 * **and** every endpoint and credential, as one Output **secret as a whole**:
 *
 * each a property of the result: `getNodeOutput({ id })` followed by a field of
 * {@link NodeWithConnection} is a secret `Output<string>` that fits any resource input or stack
 * output (the README's "Functions" section has the examples).
 *
 * Everything computed from it (`apply`, `pulumi.interpolate`, `pulumi.all`) stays secret. For a
 * readable value (a name, a status), `pulumi.unsecret(getNodeOutput({ id }).status)`, or the
 * Promise form {@link getNode}.
 *
 * Expected failures throw a `pulumi.RunError` (one message, no stack trace), as in `getNode`.
 */
export function getNodeOutput(args: GetNodeOutputArgs): pulumi.Output<NodeWithConnection> {
  // Secret from the arguments on, so that the one Output returned is secret even while unknown.
  return pulumi
    .secret(unsecretArgs(args))
    .apply((a) =>
      failingQuietly(async () => toNodeWithConnection(await fetchNode("getNodeOutput", a as GetNodeArgs))),
    );
}
