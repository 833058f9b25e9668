/** The pure tier's shared fast-check arbitraries and small builders: run settings, hostile text, keys, credentials. */
import fc from "fast-check";

/** A node's API key as the service gives one (32 hex digits): key-like in any URL or text. */
export const HEX_KEY = "3c6e0b8a9c15224a8228b9a98ca1531d";

/** Runs with a fixed seed, to be reproducible; set FC_SEED to explore others. */
export const runs = (seed: number, numRuns: number) => ({
  seed: Number(process.env.FC_SEED ?? seed),
  numRuns,
});

type PropertyArgs<Ts extends [unknown, ...unknown[]], R> = [
  ...arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => R,
];

/** Asserts the property of `args` (arbitraries, then the predicate) over `parameters`' runs. */
export function holds<Ts extends [unknown, ...unknown[]]>(
  parameters: fc.Parameters<NoInfer<Ts>>,
  ...args: PropertyArgs<Ts, boolean | void>
): void {
  fc.assert(fc.property(...args), parameters);
}

/** {@link holds} for an async predicate. */
export function holdsAsync<Ts extends [unknown, ...unknown[]]>(
  parameters: fc.Parameters<NoInfer<Ts>>,
  ...args: PropertyArgs<Ts, Promise<boolean | void>>
): Promise<void> {
  return fc.assert(fc.asyncProperty(...args), parameters);
}

/** Strings made of `parts` joined: hostile text from pieces (constants, generated strings). */
export const joined = (parts: fc.Arbitrary<string>, constraints: fc.ArrayConstraints = {}) =>
  fc.array(parts, constraints).map((p) => p.join(""));

/** Strings of `pattern` holding a letter and a digit: keys and credentials as the service gives them. */
export const serviceKey = (pattern: RegExp) =>
  fc.stringMatching(pattern).filter((k) => /\d/.test(k) && /[A-Za-z]/.test(k));

/** A node's credentials in every form a message must not hold: as given, URL-encoded, as basic auth. */
export const credentialForms = ({ key, username, password }: Partial<Record<string, string>>) =>
  [
    key,
    key && encodeURIComponent(key),
    username,
    password,
    username && password && Buffer.from(`${username}:${password}`).toString("base64"),
  ].filter((c): c is string => !!c);

/** The error a promise rejects with, or undefined when it resolves. */
export const errorOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );
