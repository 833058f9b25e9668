/** Where the API URL and key come from (arguments > stack config > environment), {@link withClient}, and the errors' Pulumi wording. */
import { createHash } from "node:crypto";
import {
  checkApiUrl,
  isApiError,
  NodeServiceClient,
  redact,
  type NodeServiceClientOptions,
  type RetryWait,
} from "../api";
import { MAX_API_KEY_LENGTH } from "../model";
import {
  CALL_SETTING_NAMES,
  callSettingHint,
  CallSettingArgs,
  CONFIG_API_KEY,
  configKey,
  ConfigReader,
  ConnectionArgs,
  FoundSetting,
  pick,
  readCallSettings,
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

/** The message of a missing API URL: the command that sets it. */
export const MISSING_API_URL = `No API URL for the blockchain node service. Set it with \`pulumi config set ${configKey("apiUrl")} https://<api host>\`.`;

/** The message of a missing API key: the command that sets it. */
export const MISSING_API_KEY = `No API key for the blockchain node service. Set it with \`pulumi config set --secret ${CONFIG_API_KEY} <key>\`.`;

/** Reason of a `check` failure for an `apiUrl` argument that is given but blank. */
export const BLANK_API_URL_REASON =
  "the API URL is empty: leave apiUrl out to use the stack config's or the environment's";

/** A setting refused: the argument it names (`""` when it came from stack config or the environment) and why. */
export interface SettingProblem {
  property: string;
  reason: string;
  /** No source sets it. */
  missing?: true;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The one reading of a call's settings (arguments > stack config > environment): every source read
 * once, every problem found, and the settings when there is none. `strict` (a `check`): a blank
 * argument is refused and the URL checked; otherwise a blank argument counts as not set and the
 * client checks the URL. An unknown argument (preview) leaves `settings` out.
 */
export function inspectCall(
  args: Record<string, unknown>,
  config: ConfigReader | undefined,
  env: NodeJS.ProcessEnv = process.env,
  strict = true,
): { problems: SettingProblem[]; settings?: CallSettings } {
  const problems: SettingProblem[] = [];
  const found: Partial<Record<"apiUrl" | "apiKey", FoundSetting>> = {};
  for (const name of ["apiUrl", "apiKey"] as const) {
    const arg = args[name];
    if (arg === UNKNOWN) continue;
    const given = arg !== undefined && arg !== null;
    if (given && (typeof arg !== "string" || (strict && settingValue(arg) === undefined))) {
      const as = Array.isArray(arg) ? "an array" : typeof arg;
      const reason =
        typeof arg === "string"
          ? name === "apiUrl"
            ? BLANK_API_URL_REASON
            : "apiKey: expected a non-empty string (pass it as a secret)"
          : `${name}: given as ${as}; pass a string${name === "apiKey" ? " (as a secret)" : ""}`;
      problems.push({ property: name, reason });
      continue;
    }
    const setting = pick(name, arg, config, env);
    if (setting) found[name] = setting;
    else
      problems.push({
        property: "",
        reason: name === "apiUrl" ? MISSING_API_URL : MISSING_API_KEY,
        missing: true,
      });
  }
  const { apiUrl: url, apiKey: key } = found;
  if (key?.source === "argument" && key.value.length > MAX_API_KEY_LENGTH) {
    const reason = `apiKey: a string of ${key.value.length} characters; expected at most ${MAX_API_KEY_LENGTH} (check how it was copied)`;
    problems.push({ property: "apiKey", reason });
  }
  const urlReason = strict && url ? checkApiUrl(url.value) : undefined;
  if (url && urlReason) {
    // A key pasted into the URL (or the two swapped) is never echoed back.
    const secrets = key ? [key.value] : typeof args.apiKey === "string" ? [args.apiKey] : [];
    const where = url.source === "environment" ? "the environment" : url.source;
    const text =
      url.source === "argument"
        ? urlReason
        : `The API URL from ${where} is refused: ${urlReason}. ${capitalize(settingFix("apiUrl", url.source, false, env))}.`;
    problems.push({ property: url.source === "argument" ? "apiUrl" : "", reason: redact(text, secrets) });
  }
  const limits = readCallSettings(args as CallSettingArgs, config, env);
  for (const p of limits.problems) {
    if (args[p.name] !== UNKNOWN)
      problems.push({ property: p.source === "argument" ? p.name : "", reason: p.reason });
  }
  if (problems.length > 0 || !url || !key) return { problems };
  const sources = { apiUrl: url.source, apiKey: key.source };
  const overrides = overridesEnvKey(key, env);
  return {
    problems,
    settings: { apiUrl: url.value, apiKey: key.value, sources, limits: limits.values, overrides },
  };
}

/** The API URL and key (arguments > stack config > environment); a `SettingsError` says how to set one missing. */
export function resolveSettings(explicit: ConnectionArgs = {}, config?: ConfigReader, env = process.env) {
  const { problems, settings } = inspectCall({ ...explicit }, config, env, false);
  if (!settings) throw new SettingsError(problems.map((p) => p.reason).join("\n"));
  return { apiUrl: settings.apiUrl, apiKey: settings.apiKey, sources: settings.sources } satisfies Settings;
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

/** Appends `hint` to the message (and stack) of `error`, keeping the error itself. */
export function appendHint<E extends Error>(error: E, hint: string): E {
  const before = error.message;
  error.message = `${before}\n${hint}`;
  if (typeof error.stack === "string") error.stack = error.stack.replace(before, () => error.message);
  return error;
}

/** A refused key (401) or an unreachable URL says where it came from and how to set it there; a timeout names the call setting. */
export function withSettingHints(error: unknown, sources: Settings["sources"], overrides = false): unknown {
  if (isApiError(error) && error.kind === "unauthorized") {
    return appendHint(error, `The API key was refused; ${settingFix("apiKey", sources.apiKey, overrides)}.`);
  }
  if (isApiError(error) && error.limit) return appendHint(error, callSettingHint(error.limit));
  // Nothing answered at the URL (refused, no such host): the URL is the setting to look at.
  if (isApiError(error) && error.kind === "network" && error.mayHaveBeenProcessed !== true)
    return appendHint(error, `The API URL ${settingFix("apiUrl", sources.apiUrl).replace(/^it /, "")}.`);
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
  limits: CallSettingArgs;
  /** The key comes from stack config while the environment holds another one. */
  overrides: boolean;
}

/** The one resolution of a call's settings (arguments > stack config > environment); a `SettingsError` when refused. */
export function resolveCall(args: ConnectionArgs, config: ConfigReader | undefined): CallSettings {
  const known = (value: unknown) => (value === UNKNOWN ? undefined : value);
  const given = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, known(v)]));
  const { problems, settings } = inspectCall(given, config, process.env, false);
  if (!settings) throw new SettingsError(problems.map((p) => p.reason).join("\n"));
  return settings;
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
