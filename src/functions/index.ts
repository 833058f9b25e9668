export * from "./get-node";
export * from "./get-nodes";
export * from "./node-result";
export * from "./mask";
export * from "./wait";
