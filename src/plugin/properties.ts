/**
 * Property values as the provider protocol carries them (a Struct, as JavaScript): plain JSON, a
 * secret wrapper (`{ [SIG_KEY]: SECRET_SIG, value }`) or {@link UNKNOWN} during preview.
 */
import { UNKNOWN } from "../settings";

export { UNKNOWN };

/** The key that marks a special value, and its value for a secret. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A property map (the JavaScript form of a Struct). */
export type PropertyMap = Record<string, unknown>;

/** Sets an own property, also one named `__proto__` (a plain assignment would set the prototype). */
function setOwn(target: PropertyMap, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether `value` is a secret wrapper. */
export function isSecret(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/** `value` wrapped as a secret (a value already secret is kept as it is). */
export function secret(value: unknown): unknown {
  return isSecret(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}

/** `value` with every secret wrapper removed, at any depth; `found` says whether there was one. */
export function reveal(value: unknown): { value: unknown; found: boolean } {
  if (isSecret(value)) return { value: reveal(value.value).value, found: true };
  if (Array.isArray(value)) {
    const items = value.map((v) => reveal(v));
    return { value: items.map((r) => r.value), found: items.some((r) => r.found) };
  }
  if (typeof value !== "object" || value === null) return { value, found: false };
  const { props, secretKeys } = revealProps(value as PropertyMap);
  return { value: props, found: secretKeys.size > 0 };
}

/** A property map with its secrets revealed, and the names of its top-level properties that held one. */
export type Revealed = { props: PropertyMap; secretKeys: Set<string> };

/** Reveals every secret of a property map, remembering which top-level properties were secret. */
export function revealProps(props: PropertyMap | undefined | null): Revealed {
  const out: PropertyMap = {};
  const secretKeys = new Set<string>();
  for (const [k, v] of Object.entries(props ?? {})) {
    const r = reveal(v);
    setOwn(out, k, r.value);
    if (r.found) secretKeys.add(k);
  }
  return { props: out, secretKeys };
}

/** The property map to send: `undefined` dropped (a Struct has none), the properties in `secretKeys` wrapped. */
export function sealProps(props: PropertyMap, secretKeys: Iterable<string>): PropertyMap {
  const keys = new Set(secretKeys);
  const out: PropertyMap = {};
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    setOwn(out, k, keys.has(k) ? secret(dropUndefined(v)) : dropUndefined(v));
  }
  return out;
}

/** A JSON value without `undefined` (members dropped, array items `null`, as `JSON.stringify` does). */
function dropUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : dropUndefined(v)));
  if (typeof value === "object" && value !== null) {
    const out: PropertyMap = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) setOwn(out, k, dropUndefined(v));
    return out;
  }
  return value;
}
