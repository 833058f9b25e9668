/**
 * The typed HTTP client of the blockchain node service: the only code that speaks HTTP, with no
 * Pulumi imports. Named exports only: what the other layers and the package's users need.
 */
export * from "./client";
export {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES_LIMIT,
  MAX_TIMER_MS,
  abortEveryRequest,
  defaultSleep,
} from "./options";
export { invalidInput } from "./errors";
export {
  EndpointCheckError,
  MAX_CHECKS_IN_FLIGHT,
  normalizeChainId,
  quoteFromNode,
  readChainHead,
  type ChainHead,
} from "./node-check";

// Checks and redaction the other layers apply to their own inputs and messages.
export { checkApiUrl } from "./url";
export { guardInputValue, maskUrlCredentials, redact } from "./redact";
export { NODE_CREDENTIAL_FIELDS, NODE_ENDPOINT_FIELDS, NODE_SECRET_FIELDS } from "../model";
