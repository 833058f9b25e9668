import { NodeServiceClient } from "./api";

/**
 * Where the service's API URL and key come from, in order:
 * 1. explicit resource or function arguments (`apiUrl`, `apiKey`),
 * 2. stack configuration `blockchain:apiUrl` and `blockchain:apiKey` (set the key with
 *    `pulumi config set --secret blockchain:apiKey <key>`),
 * 3. the environment variables `BLOCKCHAIN_API_URL` and `BLOCKCHAIN_API_KEY`.
 *
 * No Pulumi import here: callers pass a config reader, so the same rules serve the program
 * (which reads `pulumi.Config`) and the dynamic providers (which read `configure(req)` config).
 */

/** The stack configuration namespace. */
export const CONFIG_NAMESPACE = "blockchain";
/** Full stack configuration key of the API URL. */
export const CONFIG_API_URL = `${CONFIG_NAMESPACE}:apiUrl`;
/** Full stack configuration key of the API key. */
export const CONFIG_API_KEY = `${CONFIG_NAMESPACE}:apiKey`;
/** Environment variable holding the API URL. */
export const ENV_API_URL = "BLOCKCHAIN_API_URL";
/** Environment variable holding the API key. */
export const ENV_API_KEY = "BLOCKCHAIN_API_KEY";

/** Reads a full configuration key such as `blockchain:apiKey`; undefined when not set. */
export type ConfigReader = (fullKey: string) => string | undefined;

/** Where a setting was found. */
export type SettingSource = "argument" | "stack config" | "environment";

/** The resolved connection settings. */
export interface Settings {
  apiUrl: string;
  apiKey: string;
  /** Where each value came from, for messages (never the values themselves). */
  sources: { apiUrl: SettingSource; apiKey: SettingSource };
}

/** What a caller may pass explicitly. */
export interface ExplicitSettings {
  apiUrl?: string;
  apiKey?: string;
}

/** A setting is missing: the message says exactly how to set it. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function pick(
  explicit: string | undefined,
  config: ConfigReader | undefined,
  key: string,
  env: NodeJS.ProcessEnv,
  envName: string,
): { value: string; source: SettingSource } | undefined {
  const fromArg = nonEmpty(explicit);
  if (fromArg) return { value: fromArg, source: "argument" };
  const fromConfig = nonEmpty(config?.(key));
  if (fromConfig) return { value: fromConfig, source: "stack config" };
  const fromEnv = nonEmpty(env[envName]);
  if (fromEnv) return { value: fromEnv, source: "environment" };
  return undefined;
}

/**
 * Resolves the API URL and key (arguments > stack config > environment).
 * @throws SettingsError naming the exact command that sets what is missing.
 */
export function resolveSettings(
  explicit: ExplicitSettings = {},
  config?: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  const missing: string[] = [];
  for (const [name, value] of [
    ["apiUrl", explicit.apiUrl],
    ["apiKey", explicit.apiKey],
  ] as const) {
    if (value !== undefined && value !== null && typeof value !== "string") {
      missing.push(
        `${name} was given as ${Array.isArray(value) ? "an array" : typeof value}; pass a string.`,
      );
    }
  }
  if (missing.length > 0) throw new SettingsError(missing.join("\n"));
  const url = pick(explicit.apiUrl, config, CONFIG_API_URL, env, ENV_API_URL);
  const key = pick(explicit.apiKey, config, CONFIG_API_KEY, env, ENV_API_KEY);
  if (!url) {
    missing.push(
      `No API URL for the blockchain node service. Set it with \`pulumi config set ${CONFIG_API_URL} https://<api host>\`, ` +
        `or export ${ENV_API_URL}=https://<api host>, or pass apiUrl.`,
    );
  }
  if (!key) {
    missing.push(
      `No API key for the blockchain node service. Set it with \`pulumi config set --secret ${CONFIG_API_KEY} <key>\`, ` +
        `or export ${ENV_API_KEY}=<key>, or pass apiKey as a secret.`,
    );
  }
  if (!url || !key) throw new SettingsError(missing.join("\n"));
  return { apiUrl: url.value, apiKey: key.value, sources: { apiUrl: url.source, apiKey: key.source } };
}

const clients = new Map<string, NodeServiceClient>();

/**
 * One client per API URL and key in this process, so that its rate limiter is shared by every
 * operation that runs in parallel (the engine runs resource operations concurrently).
 */
export function sharedClient(settings: Pick<Settings, "apiUrl" | "apiKey">): NodeServiceClient {
  const cacheKey = `${settings.apiUrl}\u0000${settings.apiKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new NodeServiceClient({ apiUrl: settings.apiUrl, apiKey: settings.apiKey });
    clients.set(cacheKey, client);
  }
  return client;
}
