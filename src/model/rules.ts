import { NODE_TYPES, PROVIDERS, REGIONS, regionsOf } from "./enums";
import { checkId } from "./ids";
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

/** Checks each value of a node's placement, then the combinations the spec allows. */
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
  return problems.length > 0 ? problems : combinationProblems(n);
}

/** Values whose combinations the spec constrains; a value that is `undefined` was not given. */
export interface Combination {
  provider?: unknown;
  region?: unknown;
  protocol?: unknown;
  publicNetwork?: unknown;
  type?: unknown;
}

/**
 * The combinations that can never exist, among allowed values: a region of another provider, a
 * public network of another protocol, `shared` nodes of a protocol without them. Fields get `prefix`.
 */
export function combinationProblems(c: Combination, prefix = ""): Problem[] {
  const { provider, region, protocol, publicNetwork, type } = c;
  const problems: Problem[] = [];
  const regions = regionsOf(provider);
  if (regions && typeof region === "string" && !(regions as readonly string[]).includes(region)) {
    problems.push({
      field: prefix + "region",
      value: show(region),
      allowed: `provider ${String(provider)} offers only ${regions.join(", ")}`,
    });
  }
  const networkProtocol = protocolOfPublicNetwork(publicNetwork);
  if (protocol !== undefined && networkProtocol !== undefined && networkProtocol !== protocol) {
    problems.push({
      field: prefix + "publicNetwork",
      value: show(publicNetwork),
      allowed: `${String(publicNetwork)} belongs to protocol ${networkProtocol}, not ${String(protocol)}`,
    });
  }
  const effectiveProtocol = protocol ?? networkProtocol;
  if (type === "shared" && effectiveProtocol !== undefined && !allowsSharedNodes(effectiveProtocol)) {
    problems.push({
      field: prefix + "type",
      value: show(type),
      allowed: `shared nodes exist only for ${SHARED_PROTOCOLS.join(", ")}; ${
        protocol === undefined
          ? `${String(publicNetwork)} is a ${String(effectiveProtocol)} network, which`
          : `protocol ${String(protocol)}`
      } has dedicated nodes only`,
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

/** Checks the fields of a network update; `undefined` fields are not sent, not checked. */
export function validateNetworkUpdate(update: { name?: unknown; project?: unknown }): Problem[] {
  return [
    update.name === undefined ? undefined : checkNetworkName("name", update.name),
    update.project === undefined ? undefined : checkId("project", "project", update.project),
  ].filter((p): p is Problem => p !== undefined);
}
