/** Every allowed value and rule of the service's interface, in one place: pure, no I/O. */
export * from "./chains";
export * from "./enums";
export * from "./faucet";
export * from "./filters";
export * from "./ids";
export * from "./node-fields";
export * from "./problems";
export * from "./protocols";
export * from "./rules";
export * from "./wire";
