/** Where the API URL and key come from (arguments > stack config > environment), {@link withClient}, and the errors' Pulumi wording. */
import { createHash } from "node:crypto";
import { isApiError, NodeServiceClient, type NodeServiceClientOptions, type RetryWait } from "../api";
import {
  CALL_SETTING_NAMES,
  callSettingHint,
  CONFIG_API_KEY,
  configKey,
  ConfigReader,
  ConnectionArgs,
  FoundSetting,
  pick,
  resolveCallSettings,
  SETTINGS,
  settingValue,
  SettingsError,
  SettingSource,
  UNKNOWN,
} from "./sources";

export * from "./sources";

/** The resolved connection settings. */
export interface Settings {
  apiUrl: string;
  apiKey: string;
  /** Where each value came from, for messages (never the values themselves). */
  sources: { apiUrl: SettingSource; apiKey: SettingSource };
}

/** Finds the API URL and key without checking them; each missing when no source has a non-blank string. */
export function findSettings(explicit: ConnectionArgs = {}, config?: ConfigReader, env = process.env) {
  return {
    apiUrl: pick("apiUrl", explicit.apiUrl, config, env),
    apiKey: pick("apiKey", explicit.apiKey, config, env),
  };
}

/** The message of a missing API URL: the command that sets it. */
export const MISSING_API_URL = `No API URL for the blockchain node service. Set it with \`pulumi config set ${configKey("apiUrl")} https://<api host>\`.`;

/** The message of a missing API key: the command that sets it. */
export const MISSING_API_KEY = `No API key for the blockchain node service. Set it with \`pulumi config set --secret ${CONFIG_API_KEY} <key>\`.`;

/** Resolves the API URL and key (arguments > stack config > environment); a `SettingsError` says how to set one missing. */
export function resolveSettings(explicit: ConnectionArgs = {}, config?: ConfigReader, env = process.env) {
  const wrong = (["apiUrl", "apiKey"] as const).filter(
    (n) => explicit[n] != null && typeof explicit[n] !== "string",
  );
  if (wrong.length > 0) {
    const as = (v: unknown) => (Array.isArray(v) ? "an array" : typeof v);
    throw new SettingsError(
      wrong.map((n) => `${n} was given as ${as(explicit[n])}; pass a string.`).join("\n"),
    );
  }
  const { apiUrl: url, apiKey: key } = findSettings(explicit, config, env);
  if (!url || !key)
    throw new SettingsError([url ? [] : MISSING_API_URL, key ? [] : MISSING_API_KEY].flat().join("\n"));
  const sources = { apiUrl: url.source, apiKey: key.source };
  return { apiUrl: url.value, apiKey: key.value, sources } satisfies Settings;
}

/** Where a setting came from and the one way to replace it there (`overrides`: stack config hides the environment's). */
export function settingFix(
  setting: "apiUrl" | "apiKey",
  source: SettingSource,
  overrides = false,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const [key, envName] = [configKey(setting), SETTINGS[setting].env];
  const set =
    setting === "apiKey"
      ? `pulumi config set --secret ${key} <key>`
      : `pulumi config set ${key} https://<api host>`;
  if (source === "argument")
    return `it came from the ${setting} argument: pass the right ${setting === "apiKey" ? "key (as a secret)" : "URL"}`;
  if (source === "environment") {
    // A CI job's environment comes from its pipeline's secrets and variables, not from a shell.
    return env.CI && env.CI !== "false"
      ? `it came from the environment variable ${envName}: update the CI secret or variable that sets it for this job`
      : `it came from the environment variable ${envName}: export the right one`;
  }
  return overrides
    ? `it came from stack config ${key}, which overrides the environment variable ${envName} (also set): to use ${envName}, run \`pulumi config rm ${key}\``
    : `it came from stack config ${key}: set the right one with \`${set}\``;
}

/** Whether the API key `found` comes from stack config while the environment holds another one. */
export function overridesEnvKey(found: FoundSetting | undefined, env = process.env): boolean {
  const fromEnv = settingValue(env[SETTINGS.apiKey.env]);
  return found?.source === "stack config" && fromEnv !== undefined && fromEnv !== found.value;
}

/** Reason of a `check` failure for an `apiUrl` argument that is given but blank. */
export const BLANK_API_URL_REASON =
  "the API URL is empty: leave apiUrl out to use the stack config's or the environment's";

/** Appends `hint` to the message (and stack) of `error`, keeping the error itself. */
export function appendHint<E extends Error>(error: E, hint: string): E {
  const before = error.message;
  error.message = `${before}\n${hint}`;
  if (typeof error.stack === "string") error.stack = error.stack.replace(before, () => error.message);
  return error;
}

/** A refused key (401) says where it came from and how to set it there; a timeout names the call settings. */
export function withSettingHints(error: unknown, sources: Settings["sources"], overrides = false): unknown {
  if (isApiError(error) && error.kind === "unauthorized") {
    return appendHint(error, `The API key was refused; ${settingFix("apiKey", sources.apiKey, overrides)}.`);
  }
  if (isApiError(error) && error.limit) return appendHint(error, callSettingHint(error.limit));
  return error;
}

let waitReporter: ((event: RetryWait) => void) | undefined;

/** Where every client of {@link withClient} reports a wait between two attempts (a host sets it). */
export function setWaitReporter(reporter: ((event: RetryWait) => void) | undefined): void {
  waitReporter = reporter;
}

const reportWait: NodeServiceClientOptions["onWait"] = (event) => waitReporter?.(event);

/** The settings of one call, found and checked once: the URL and key with their sources, and the call's limits. */
export interface CallSettings extends Settings {
  limits: ReturnType<typeof resolveCallSettings>;
  /** The key comes from stack config while the environment holds another one. */
  overrides: boolean;
}

/** The one resolution of a call's settings (arguments > stack config > environment); a `SettingsError` when refused. */
export function resolveCall(args: ConnectionArgs, config: ConfigReader | undefined): CallSettings {
  const known = (value: unknown) => (value === UNKNOWN ? undefined : (value as string | undefined));
  const settings = resolveSettings({ apiUrl: known(args.apiUrl), apiKey: known(args.apiKey) }, config);
  const limits = resolveCallSettings(args, config);
  const overrides = overridesEnvKey({ value: settings.apiKey, source: settings.sources.apiKey });
  return { ...settings, limits, overrides };
}

/** A digest of a call's settings: equal for equal settings, and no credential kept as text. */
export function settingsDigest(settings: CallSettings): string {
  const { apiUrl, apiKey, limits } = settings;
  const text = JSON.stringify([apiUrl, apiKey, ...CALL_SETTING_NAMES.map((n) => limits[n] ?? null)]);
  return createHash("sha256").update(text).digest("hex");
}

/** The clients of the process by {@link settingsDigest}: one per URL, key and limits. */
const clients = new Map<string, NodeServiceClient>();

/**
 * The one path from a call's settings to a client (one per URL, key and limits, so the engine's parallel
 * operations share its limiter); a refused key fails with the hint that fits.
 */
export async function withClient<T>(
  args: ConnectionArgs | CallSettings,
  config: ConfigReader | undefined,
  use: (client: NodeServiceClient) => Promise<T>,
): Promise<T> {
  const settings = "limits" in args ? args : resolveCall(args, config);
  const { apiUrl, apiKey, limits } = settings;
  const cacheKey = settingsDigest(settings);
  let client = clients.get(cacheKey);
  if (!client) {
    const { timeoutMs, deadlineMs, maxRetries } = limits;
    // A limit not set is left to the client's default.
    const retry = maxRetries === undefined ? undefined : { maxRetries };
    client = new NodeServiceClient({ apiUrl, apiKey, timeoutMs, deadlineMs, retry, onWait: reportWait });
    clients.set(cacheKey, client);
  }
  try {
    return await use(client);
  } catch (error) {
    throw withSettingHints(error, settings.sources, settings.overrides);
  }
}
