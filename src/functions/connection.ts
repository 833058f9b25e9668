import * as pulumi from "@pulumi/pulumi";
import type { NodeServiceClient } from "../api";
import { CONFIG_NAMESPACE, resolveSettings, sharedClient } from "../settings";

/** Connection arguments every function accepts. */
export interface ConnectionArgs {
  /** API URL; defaults to stack config `blockchain:apiUrl`, then `BLOCKCHAIN_API_URL`. */
  apiUrl?: string;
  /** API key; defaults to stack config `blockchain:apiKey`, then `BLOCKCHAIN_API_KEY`. */
  apiKey?: string;
}

function readStackConfig(fullKey: string): string | undefined {
  const [namespace, key] = fullKey.split(":");
  try {
    return new pulumi.Config(namespace).get(key);
  } catch {
    return undefined;
  }
}

/** A client for the program process (args > stack config `blockchain:*` > environment), one per URL and key. */
export function programClient(args: ConnectionArgs): NodeServiceClient {
  const settings = resolveSettings(args, (key) =>
    key.startsWith(`${CONFIG_NAMESPACE}:`) ? readStackConfig(key) : undefined,
  );
  return sharedClient(settings);
}
