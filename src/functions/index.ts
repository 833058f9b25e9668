/**
 * The data-source functions: node metadata, readable (`getNode`, `getNodes` and their Output
 * forms), and node endpoints and credentials, secret as a whole (`getNodeConnectionsOutput`).
 */
export { getNode, getNodeOutput } from "./get-node";
export type { GetNodeArgs, GetNodeOutputArgs } from "./get-node";
export { getNodes, getNodesOutput } from "./get-nodes";
export type { GetNodesArgs, GetNodesOutputArgs } from "./get-nodes";
export { getNodeConnectionsOutput } from "./get-node-connections";
export type { GetNodeConnectionsArgs, GetNodeConnectionsOutputArgs } from "./get-node-connections";
export type { NodeFilterArgs } from "./filters";
export type { NodeConnection, NodeResult, NodeWithConnection } from "../api";
export type { WaitFor } from "./wait";
