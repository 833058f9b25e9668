import { isApiError, NodeServiceClient } from "./api";

/**
 * Where the service's API URL and key come from, in order:
 * 1. explicit resource or function arguments (`apiUrl`, `apiKey`),
 * 2. stack configuration `blockchain:apiUrl` and `blockchain:apiKey` (set the key with
 *    `pulumi config set --secret blockchain:apiKey <key>`),
 * 3. the environment variables `BLOCKCHAIN_API_URL` and `BLOCKCHAIN_API_KEY`.
 *
 * No Pulumi import here: callers pass a config reader, so the same rules serve the program
 * (which reads `pulumi.Config`) and the dynamic providers (which read `configure(req)` config).
 * {@link withClient} is the one way from arguments to a client; the Pulumi wording of errors
 * (which command sets what) lives here too, since only this layer knows where a setting came from.
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

/**
 * The value the engine sends for an input that is not known yet (during preview). It is the
 * same constant as `@pulumi/pulumi`'s internal `unknownValue`; kept here so the provider runtime
 * does not load the Pulumi SDK.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Reads a full configuration key such as `blockchain:apiKey`; undefined when not set. */
export type ConfigReader = (fullKey: string) => string | undefined;

/** Where a setting was found. */
export type SettingSource = "argument" | "stack config" | "environment";

/** Connection arguments every resource and function accepts. */
export interface ConnectionArgs {
  /** API URL; defaults to stack config `blockchain:apiUrl`, then `BLOCKCHAIN_API_URL`. */
  apiUrl?: string;
  /** API key; defaults to stack config `blockchain:apiKey`, then `BLOCKCHAIN_API_KEY`. */
  apiKey?: string;
}

/** The resolved connection settings. */
export interface Settings {
  apiUrl: string;
  apiKey: string;
  /** Where each value came from, for messages (never the values themselves). */
  sources: { apiUrl: SettingSource; apiKey: SettingSource };
}

/** A setting is missing: the message says exactly how to set it. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

/**
 * The value of a setting: a string that is not blank, trimmed; `undefined` for anything else
 * (not given, empty, only whitespace, not a string). The one emptiness rule of the settings.
 */
export function settingValue(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** A setting's value and where it was found. */
export interface FoundSetting {
  value: string;
  source: SettingSource;
}

function pick(
  explicit: unknown,
  config: ConfigReader | undefined,
  key: string,
  env: NodeJS.ProcessEnv,
  envName: string,
): FoundSetting | undefined {
  const fromArg = settingValue(explicit);
  if (fromArg) return { value: fromArg, source: "argument" };
  const fromConfig = settingValue(config?.(key));
  if (fromConfig) return { value: fromConfig, source: "stack config" };
  const fromEnv = settingValue(env[envName]);
  if (fromEnv) return { value: fromEnv, source: "environment" };
  return undefined;
}

/**
 * Finds the API URL and key (arguments > stack config > environment) without checking them:
 * each is missing when no source has a non-blank string. Arguments that are not strings count as
 * not given here; {@link resolveSettings} refuses them.
 */
export function findSettings(
  explicit: ConnectionArgs = {},
  config?: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
): { apiUrl?: FoundSetting; apiKey?: FoundSetting } {
  return {
    apiUrl: pick(explicit.apiUrl, config, CONFIG_API_URL, env, ENV_API_URL),
    apiKey: pick(explicit.apiKey, config, CONFIG_API_KEY, env, ENV_API_KEY),
  };
}

/** The message of a missing API URL: the exact ways to set it. */
export const MISSING_API_URL =
  `No API URL for the blockchain node service. Set it with \`pulumi config set ${CONFIG_API_URL} https://<api host>\`, ` +
  `or export ${ENV_API_URL}=https://<api host>, or pass apiUrl.`;

/** The message of a missing API key: the exact ways to set it. */
export const MISSING_API_KEY =
  `No API key for the blockchain node service. Set it with \`pulumi config set --secret ${CONFIG_API_KEY} <key>\`, ` +
  `or export ${ENV_API_KEY}=<key>, or pass apiKey as a secret.`;

/**
 * Resolves the API URL and key (arguments > stack config > environment).
 * @throws SettingsError naming the exact command that sets what is missing.
 */
export function resolveSettings(
  explicit: ConnectionArgs = {},
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
  const { apiUrl: url, apiKey: key } = findSettings(explicit, config, env);
  if (!url) missing.push(MISSING_API_URL);
  if (!key) missing.push(MISSING_API_KEY);
  if (!url || !key) throw new SettingsError(missing.join("\n"));
  return { apiUrl: url.value, apiKey: key.value, sources: { apiUrl: url.source, apiKey: key.source } };
}

/** Where each source of the API key is, and how to replace the key there. */
const API_KEY_FIXES: Record<SettingSource, string> = {
  argument: "it came from the apiKey argument: pass the right key (as a secret)",
  "stack config": `it came from stack config ${CONFIG_API_KEY}: set the right one with \`pulumi config set --secret ${CONFIG_API_KEY} <key>\``,
  environment:
    `it came from the environment variable ${ENV_API_KEY}: export the right one, ` +
    `or set it in the stack with \`pulumi config set --secret ${CONFIG_API_KEY} <key>\` (stack config comes first)`,
};

/** Where each source of the API URL is, and how to replace the URL there. */
const API_URL_FIXES: Record<SettingSource, string> = {
  argument: "it came from the apiUrl argument: pass the right URL",
  "stack config": `it came from stack config ${CONFIG_API_URL}: set the right one with \`pulumi config set ${CONFIG_API_URL} https://<api host>\``,
  environment:
    `it came from the environment variable ${ENV_API_URL}: export the right one, ` +
    `or set it in the stack with \`pulumi config set ${CONFIG_API_URL} https://<api host>\` (stack config comes first)`,
};

/**
 * Where a setting came from and the exact way to replace it there, e.g. "it came from stack
 * config blockchain:apiUrl: set the right one with `pulumi config set blockchain:apiUrl …`".
 */
export function settingFix(setting: "apiUrl" | "apiKey", source: SettingSource): string {
  return (setting === "apiUrl" ? API_URL_FIXES : API_KEY_FIXES)[source];
}

/** Reason of a `check` failure for an `apiUrl` argument that is given but blank. */
export const BLANK_API_URL_REASON =
  `the API URL is empty: pass it, or leave apiUrl out to use \`pulumi config set ${CONFIG_API_URL} https://<api host>\` ` +
  `or ${ENV_API_URL}`;

/**
 * Appends `hint` to the message of `error` (and to the message line of its stack), keeping the
 * error itself: its class, `kind`, `code` and every other field stay as they are.
 */
function appendHint<E extends Error>(error: E, hint: string): E {
  const before = error.message;
  const after = `${before}\n${hint}`;
  error.message = after;
  if (typeof error.stack === "string" && error.stack.includes(before)) {
    error.stack = error.stack.replace(before, () => after);
  }
  return error;
}

/**
 * Adds the Pulumi wording to an error of the client: a refused API key (401) says where the key
 * came from and the exact way to set the right one there. Other errors are returned as they are.
 */
export function withSettingHints(error: unknown, sources: Settings["sources"]): unknown {
  if (isApiError(error) && error.kind === "unauthorized") {
    return appendHint(error, `The API key was refused; ${API_KEY_FIXES[sources.apiKey]}.`);
  }
  return error;
}

const clients = new Map<string, NodeServiceClient>();

/**
 * The one path from connection arguments to a client: drops arguments not known yet
 * ({@link UNKNOWN}, during preview), resolves the settings (arguments > stack config `config` >
 * environment), takes the client of this URL and key (one per process, so its rate limiter is
 * shared by every operation the engine runs in parallel), and runs `use` with it. A refused key
 * fails with the hint that fits where the key came from ({@link withSettingHints}).
 * @throws SettingsError when a setting is missing or not a string; whatever `use` throws.
 */
export async function withClient<T>(
  args: ConnectionArgs,
  config: ConfigReader | undefined,
  use: (client: NodeServiceClient) => Promise<T>,
): Promise<T> {
  const known = (value: unknown) => (value === UNKNOWN ? undefined : (value as string | undefined));
  const settings = resolveSettings({ apiUrl: known(args.apiUrl), apiKey: known(args.apiKey) }, config);
  const cacheKey = `${settings.apiUrl}\u0000${settings.apiKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new NodeServiceClient({ apiUrl: settings.apiUrl, apiKey: settings.apiKey });
    clients.set(cacheKey, client);
  }
  try {
    return await use(client);
  } catch (error) {
    throw withSettingHints(error, settings.sources);
  }
}
