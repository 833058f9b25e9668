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
// The client and the allowed values, as `pulumi-blockchain-nodes/client` has them.
export * from "./client";
