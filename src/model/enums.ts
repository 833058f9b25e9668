import { ownValue } from "./problems";

/** Node types (spec 2.1). `shared` is allowed only on {@link SHARED_PROTOCOLS}. */
export const NODE_TYPES = ["shared", "dedicated"] as const;
/** A node type. */
export type NodeType = (typeof NODE_TYPES)[number];

/** Node roles (spec 2.1): `peer` is the only value. */
export const NODE_ROLES = ["peer"] as const;
/** A node role. */
export type NodeRole = (typeof NODE_ROLES)[number];

/** Node statuses (spec 3). */
// prettier-ignore
export const NODE_STATUSES = ["pending", "running", "maintenance", "failed", "error", "stopping", "stopped", "starting"] as const;
/** A node status. */
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** Network statuses (spec 3). */
export const NETWORK_STATUSES = [
  "pending",
  "ok",
  "failed",
  "warning",
  "stopping",
  "stopped",
  "starting",
] as const;
/** A network status. */
export type NetworkStatus = (typeof NETWORK_STATUSES)[number];

/** Project types (spec 2.2): `public` is the one shown. */
export const PROJECT_TYPES = ["public"] as const;
/** A project type. */
export type ProjectType = (typeof PROJECT_TYPES)[number];

/**
 * Values of the `order_by` query (spec 4.1): `name` or `created_at`, ascending, or with `-` for
 * descending order.
 */
export const ORDER_BY_VALUES = ["name", "-name", "created_at", "-created_at"] as const;
/** An ordering value. */
export type OrderBy = (typeof ORDER_BY_VALUES)[number];

/** Cloud providers and the regions each offers (spec 2.1). */
export const PROVIDER_REGIONS = {
  gcloud: ["asia-southeast1"],
  aws: ["ap-southeast-1", "us-west-2", "us-east-1"],
  azure: ["uksouth"],
  vzo: ["eu3"],
} as const;

/** The regions a provider offers, or `undefined` for anything that is not a provider. */
export function regionsOf(provider: unknown): readonly Region[] | undefined {
  return ownValue(PROVIDER_REGIONS, provider);
}

/** A cloud provider value, e.g. `aws`. */
export type CloudProvider = keyof typeof PROVIDER_REGIONS;

/** All cloud providers, in the spec's order. */
export const PROVIDERS = ["aws", "azure", "gcloud", "vzo"] as const satisfies readonly CloudProvider[];

/** A region value, e.g. `us-east-1`. */
export type Region = (typeof PROVIDER_REGIONS)[CloudProvider][number];

/** All regions, in the spec's order. */
// prettier-ignore
export const REGIONS = ["asia-southeast1", "ap-southeast-1", "us-west-2", "us-east-1", "uksouth", "eu3"] as const satisfies readonly Region[];

/** Every allowed provider/region pair. */
export const PROVIDER_REGION_PAIRS: ReadonlyArray<{ provider: CloudProvider; region: Region }> =
  PROVIDERS.flatMap((provider) => PROVIDER_REGIONS[provider].map((region: Region) => ({ provider, region })));
