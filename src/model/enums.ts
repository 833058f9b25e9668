/** Node types (spec 2.1). `shared` is allowed only on {@link SHARED_PROTOCOLS}. */
export const NODE_TYPES = ["shared", "dedicated"] as const;
/** A node type. */
export type NodeType = (typeof NODE_TYPES)[number];

/** Node roles (spec 2.1): `peer` is the only value. */
export const NODE_ROLES = ["peer"] as const;
/** A node role. */
export type NodeRole = (typeof NODE_ROLES)[number];

/** Node statuses (spec 3). */
export const NODE_STATUSES = [
  "pending",
  "running",
  "maintenance",
  "failed",
  "error",
  "stopping",
  "stopped",
  "starting",
] as const;
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
