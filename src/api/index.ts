/**
 * The typed HTTP client of the blockchain node service: the only code that speaks HTTP.
 * No Pulumi imports here. Named exports only: what the other layers and the package's users need.
 */
// The client, its options and defaults.
export { NodeServiceClient } from "./client";
export type { NodeServiceClientOptions, RetryOptions } from "./options";
export type { ListAllOptions, ListOptions } from "./nodes";
export type { FetchInitLike, FetchLike, FetchResponseLike, RetryWait } from "./transport";
export {
  DEFAULT_DEADLINE_MS,
  DEFAULT_LIST_DEADLINE_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES_LIMIT,
  MAX_TIMER_MS,
  defaultSleep,
} from "./defaults";

// Its errors.
export {
  ApiError,
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
  isApiError,
  type ApiErrorInit,
  type ApiErrorKind,
} from "./errors";
export { invalidInput } from "./errors";

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
} from "./types";
export { compact } from "./mapping";

// Checks and redaction that the other layers apply to their own inputs and messages.
export { checkApiUrl } from "./url";
export { guardInputValue, maskUrlCredentials, redact, type MaskUrlOptions, type Redactor } from "./redact";

export { NODE_CREDENTIAL_FIELDS, NODE_ENDPOINT_FIELDS, NODE_SECRET_FIELDS } from "../model";
