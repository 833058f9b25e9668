/**
 * The typed HTTP client of the blockchain node service: the only code that speaks HTTP.
 * No Pulumi imports here.
 */
export * from "./types";
export * from "./defaults";
export * from "./errors";
export { invalidInput, problemsToFields } from "./validation";
export * from "./redact";
export * from "./retry";
export * from "./rate-limiter";
export * from "./url";
export * from "./mapping";
export * from "./pagination";
export * from "./transport";
export { request } from "./request";
export { mapResponse, invalidResponse } from "./map-response";
export * from "./client";
export { nodeQuery, type ListAllOptions, type ListOptions } from "./nodes";
