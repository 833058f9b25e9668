export * from "./network";
export * from "./faucet-drip";
