/** Every allowed value and rule of the service's interface, in one place: pure, no I/O. */
export * from "./node-fields";
export * from "./rules";
export * from "./values";
export * from "./wire";
