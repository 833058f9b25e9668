/** The data-source functions: look up nodes, endpoints and credentials as secret Outputs. */
export { getNode, getNodeOutput } from "./get-node";
export type { GetNodeArgs, GetNodeOutputArgs } from "./get-node";
export { getNodes, getNodesOutput } from "./get-nodes";
export type { GetNodesArgs, GetNodesOutputArgs } from "./get-nodes";
export type { NodeResult } from "./node-result";
export type { WaitFor } from "./wait";
