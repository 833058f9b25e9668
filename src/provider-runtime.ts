/** The dynamic providers' implementation, loaded by the provider process at call time. */
export * from "./resources/provider-runtime";
