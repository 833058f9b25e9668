/**
 * The settings' sources and the call settings: the stack config keys and environment variables,
 * the one lookup (arguments > stack config > environment) and the one emptiness rule, and the
 * table of the limits of a call (`timeoutMs`, `deadlineMs`, `maxRetries`) with their checks.
 * Pulumi-free: callers pass a config reader.
 */
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRIES_LIMIT,
  MAX_TIMER_MS,
} from "../api";

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

/** The first source that sets a setting: the argument, the stack config, the environment. */
export function pick(
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
