import type * as pulumi from "@pulumi/pulumi";
import { guardInputValue } from "../api/redact";
import { isApiError } from "../api/errors";
import { formatProblems, Problem } from "../model/rules";
import { type CallSettings, inspectCall, settingsDigest, UNKNOWN, withClient } from "../settings";
import { readProviderConfig } from "./calls";

/** A `check` failure as the dynamic provider protocol carries it. */
export type CheckFailure = pulumi.dynamic.CheckFailure;

/** Inputs as `check` receives them: any field, of any type, or {@link UNKNOWN} during preview. */
export type UncheckedInputs<T> = { [K in keyof T]?: unknown };

/** What a provider's `check` answers: the SDK's `CheckResult`, always with both fields. */
export type Checked<T> = Required<pulumi.dynamic.CheckResult<T>>;

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
  diffs: string[];
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

const probes = new Map<string, Promise<CheckFailure | undefined>>();

/** How long the key probe may take at preview, ms; past it, preview goes on without it. */
export const KEY_PROBE_DEADLINE_MS = 15_000;

/**
 * Checks at preview, once per process for each URL and key, that the service accepts the key
 * (one page of `GET /v1/nodes/`). Only a refusal fails; anything else is left for `up` to report.
 */
export async function checkApiKeyOnce(settings: CallSettings, label = "check"): Promise<CheckFailure[]> {
  const cacheKey = settingsDigest({ ...settings, limits: {} });
  let probe = probes.get(cacheKey);
  if (!probe) {
    probe = withClient(settings, undefined, async (client) => {
      // One request: no page fetched ahead, the loop stops within the first page.
      const operation = `${label}: the API key check (one page of GET /v1/nodes/)`;
      const options = { deadlineMs: KEY_PROBE_DEADLINE_MS, prefetch: false, operation };
      for await (const _node of client.listNodes(undefined, options)) break;
      return undefined;
    }).catch((err: unknown): CheckFailure | undefined => {
      if (!isApiError(err) || (err.kind !== "unauthorized" && err.kind !== "invalid_input")) return undefined;
      const setting =
        err.kind === "unauthorized" || err.fields?.apiKey
          ? "apiKey"
          : err.fields?.apiUrl
            ? "apiUrl"
            : undefined;
      if (!setting) return undefined;
      // withClient's hint already says where the setting came from and how to set it there.
      const property = settings.sources[setting] === "argument" ? setting : "";
      const lead = err.kind === "unauthorized" ? "The API key was refused when checked at preview: " : "";
      return { property, reason: `${lead}${err.message}` };
    });
    probes.set(cacheKey, probe);
  }
  const failure = await probe;
  return failure ? [failure] : [];
}

/**
 * Every check of the connection settings for `check`, read once ({@link inspectCall}); when nothing
 * else failed, the key probe, then `more` with the settings found.
 */
export async function checkConnection(
  label: string,
  news: Record<string, unknown>,
  otherFailures: CheckFailure[],
  more?: (settings: CallSettings) => Promise<CheckFailure[]>,
): Promise<CheckFailure[]> {
  const { problems, settings } = inspectCall(news, readProviderConfig);
  const failures = problems.map(({ property, reason }) => ({ property, reason }));
  if (failures.length > 0 || otherFailures.length > 0 || !settings) return failures;
  const refused = await checkApiKeyOnce(settings, label);
  const known = !Object.values(news).includes(UNKNOWN);
  return refused.length > 0 || !more || !known ? refused : more(settings);
}

/** Wraps an error for the user: API errors kept as they are (with `hint`), others prefixed with the operation and id. */
export function describeError(err: unknown, operation: string, resourceId: string, hint?: string): Error {
  const base = isApiError(err)
    ? err.message
    : `${operation} ${resourceId}: ${err instanceof Error ? err.message : String(err)}`;
  // The cause keeps the error's fields (kind, code, limit) for callers; a host shows the message only.
  const wrapped = new Error(hint ? `${base}\n${hint}` : base, { cause: err });
  wrapped.name = err instanceof Error && err.name ? err.name : "Error";
  return wrapped;
}

/**
 * When `networkId` is new to the stack, looks for it by reading only (a preview never writes; the
 * service's one read of a network is a PATCH): one page of `GET /v1/nodes/?network=<id>`. Nodes
 * prove it exists; an empty page proves nothing (an empty network, or none), so `up` says which
 * when it adopts it. Only the service refusing the id itself fails the check.
 */
export async function checkNetworkExists(
  label: string,
  olds: unknown,
  news: { networkId?: unknown },
  settings: CallSettings,
) {
  const id = news.networkId as string;
  const previous =
    typeof olds === "object" && olds !== null ? (olds as { networkId?: unknown }).networkId : undefined;
  if (previous === id) return [];
  // A preview waits for this read no longer than for the key check: a hung service is `up`'s to report.
  const deadlineMs = Math.min(settings.limits.deadlineMs ?? KEY_PROBE_DEADLINE_MS, KEY_PROBE_DEADLINE_MS);
  const operation = `${label}: the check that ${id} exists (one page of GET /v1/nodes/?network=${id})`;
  try {
    await withClient(settings, undefined, async (client) => {
      for await (const _node of client.listNodes({ network: id }, { deadlineMs, prefetch: false, operation }))
        break;
    });
    return [];
  } catch (err) {
    if (!isApiError(err) || err.kind !== "validation" || !err.fields?.network) return [];
    const reason =
      `${id} does not exist in the service, or is not visible to this API key's organization (the service refused ` +
      `it as a node filter: ${err.message}). Networks cannot be created through the API: create it in the service's ` +
      `console, or set networkId to the id of an existing network (the console shows it, NW-...).`;
    return [{ property: "networkId", reason }];
  }
}
