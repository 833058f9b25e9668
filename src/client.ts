/**
 * pulumi-blockchain-nodes/client: the service's typed client alone, loading no `@pulumi/*` module;
 * the same classes as the main entry's (one copy: `instanceof` holds across both).
 */
export * from "./api/client";
// The service's allowed values: each list beside the type of its values.
export {
  PROTOCOLS,
  type Protocol,
  PUBLIC_NETWORK_NAMES,
  type PublicNetwork,
  PROVIDERS,
  type CloudProvider,
  REGIONS,
  type Region,
  NODE_TYPES,
  type NodeType,
  type NodeRole,
  NODE_STATUSES,
  type NodeStatus,
  NETWORK_STATUSES,
  type NetworkStatus,
  ORDER_BY_VALUES,
  type OrderBy,
  type ProjectType,
} from "./model";
