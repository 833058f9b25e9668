/**
 * pulumi-blockchain-nodes/client: the typed client of the blockchain node service alone, for
 * scripts and tools that never touch Pulumi. It loads no `@pulumi/*` module (the main entry
 * loads the Pulumi SDK, about a second and 70 MB more on a small machine), only the client, its
 * options, its errors, the service's objects and its allowed values.
 *
 * ```ts
 * import { NodeServiceClient, isApiError } from "pulumi-blockchain-nodes/client";
 * ```
 *
 * The same classes and types are exported by the main entry: an error thrown by a client from
 * either entry is an `instanceof` of the error classes of both (one copy of the code).
 */
// The client and its options.
export { NodeServiceClient } from "./api";
export type {
  FetchInitLike,
  FetchLike,
  FetchResponseLike,
  ListAllOptions,
  ListOptions,
  NodeServiceClientOptions,
  RetryOptions,
  RetryWait,
} from "./api";

// Its errors.
export {
  ApiError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidResponseError,
  isApiError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
  type ApiErrorKind,
} from "./api";

// The service's objects, camelCase.
export type {
  Creator,
  DeleteResult,
  FaucetResult,
  NetworkInfo,
  NetworkUpdate,
  Node,
  NodeDetails,
  NodeFilters,
} from "./api";

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
