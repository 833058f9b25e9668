import { NODE_TYPES } from "./enums";
import { checkId } from "./ids";
import { PROVIDERS, REGIONS, regionsOf } from "./infrastructure";
import { Problem, checkOneOf, show } from "./problems";
import {
  PROTOCOLS,
  PUBLIC_NETWORK_NAMES,
  SHARED_PROTOCOLS,
  allowsSharedNodes,
  protocolOfPublicNetwork,
} from "./protocols";

/** A node's placement as far as the spec constrains it. */
export interface NodePlacement {
  protocol: unknown;
  type: unknown;
  provider: unknown;
  region: unknown;
  publicNetwork?: unknown;
}

/**
 * Checks the spec's allowed combinations for a node: each value is known, `shared` only on
 * {@link SHARED_PROTOCOLS}, the region offered by the provider, the public network of the protocol.
 */
export function validateNodePlacement(n: NodePlacement): Problem[] {
  const problems = [
    checkOneOf("protocol", n.protocol, PROTOCOLS),
    checkOneOf("type", n.type, NODE_TYPES),
    checkOneOf("provider", n.provider, PROVIDERS),
    checkOneOf("region", n.region, REGIONS),
    n.publicNetwork === undefined
      ? undefined
      : checkOneOf("publicNetwork", n.publicNetwork, PUBLIC_NETWORK_NAMES),
  ].filter((p): p is Problem => p !== undefined);
  if (problems.length > 0) return problems;
  if (n.type === "shared" && !allowsSharedNodes(n.protocol)) {
    problems.push({
      field: "type",
      value: show(n.type),
      allowed: `shared nodes exist only for ${SHARED_PROTOCOLS.join(", ")}; use dedicated for ${String(n.protocol)}`,
    });
  }
  const regions: readonly string[] = regionsOf(n.provider) ?? [];
  if (!regions.includes(n.region as string)) {
    problems.push({
      field: "region",
      value: show(n.region),
      allowed: `provider ${String(n.provider)} offers only ${regions.join(", ")}`,
    });
  }
  const networkProtocol = protocolOfPublicNetwork(n.publicNetwork);
  if (n.publicNetwork !== undefined && networkProtocol !== n.protocol) {
    problems.push({
      field: "publicNetwork",
      value: show(n.publicNetwork),
      allowed: `${String(n.publicNetwork)} belongs to ${String(networkProtocol)}, not ${String(n.protocol)}`,
    });
  }
  return problems;
}

/** Longest network name accepted. The spec sets none; this bound keeps names printable. */
export const MAX_NETWORK_NAME_LENGTH = 255;

/** Checks a network name: a non-empty string, not only whitespace, at most 255 characters. */
export function checkNetworkName(field: string, value: unknown): Problem | undefined {
  if (typeof value !== "string" || value.trim().length === 0) {
    return { field, value: show(value), allowed: "expected a non-empty name" };
  }
  if (value.length > MAX_NETWORK_NAME_LENGTH) {
    return { field, value: show(value), allowed: `expected at most ${MAX_NETWORK_NAME_LENGTH} characters` };
  }
  return undefined;
}

/**
 * Checks the fields of a network update (`name`, `project`); `undefined` fields are not sent
 * and not checked. Returns every problem.
 */
export function validateNetworkUpdate(update: { name?: unknown; project?: unknown }): Problem[] {
  return [
    update.name === undefined ? undefined : checkNetworkName("name", update.name),
    update.project === undefined ? undefined : checkId("project", "project", update.project),
  ].filter((p): p is Problem => p !== undefined);
}
