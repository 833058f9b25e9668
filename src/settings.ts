import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  isApiError,
  MAX_RETRIES_LIMIT,
  MAX_TIMER_MS,
  NodeServiceClient,
  type NodeServiceClientOptions,
  type RetryWait,
} from "./api";

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

/** The limits of one call to the service that a user can set (see {@link CALL_SETTINGS}). */
export interface CallSettingArgs {
  /**
   * Per-attempt timeout, ms: one HTTP attempt (connect, headers and body) is aborted after it.
   * Default 20000; from 1 to 2147483647. Defaults to stack config `blockchain:timeoutMs`, then
   * `BLOCKCHAIN_TIMEOUT_MS`.
   */
  timeoutMs?: number;
  /**
   * Overall deadline of one call across its attempts and the waits between them, ms. Default
   * 60000; from 1 to 2147483647. Defaults to stack config `blockchain:deadlineMs`, then
   * `BLOCKCHAIN_DEADLINE_MS`.
   */
  deadlineMs?: number;
  /**
   * Retries after the first attempt of a call (429, 5xx, timeouts and dropped connections of
   * idempotent calls). Default 4; an integer from 0 to 100. Defaults to stack config
   * `blockchain:maxRetries`, then `BLOCKCHAIN_MAX_RETRIES`.
   */
  maxRetries?: number;
}

/** Connection arguments every resource and function accepts. */
export interface ConnectionArgs extends CallSettingArgs {
  /** API URL; defaults to stack config `blockchain:apiUrl`, then `BLOCKCHAIN_API_URL`. */
  apiUrl?: string;
  /** API key; defaults to stack config `blockchain:apiKey`, then `BLOCKCHAIN_API_KEY`. */
  apiKey?: string;
}

/** How one call setting is set, and the values it accepts. */
export interface CallSetting {
  /** Full stack configuration key, e.g. `blockchain:deadlineMs`. */
  config: string;
  /** Environment variable, e.g. `BLOCKCHAIN_DEADLINE_MS`. */
  env: string;
  /** Smallest value accepted. */
  min: number;
  /** Largest value accepted. */
  max: number;
  /** Whether only integers are accepted. */
  integer: boolean;
  /** The default, for messages and docs. */
  defaultValue: number;
  /** What is expected, for messages. */
  expected: string;
}

/** Every call setting: argument name, stack config key, environment variable and bounds. */
export const CALL_SETTINGS: Record<keyof CallSettingArgs, CallSetting> = {
  timeoutMs: {
    config: `${CONFIG_NAMESPACE}:timeoutMs`,
    env: "BLOCKCHAIN_TIMEOUT_MS",
    min: 1,
    max: MAX_TIMER_MS,
    integer: false,
    defaultValue: DEFAULT_TIMEOUT_MS,
    expected: `a number of milliseconds from 1 to ${MAX_TIMER_MS}`,
  },
  deadlineMs: {
    config: `${CONFIG_NAMESPACE}:deadlineMs`,
    env: "BLOCKCHAIN_DEADLINE_MS",
    min: 1,
    max: MAX_TIMER_MS,
    integer: false,
    defaultValue: DEFAULT_DEADLINE_MS,
    expected: `a number of milliseconds from 1 to ${MAX_TIMER_MS}`,
  },
  maxRetries: {
    config: `${CONFIG_NAMESPACE}:maxRetries`,
    env: "BLOCKCHAIN_MAX_RETRIES",
    min: 0,
    max: MAX_RETRIES_LIMIT,
    integer: true,
    defaultValue: DEFAULT_MAX_RETRIES,
    expected: `an integer from 0 to ${MAX_RETRIES_LIMIT}`,
  },
};

/** The names of the call settings, in the order of the docs. */
export const CALL_SETTING_NAMES = Object.keys(CALL_SETTINGS) as (keyof CallSettingArgs)[];

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

/** A call setting's value: a finite number (a string of one, from config or env) in its bounds. */
function callSettingValue(setting: CallSetting, raw: unknown): number | undefined {
  const value =
    typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(value) || value < setting.min || value > setting.max) return undefined;
  if (setting.integer && !Number.isInteger(value)) return undefined;
  return value;
}

/** How to set a call setting, for messages. */
function callSettingFix(name: keyof CallSettingArgs, source: SettingSource): string {
  const s = CALL_SETTINGS[name];
  const example = s.defaultValue * 2;
  return source === "argument"
    ? `pass ${name} as ${s.expected}`
    : source === "stack config"
      ? `set it with \`pulumi config set ${s.config} ${example}\``
      : `export ${s.env}=${example}`;
}

/**
 * Finds and checks the call settings (arguments > stack config > environment): each is missing
 * when no source sets it (the client's default applies). `undefined` arguments and {@link UNKNOWN}
 * count as not given.
 * @throws SettingsError naming each value that is not accepted, where it came from and how to fix it there.
 */
export function resolveCallSettings(
  explicit: CallSettingArgs = {},
  config?: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
): CallSettingArgs {
  const problems = callSettingProblems(explicit, config, env);
  if (problems.length > 0) throw new SettingsError(problems.map((p) => p.reason).join("\n"));
  const out: CallSettingArgs = {};
  for (const name of CALL_SETTING_NAMES) {
    const found = findCallSetting(name, explicit, config, env);
    if (found) out[name] = callSettingValue(CALL_SETTINGS[name], found.raw);
  }
  return out;
}

function findCallSetting(
  name: keyof CallSettingArgs,
  explicit: CallSettingArgs,
  config: ConfigReader | undefined,
  env: NodeJS.ProcessEnv,
): { raw: unknown; source: SettingSource } | undefined {
  const arg = (explicit as Record<string, unknown>)[name];
  if (arg !== undefined && arg !== null && arg !== UNKNOWN) return { raw: arg, source: "argument" };
  const found = pick(undefined, config, CALL_SETTINGS[name].config, env, CALL_SETTINGS[name].env);
  return found && { raw: found.value, source: found.source };
}

/** A call setting that is not accepted: which, where it came from, and the message. */
export interface CallSettingProblem {
  name: keyof CallSettingArgs;
  source: SettingSource;
  /** The setting, where it came from, the value refused, what is accepted and how to set it there. */
  reason: string;
}

/**
 * The problems with the call settings (arguments > stack config > environment), one each. Empty
 * when all are fine or not set.
 */
export function callSettingProblems(
  explicit: CallSettingArgs = {},
  config?: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
): CallSettingProblem[] {
  const problems: CallSettingProblem[] = [];
  for (const name of CALL_SETTING_NAMES) {
    const found = findCallSetting(name, explicit, config, env);
    if (!found || callSettingValue(CALL_SETTINGS[name], found.raw) !== undefined) continue;
    const s = CALL_SETTINGS[name];
    const where =
      found.source === "argument"
        ? `the ${name} argument`
        : found.source === "stack config"
          ? `stack config ${s.config}`
          : `the environment variable ${s.env}`;
    const shown = typeof found.raw === "string" ? JSON.stringify(found.raw.slice(0, 40)) : String(found.raw);
    problems.push({
      name,
      source: found.source,
      reason: `${name}: ${where} is ${shown}; expected ${s.expected}: ${callSettingFix(name, found.source)}.`,
    });
  }
  return problems;
}

/**
 * Where the limits named by the client's hints ("Raise deadlineMs", "Raise timeoutMs") are set
 * by a Pulumi user.
 */
export const CALL_SETTINGS_HINT =
  "timeoutMs, deadlineMs and maxRetries are arguments of every resource and function, and settings of the stack or provider: " +
  `\`pulumi config set ${CALL_SETTINGS.deadlineMs.config} 120000\` (or export ${CALL_SETTINGS.deadlineMs.env}=120000); ` +
  `likewise ${CALL_SETTINGS.timeoutMs.config} / ${CALL_SETTINGS.timeoutMs.env} and ${CALL_SETTINGS.maxRetries.config} / ${CALL_SETTINGS.maxRetries.env}.`;

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
export function appendHint<E extends Error>(error: E, hint: string): E {
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
  if (
    isApiError(error) &&
    /\bRaise (timeoutMs|deadlineMs)\b|\bGave up after \d+ attempts\b/.test(error.message)
  ) {
    return appendHint(error, CALL_SETTINGS_HINT);
  }
  return error;
}

/** Where the waits of this process are reported (a host sets it: the program's log, the engine's). */
let waitReporter: ((event: RetryWait) => void) | undefined;

/**
 * Sets where every client made by {@link withClient} reports a wait between two attempts (see the
 * client's `onWait`): the functions log it with `pulumi.log`, the providers through the engine.
 */
export function setWaitReporter(reporter: ((event: RetryWait) => void) | undefined): void {
  waitReporter = reporter;
}

/** The client options every client of {@link withClient} shares besides its settings. */
const reportWait: NodeServiceClientOptions["onWait"] = (event) => waitReporter?.(event);

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
  const limits = resolveCallSettings(args, config);
  const cacheKey = [
    settings.apiUrl,
    settings.apiKey,
    limits.timeoutMs,
    limits.deadlineMs,
    limits.maxRetries,
  ].join("\u0000");
  let client = clients.get(cacheKey);
  if (!client) {
    client = new NodeServiceClient({
      apiUrl: settings.apiUrl,
      apiKey: settings.apiKey,
      ...(limits.timeoutMs !== undefined ? { timeoutMs: limits.timeoutMs } : {}),
      ...(limits.deadlineMs !== undefined ? { deadlineMs: limits.deadlineMs } : {}),
      ...(limits.maxRetries !== undefined ? { retry: { maxRetries: limits.maxRetries } } : {}),
      onWait: reportWait,
    });
    clients.set(cacheKey, client);
  }
  try {
    return await use(client);
  } catch (error) {
    throw withSettingHints(error, settings.sources);
  }
}
