/** The dynamic providers' implementation, loaded by the provider process at call time. */
export { configure, faucetDrip, network } from "./resources/provider-runtime";
