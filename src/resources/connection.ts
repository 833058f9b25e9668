import type { NodeServiceClient } from "../api";
import { ConfigReader, ExplicitSettings, resolveSettings, sharedClient } from "../settings";
import { UNKNOWN } from "./unknown";

/**
 * Connection settings as the dynamic providers see them: the stack config handed to
 * `configure(req)` (kept in this module of the provider process, never serialized) and the
 * environment at call time. Explicit `apiUrl`/`apiKey` inputs of a resource come first.
 */
let providerConfig: ConfigReader | undefined;

/** Stores the reader of the stack config handed to a dynamic provider's `configure`. */
export function setProviderConfig(reader: ConfigReader | undefined): void {
  providerConfig = reader;
}

/**
 * Returns a client for the resolved settings, one per URL and key in this process so that the
 * client's rate limiter is shared by every operation the engine runs in parallel.
 */
export function clientFor(explicit: ExplicitSettings): NodeServiceClient {
  const clean = {
    apiUrl: explicit.apiUrl === UNKNOWN ? undefined : explicit.apiUrl,
    apiKey: explicit.apiKey === UNKNOWN ? undefined : explicit.apiKey,
  };
  return sharedClient(resolveSettings(clean, providerConfig));
}
