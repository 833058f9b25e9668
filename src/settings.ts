/**
 * Where the API URL, key and limits come from (arguments > stack config > environment), declared
 * once in {@link SETTINGS}; the one reading of a call's settings ({@link inspectCall}), {@link withClient},
 * and the errors' Pulumi wording.
 */
import { createHash } from "node:crypto";
import { checkApiUrl } from "./api/url";
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES_LIMIT,
  MAX_TIMER_MS,
  type NodeServiceClientOptions,
  type RetryWait,
} from "./api/options";
import { isApiError } from "./api/errors";
import { NodeServiceClient } from "./api/client";
import { redact } from "./api/redact";
import { MAX_API_KEY_LENGTH, unknownProperties } from "./model/rules";

export const CONFIG_NAMESPACE = "blockchain";

/** One connection setting: its type, environment variable and, for a number, its bounds and default. */
interface SettingSpec {
  type: "string" | "number" | "integer";
  env: string;
  secret?: true;
  min?: number;
  max?: number;
  defaultValue?: number;
}

/** Every connection setting (an argument, stack config `blockchain:<name>`, an environment variable); each doc is the schema's. */
// prettier-ignore
export const SETTINGS = {
  /** The service's API URL, e.g. `https://api.example.com` (HTTPS; plain HTTP only to this machine). Stack config `blockchain:apiUrl`; when not set, the environment variable `BLOCKCHAIN_API_URL`. */
  apiUrl: { type: "string", env: "BLOCKCHAIN_API_URL" },
  /** The API key of the organization, always secret. Stack config `blockchain:apiKey` (set it with `pulumi config set --secret blockchain:apiKey <key>`); when not set, `BLOCKCHAIN_API_KEY`. */
  apiKey: { type: "string", env: "BLOCKCHAIN_API_KEY", secret: true },
  /**
   * Per-attempt timeout, ms: one HTTP attempt (connect, headers and body) is aborted after it.
   * Default 20000; from 1 to 2147483647. Defaults to stack config `blockchain:timeoutMs`, then
   * `BLOCKCHAIN_TIMEOUT_MS`.
   */
  timeoutMs: { type: "number", env: "BLOCKCHAIN_TIMEOUT_MS", min: 1, max: MAX_TIMER_MS, defaultValue: DEFAULT_TIMEOUT_MS },
  /**
   * Overall deadline of one call across its attempts and the waits between them, ms. Default
   * 60000, and 20000 for a write (a rename, a DELETE, a faucet request; `timeoutMs` when longer)
   * unless set; from 1 to 2147483647. Defaults to stack config `blockchain:deadlineMs`, then
   * `BLOCKCHAIN_DEADLINE_MS`.
   */
  deadlineMs: { type: "number", env: "BLOCKCHAIN_DEADLINE_MS", min: 1, max: MAX_TIMER_MS, defaultValue: DEFAULT_DEADLINE_MS },
  /**
   * Retries after the first attempt of a call (429, 5xx, timeouts and dropped connections of
   * idempotent calls). Default 4; an integer from 0 to 100. Defaults to stack config
   * `blockchain:maxRetries`, then `BLOCKCHAIN_MAX_RETRIES`.
   */
  maxRetries: { type: "integer", env: "BLOCKCHAIN_MAX_RETRIES", min: 0, max: MAX_RETRIES_LIMIT, defaultValue: DEFAULT_MAX_RETRIES },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;
/** The names of the limits of a call (the numeric settings). */
export type CallSettingName = {
  [K in SettingName]: (typeof SETTINGS)[K]["type"] extends "string" ? never : K;
}[SettingName];
/** Connection arguments every resource and function accepts (see {@link SETTINGS}). */
export type ConnectionArgs = {
  -readonly [K in keyof typeof SETTINGS]?: (typeof SETTINGS)[K]["type"] extends "string" ? string : number;
};
/** The limits of one call to the service that a user can set. */
export type CallSettingArgs = Pick<ConnectionArgs, CallSettingName>;

/** Every setting's name, in the order of the docs. */
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];
/** The names of the call settings, in the order of the docs. */
export const CALL_SETTING_NAMES = SETTING_NAMES.filter(
  (n) => SETTINGS[n].type !== "string",
) as CallSettingName[];
/** The full stack config key of a setting, e.g. `blockchain:apiKey`. */
export const configKey = (name: SettingName) => `${CONFIG_NAMESPACE}:${name}`;

export const CONFIG_API_KEY = configKey("apiKey");

/** The engine's value of an input not known yet (preview): `@pulumi/pulumi`'s `unknownValue`, without loading the SDK. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Reads a full configuration key such as `blockchain:apiKey`; undefined when not set. */
export type ConfigReader = (fullKey: string) => string | undefined;

export type SettingSource = "argument" | "stack config" | "environment";

/** A setting is missing or refused: the message says exactly how to set it. */
export class SettingsError extends Error {
  override name = "SettingsError";
}

/** A setting's value: a non-blank string, trimmed; `undefined` for anything else. */
export function settingValue(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export type FoundSetting = { value: string; source: SettingSource };

/** The first source that sets a string setting: the argument, the stack config, the environment. */
export function pick(
  name: SettingName,
  explicit: unknown,
  config: ConfigReader | undefined,
  env: NodeJS.ProcessEnv,
): FoundSetting | undefined {
  const fromArg = settingValue(explicit);
  if (fromArg) return { value: fromArg, source: "argument" };
  const fromConfig = settingValue(config?.(configKey(name)));
  if (fromConfig) return { value: fromConfig, source: "stack config" };
  const fromEnv = settingValue(env[SETTINGS[name].env]);
  return fromEnv ? { value: fromEnv, source: "environment" } : undefined;
}

function expected(name: CallSettingName): string {
  const { type, min, max } = SETTINGS[name];
  return `${type === "integer" ? "an integer" : "a number of milliseconds"} from ${min} to ${max}`;
}

/** A call setting's value: a finite number (a string of one, from config or env) in its bounds. */
function callSettingValue(name: CallSettingName, raw: unknown): number | undefined {
  const s = SETTINGS[name];
  const value =
    typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(value) || value < s.min || value > s.max) return undefined;
  return s.type === "integer" && !Number.isInteger(value) ? undefined : value;
}

/** A call setting that is not accepted: which, where it came from, and the message. */
export interface CallSettingProblem {
  name: CallSettingName;
  source: SettingSource;
  /** The setting, where it came from, the value refused, what is accepted and how to set it there. */
  reason: string;
}

/** The call settings set (arguments > stack config > environment), and a problem for each value refused. */
export function readCallSettings(explicit: CallSettingArgs, config?: ConfigReader, env = process.env) {
  const values: CallSettingArgs = {};
  const problems: CallSettingProblem[] = [];
  for (const name of CALL_SETTING_NAMES) {
    const arg = (explicit as Record<string, unknown>)[name];
    const given = arg !== undefined && arg !== null && arg !== UNKNOWN;
    const found = given ? { value: arg, source: "argument" as const } : pick(name, undefined, config, env);
    if (!found) continue;
    values[name] = callSettingValue(name, found.value);
    if (values[name] !== undefined) continue;
    const { env: envName, defaultValue } = SETTINGS[name];
    const [where, fix] = {
      argument: [`the ${name} argument`, `pass ${name} as ${expected(name)}`],
      "stack config": [
        `stack config ${configKey(name)}`,
        `set it with \`pulumi config set ${configKey(name)} ${defaultValue * 2}\``,
      ],
      environment: [`the environment variable ${envName}`, `export ${envName}=${defaultValue * 2}`],
    }[found.source];
    const raw = found.value;
    const shown = typeof raw === "string" ? JSON.stringify(raw.slice(0, 40)) : String(raw);
    const reason = `${name}: ${where} is ${shown}; expected ${expected(name)}: ${fix}.`;
    problems.push({ name, source: found.source, reason });
  }
  return { values, problems };
}

/** Where a Pulumi user raises the call setting that ran out (an error's `limit`). */
export function callSettingHint(name: CallSettingName): string {
  const twice = SETTINGS[name].defaultValue * 2;
  return `${name} is an argument of every resource and function, and a setting of the stack or provider: \`pulumi config set ${configKey(name)} ${twice}\` (or export ${SETTINGS[name].env}=${twice}).`;
}

/** The names among `given` that are no setting (nor one of `extra`), each naming the one it resembles; values never shown. */
export function unknownSettings(given: Record<string, unknown>, extra: readonly string[] = []) {
  return unknownProperties(given, [...SETTING_NAMES, ...extra], "setting").map((p) => ({
    name: p.field,
    reason: `${p.field}: ${p.allowed}`,
  }));
}

/** Why a run is refused when stack config holds the API key in plain text (never the key). */
export const PLAIN_TEXT_KEY =
  `stack config ${CONFIG_API_KEY} is stored in plain text, and Pulumi would copy it in plain text into the stack's ` +
  `state and history: nothing was registered. Store it encrypted with \`pulumi config set --secret ${CONFIG_API_KEY} <key>\`, ` +
  `and rotate the key if it was ever stored in plain text (in Pulumi.<stack>.yaml, or in state by an earlier version).`;

/** The `blockchain:*` keys of a program's stack config that are no setting, one line each. */
export function stackConfigWarnings(all: Record<string, string>): string[] {
  const ours = Object.keys(all)
    .filter((k) => k.startsWith(`${CONFIG_NAMESPACE}:`))
    .map((k) => [k.slice(CONFIG_NAMESPACE.length + 1), all[k]]);
  return unknownSettings(Object.fromEntries(ours)).map(
    (u) => `stack config ${CONFIG_NAMESPACE}:${u.reason} (the key is ignored)`,
  );
}

let reviewed = false;

/**
 * Reviews a program's stack config: a plain-text API key refuses the call, each time ({@link PLAIN_TEXT_KEY};
 * without `isConfigSecret` none is plain); an unknown key is reported through `warn`, once per process.
 */
export function reviewStackConfig(
  runtime: { allConfig(): Record<string, string>; isConfigSecret?(fullKey: string): boolean },
  warn: (message: string) => unknown,
): void {
  const all = runtime.allConfig();
  if (settingValue(all[CONFIG_API_KEY]) && !(runtime.isConfigSecret?.(CONFIG_API_KEY) ?? true))
    throw new SettingsError(PLAIN_TEXT_KEY);
  if (reviewed) return;
  reviewed = true;
  for (const message of stackConfigWarnings(all)) warn(message);
}

export interface Settings {
  apiUrl: string;
  apiKey: string;
  /** Where each value came from, for messages (never the values themselves). */
  sources: { apiUrl: SettingSource; apiKey: SettingSource };
}

export const MISSING_API_URL = `No API URL for the blockchain node service. Set it with \`pulumi config set ${configKey("apiUrl")} https://<api host>\`.`;

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
  for (const p of limits.problems)
    if (args[p.name] !== UNKNOWN)
      problems.push({ property: p.source === "argument" ? p.name : "", reason: p.reason });
  if (problems.length > 0 || !url || !key) return { problems };
  const sources = { apiUrl: url.source, apiKey: key.source };
  const overrides = overridesEnvKey(key, env);
  return {
    problems,
    settings: { apiUrl: url.value, apiKey: key.value, sources, limits: limits.values, overrides },
  };
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

const REFUSED_SETTING: Record<string, "apiUrl" | "apiKey"> = {
  invalid_api_url: "apiUrl",
  invalid_api_key: "apiKey",
};

/** A refused key (401) or an unreachable URL says where it came from and how to set it there; a timeout names the call setting. */
export function withSettingHints(error: unknown, sources: Settings["sources"], overrides = false): unknown {
  const refused = isApiError(error) ? REFUSED_SETTING[error.code] : undefined;
  if (refused) return appendHint(error as Error, `${capitalize(settingFix(refused, sources[refused]))}.`);
  if (isApiError(error) && error.kind === "unauthorized")
    return appendHint(error, `The API key was refused; ${settingFix("apiKey", sources.apiKey, overrides)}.`);
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
  try {
    let client = clients.get(cacheKey);
    if (!client) {
      const { timeoutMs, deadlineMs, maxRetries } = limits;
      // A limit not set is left to the client's default.
      const retry = maxRetries === undefined ? undefined : { maxRetries };
      client = new NodeServiceClient({ apiUrl, apiKey, timeoutMs, deadlineMs, retry, onWait: reportWait });
      clients.set(cacheKey, client);
    }
    return await use(client);
  } catch (error) {
    throw withSettingHints(error, settings.sources, settings.overrides);
  }
}
