/**
 * pulumi-blockchain-nodes: manage the networks of a hosted blockchain node service and look up its
 * nodes from Pulumi programs, every endpoint and credential kept secret. Each name is documented where defined.
 */
export { FaucetDrip, Network } from "./resources";
export type { FaucetDripArgs, FaucetOutcome, NetworkArgs } from "./resources";
export { getNode, getNodeConnectionsOutput, getNodeOutput, getNodes, getNodesOutput } from "./functions";
export type {
  GetNodeArgs,
  GetNodeConnectionsArgs,
  GetNodeConnectionsOutputArgs,
  GetNodeOutputArgs,
  GetNodesArgs,
  GetNodesOutputArgs,
  NodeConnection,
  NodeFilterArgs,
  NodeResult,
  NodeWithConnection,
  WaitFor,
} from "./functions";
export { SettingsError } from "./settings";
export type { ConnectionArgs } from "./settings";
export {
  ApiError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidResponseError,
  isApiError,
  NetworkError,
  NodeServiceClient,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
} from "./api";
export type {
  ApiErrorKind,
  Creator,
  DeleteResult,
  FaucetResult,
  NetworkInfo,
  NetworkUpdate,
  Node,
  NodeDetails,
  NodeFilters,
  NodeServiceClientOptions,
  RetryOptions,
  RetryWait,
} from "./api";
// Each allowed-value list beside the type of its values.
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
