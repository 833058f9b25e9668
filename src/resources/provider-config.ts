import type { ConfigReader } from "../settings";

/**
 * The dynamic providers' config reader: the stack config handed to `configure(req)`, kept in
 * this module of the provider process (read at call time, never serialized).
 */
let providerConfig: ConfigReader | undefined;

/** Stores the reader of the stack config handed to a dynamic provider's `configure`. */
export function setProviderConfig(reader: ConfigReader | undefined): void {
  providerConfig = reader;
}

/** Reads a full key (`blockchain:apiKey`) of the stack config handed to `configure`; undefined before it. */
export const readProviderConfig: ConfigReader = (fullKey) => providerConfig?.(fullKey);
