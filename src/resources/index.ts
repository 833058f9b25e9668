/** The dynamic resources: adopt and manage networks, request test tokens. */
export { Network } from "./network";
export type { NetworkArgs } from "./network";
export { FaucetDrip } from "./faucet-drip";
export type { FaucetDripArgs } from "./faucet-drip";
export type { FaucetOutcome } from "../provider";
