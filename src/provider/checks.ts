import type * as pulumi from "@pulumi/pulumi";
import { checkApiUrl, guardInputValue, isApiError, redact } from "../api";
import { formatProblems, MAX_API_KEY_LENGTH, Problem } from "../model";
import {
  BLANK_API_URL_REASON,
  CallSettingArgs,
  callSettingProblems,
  ConfigReader,
  ConnectionArgs,
  findSettings,
  resolveCallSettings,
  MISSING_API_KEY,
  MISSING_API_URL,
  settingFix,
  settingValue,
  UNKNOWN,
  withClient,
} from "../settings";
import { readProviderConfig } from "./calls";

/** A `check` failure as the dynamic provider protocol carries it. */
export type CheckFailure = pulumi.dynamic.CheckFailure;

/** Inputs as `check` receives them: any field, of any type, or {@link UNKNOWN} during preview. */
export type UncheckedInputs<T> = { [K in keyof T]?: unknown };

/** What a provider's `check` answers: the SDK's `CheckResult`, always with both fields. */
export type Checked<T> = Required<pulumi.dynamic.CheckResult<T>>;

/** The connection inputs of a resource, as `check` receives them. */
type ConnectionInputs = { apiUrl?: unknown; apiKey?: unknown };

/** How one property changes in a `diff` (`inputDiff: false`: the old value is the old output). */
export interface PropertyDiff {
  kind: "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";
  inputDiff: boolean;
}

/** What `diff` answers: always explicit, with the changed keys and their kinds. */
export interface Diff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Every changed property. */
  diffs: string[];
  /** Each changed property and how. */
  detailedDiff: Record<string, PropertyDiff>;
}

/** How a property changes: added, removed or changed, in place or by replacing the resource. */
export function kindOf(old: unknown, next: unknown, replaces: boolean): PropertyDiff["kind"] {
  const kind = old === undefined ? "add" : next === undefined ? "delete" : "update";
  return replaces ? `${kind}-replace` : kind;
}

/** Model problems as `check` failures; a value that may be a credential is described, not shown. */
export function toFailures(problems: Problem[], given: Record<string, unknown> = {}): CheckFailure[] {
  return problems.map((p) => {
    const raw = Object.hasOwn(given, p.field) ? given[p.field] : undefined;
    let value = guardInputValue(p.value);
    if (value !== p.value && typeof raw === "string" && guardInputValue(raw) !== raw)
      value = guardInputValue(raw);
    return { property: p.field, reason: formatProblems([{ ...p, value }]) };
  });
}

/** Checks optional `apiUrl`/`apiKey` inputs (HTTPS rule, non-empty key); unknowns pass. */
export function checkCredentialInputs(news: ConnectionInputs): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const { apiUrl, apiKey } = news;
  if (apiUrl !== undefined && apiUrl !== UNKNOWN) {
    const reason =
      typeof apiUrl !== "string"
        ? "apiUrl must be a string"
        : settingValue(apiUrl) === undefined
          ? BLANK_API_URL_REASON
          : checkApiUrl(apiUrl);
    // A key pasted into the URL (or the two swapped) is never echoed back.
    const key = typeof apiKey === "string" && apiKey !== UNKNOWN ? [apiKey, apiKey.trim()] : [];
    if (reason) failures.push({ property: "apiUrl", reason: redact(reason, key) });
  }
  const keyReason =
    apiKey !== undefined && apiKey !== UNKNOWN && settingValue(apiKey) === undefined
      ? "apiKey: expected a non-empty string (pass it as a secret)"
      : typeof apiKey === "string" && apiKey.trim().length > MAX_API_KEY_LENGTH
        ? `apiKey: a string of ${apiKey.trim().length} characters; expected at most ${MAX_API_KEY_LENGTH} (check how it was copied)`
        : undefined;
  if (keyReason) failures.push({ property: "apiKey", reason: keyReason });
  return failures;
}

/**
 * Checks `timeoutMs`, `deadlineMs`, `maxRetries` (arguments, then `config`, then `env`); an unknown
 * argument passes. A failure names the property only when it is an argument.
 */
export function checkCallSettings(
  news: Record<string, unknown>,
  config: ConfigReader | undefined = readProviderConfig,
  env: NodeJS.ProcessEnv = process.env,
): CheckFailure[] {
  return callSettingProblems(news as CallSettingArgs, config, env)
    .filter((p) => news[p.name] !== UNKNOWN)
    .map((p) => ({ property: p.source === "argument" ? p.name : "", reason: p.reason }));
}

/**
 * Checks the URL and key that come from the stack config or the environment (arguments are
 * {@link checkCredentialInputs}'s): a missing one, or a URL refused, says how to set it there.
 */
export function checkConnectionSettings(news: ConnectionInputs): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const { apiUrl: url, apiKey: key } = findSettings({}, readProviderConfig);
  const reason = news.apiUrl === undefined && url ? checkApiUrl(url.value) : undefined;
  if (news.apiUrl === undefined && !url) failures.push({ property: "", reason: MISSING_API_URL });
  else if (url && reason) {
    const where = url.source === "environment" ? "the environment" : url.source;
    const secrets = typeof news.apiKey === "string" ? [news.apiKey] : key ? [key.value] : [];
    const text = `The API URL from ${where} is refused: ${reason}. ${capitalize(settingFix("apiUrl", url.source))}.`;
    failures.push({ property: "", reason: redact(text, secrets) });
  }
  if (news.apiKey === undefined && !key) failures.push({ property: "", reason: MISSING_API_KEY });
  return failures;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const probes = new Map<string, Promise<CheckFailure | undefined>>();

/** How long the key probe may take at preview, ms; past it, preview goes on without it. */
export const KEY_PROBE_DEADLINE_MS = 15_000;

/**
 * Checks at preview, once per process for each URL and key, that the service accepts the key
 * (one page of `GET /v1/nodes/`). Only a refusal fails; anything else is left for `up` to report.
 */
export async function checkApiKeyOnce(args: ConnectionArgs): Promise<CheckFailure[]> {
  const found = findSettings(args, readProviderConfig);
  if (!found.apiUrl || !found.apiKey) return [];
  const cacheKey = `${found.apiUrl.value}\u0000${found.apiKey.value}`;
  let probe = probes.get(cacheKey);
  if (!probe) {
    probe = withClient(args, readProviderConfig, async (client) => {
      // One request: no page fetched ahead, the loop stops within the first page.
      const operation = "GET /v1/nodes/ (one page)";
      const options = { deadlineMs: KEY_PROBE_DEADLINE_MS, prefetch: false, operation };
      for await (const _node of client.listNodes(undefined, options)) break;
      return undefined;
    }).catch((err: unknown): CheckFailure | undefined => {
      if (!isApiError(err)) return undefined;
      if (err.kind === "unauthorized") {
        return {
          property: found.apiKey?.source === "argument" ? "apiKey" : "",
          reason: `The API key was refused when checked at preview: ${err.message}`,
        };
      }
      if (err.kind === "invalid_input") {
        const setting = err.fields?.apiKey ? "apiKey" : err.fields?.apiUrl ? "apiUrl" : undefined;
        const source = setting && found[setting]?.source;
        return {
          property: source === "argument" ? (setting as string) : "",
          reason: source ? `${err.message}\n${capitalize(settingFix(setting, source))}.` : err.message,
        };
      }
      return undefined;
    });
    probes.set(cacheKey, probe);
  }
  const failure = await probe;
  return failure ? [failure] : [];
}

/** Every check of the connection settings for `check`; the key probe only when all else passed. */
export async function checkConnection(news: ConnectionInputs, otherFailures: CheckFailure[]) {
  const failures = [
    ...checkCredentialInputs(news),
    ...checkConnectionSettings(news),
    ...checkCallSettings(news as Record<string, unknown>),
  ];
  if (failures.length > 0 || otherFailures.length > 0) return failures;
  if (news.apiUrl === UNKNOWN || news.apiKey === UNKNOWN) return [];
  const { apiUrl, apiKey } = news as ConnectionArgs;
  return checkApiKeyOnce({ apiUrl, apiKey });
}

/** Wraps an error for the user: API errors kept as they are (with `hint`), others prefixed with the operation and id. */
export function describeError(err: unknown, operation: string, resourceId: string, hint?: string): Error {
  const base = isApiError(err)
    ? err.message
    : `${operation} ${resourceId}: ${err instanceof Error ? err.message : String(err)}`;
  const wrapped = new Error(hint ? `${base}\n${hint}` : base);
  wrapped.name = err instanceof Error && err.name ? err.name : "Error";
  return wrapped;
}

/**
 * When `networkId` is new to the stack, looks for it by reading only (a preview never writes; the
 * service's one read of a network is a PATCH): one page of `GET /v1/nodes/?network=<id>`. Nodes
 * prove it exists; an empty page proves nothing (an empty network, or none), so `up` says which
 * when it adopts it. Only the service refusing the id itself fails the check.
 */
export async function checkNetworkExists(olds: unknown, news: { networkId?: unknown } & ConnectionArgs) {
  const id = news.networkId as string;
  const previous =
    typeof olds === "object" && olds !== null ? (olds as { networkId?: unknown }).networkId : undefined;
  if (previous === id) return [];
  // A preview waits for this read no longer than for the key check: a hung service is `up`'s to report.
  const configured = resolveCallSettings(news, readProviderConfig).deadlineMs;
  const deadlineMs = Math.min(configured ?? KEY_PROBE_DEADLINE_MS, KEY_PROBE_DEADLINE_MS);
  const operation = `GET /v1/nodes/?network=${id} (one page)`;
  try {
    await withClient(news, readProviderConfig, async (client) => {
      for await (const _node of client.listNodes({ network: id }, { deadlineMs, prefetch: false, operation }))
        break;
    });
    return [];
  } catch (err) {
    if (!isApiError(err) || err.kind !== "validation" || !err.fields?.network) return [];
    return [
      {
        property: "networkId",
        reason:
          `${id} does not exist in the service, or is not visible to this API key's organization (the service refused ` +
          `it as a node filter: ${err.message}). Networks cannot be created through the API: create it in the service's ` +
          `console, or set networkId to the id of an existing network (the console shows it, NW-...).`,
      },
    ];
  }
}
