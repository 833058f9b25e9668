/**
 * pulumi-blockchain-nodes: manage the networks of a hosted blockchain node service and look up
 * its nodes from Pulumi programs, with every endpoint and credential kept secret.
 */
export * from "./resources";
export * from "./functions";
export { NodeServiceClient } from "./api/client";
export type { NodeServiceClientOptions } from "./api/client";
export * from "./api/errors";
export type {
  Node,
  Network as NetworkInfo,
  NodeDetails,
  NodeFilters,
  NetworkUpdate,
  Creator,
  DeleteResult,
  FaucetResult,
} from "./api/types";
export {
  resolveSettings,
  SettingsError,
  CONFIG_API_KEY,
  CONFIG_API_URL,
  ENV_API_KEY,
  ENV_API_URL,
} from "./settings";
export * as model from "./model";
