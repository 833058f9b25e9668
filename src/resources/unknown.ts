/**
 * The value the engine sends for an input that is not known yet (during preview). It is the
 * same constant as `@pulumi/pulumi`'s internal `unknownValue`; kept here so the provider runtime
 * does not load the Pulumi SDK.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when a value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Returns a deep copy without `undefined` values (the provider protocol cannot carry them).
 * Arrays keep their length: `undefined` items become `null`.
 */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : withoutUndefined(v))) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = withoutUndefined(v);
    return out as T;
  }
  return value;
}
