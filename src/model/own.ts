/**
 * Own-property lookups: user input (a filter name, a provider, a network name) is never used to
 * index a table directly, since `constructor`, `toString` or `__proto__` would find
 * `Object.prototype`'s members instead of nothing.
 */

/** True when `key` is an own property of `table` (never an inherited one such as `constructor`). */
export function isOwnKey<T extends object>(table: T, key: unknown): key is keyof T & string {
  return typeof key === "string" && Object.prototype.hasOwnProperty.call(table, key);
}

/** `table[key]` when `key` is one of the table's own properties, otherwise `undefined`. */
export function ownValue<T extends object>(table: T, key: unknown): T[keyof T] | undefined {
  return isOwnKey(table, key) ? table[key] : undefined;
}
