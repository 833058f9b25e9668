/**
 * Every allowed value and rule of the service's interface, in one place: pure, no I/O.
 * The API client, the Pulumi resources' `check` and the emulator all read these tables.
 */
export * from "./own";
export * from "./problems";
export * from "./protocols";
export * from "./infrastructure";
export * from "./enums";
export * from "./ids";
export * from "./filters";
export * from "./rules";
export * from "./address";
export * from "./wire";
