/** A kind's property table, a row per property (its doc the schema's): types, inputs, secrets, diff derive from it. */
import type { Creator } from "../api/types";
import { SETTINGS, type SettingName } from "../settings";
import { kindOf, type Diff, type PropertyDiff } from "./checks";
import type { NodeConnection, NodeResult } from "./node-views";

/** The TypeScript type of each property type (the schema maps the same names). */
export interface PropertyTypes {
  string: string;
  number: number;
  integer: number;
  object: Record<string, unknown>;
  boolean: boolean;
  "string[]": string[];
  Creator: Creator;
  "NodeResult[]": NodeResult[];
  "NodeConnection[]": NodeConnection[];
}

/** One property of a resource kind. */
export interface PropertySpec {
  type: keyof PropertyTypes;
  /** The only values a string (or each string of a list) takes. */
  values?: readonly string[];
  /** An input of the resource. */
  input?: "required" | "optional";
  /** An output: declared (class, schema) as required or optional, or kept in `state` only. */
  output?: "required" | "optional" | "state";
  /** What a changed input does; absent: nothing. */
  change?: "replace" | "update";
  /** An input left out leaves the current value as it is (and is no change). */
  managed?: true;
  /** The value an absent input or output stands for, in a diff. */
  absentIs?: string | boolean;
  secret?: true;
  /** Only the TypeScript surface has it, not the plugin's schema. */
  schema?: false;
}

/** A kind's property table. */
export type PropertyTable = Record<string, PropertySpec>;

/** The TypeScript type of a property. */
export type TypeOf<S extends PropertySpec> = S extends { values: readonly (infer V)[] }
  ? S["type"] extends `${string}[]`
    ? V[]
    : V
  : PropertyTypes[S["type"]];

/** The inputs of a kind as its provider receives them (plain values). */
export type Inputs<P extends PropertyTable> = {
  -readonly [K in keyof P as P[K] extends { input: "required" } ? K : never]: TypeOf<P[K]>;
} & { -readonly [K in keyof P as P[K] extends { input: "optional" } ? K : never]?: TypeOf<P[K]> };

/** The outputs of a kind, as its provider returns them and state keeps them. */
export type Outputs<P extends PropertyTable> = {
  -readonly [K in keyof P as P[K] extends { output: "required" } ? K : never]: TypeOf<P[K]>;
} & { -readonly [K in keyof P as P[K] extends { output: "optional" | "state" } ? K : never]?: TypeOf<P[K]> };

/** A connection setting as a row (type and secrecy from `SETTINGS`); the string ones are the TypeScript surface's only. */
export function setting<
  N extends SettingName,
  C extends PropertySpec["change"],
  O extends PropertySpec["output"],
>(name: N, change: C, output: O) {
  const spec: PropertySpec = { type: SETTINGS[name].type, input: "optional", change, output };
  if ("secret" in SETTINGS[name]) spec.secret = true;
  if (SETTINGS[name].type === "string") spec.schema = false;
  return spec as { type: (typeof SETTINGS)[N]["type"]; input: "optional"; change: C; output: O };
}

/** The names of the table's rows that `keep` keeps, in the table's order. */
const names = (table: PropertyTable, keep: (s: PropertySpec, k: string) => unknown) =>
  Object.entries(table).flatMap(([k, s]) => (keep(s, k) ? [k] : []));
/** `keys` of `values` without `undefined` ones (the dynamic provider protocol refuses them). */
function pick<T>(values: object, keys: string[]): T {
  const all = values as Record<string, unknown>;
  return Object.fromEntries(keys.flatMap((k) => (all[k] !== undefined ? [[k, all[k]]] : []))) as T;
}

/** Every input of a kind, in the table's order. */
export const inputNames = (table: PropertyTable) => names(table, (s) => s.input);
/** The outputs of a kind that are always secret. */
export const secretOutputs = (table: PropertyTable) => names(table, (s) => s.secret && s.output);
/** The managed inputs (see {@link PropertySpec.managed}) that `inputs` sets. */
export const managedInputsOf = (table: PropertyTable, inputs: object) =>
  names(table, (s, k) => s.managed && (inputs as Record<string, unknown>)[k] !== undefined);
/** The table's outputs among `values`, without `undefined` ones. */
export const outputsOf = <P extends PropertyTable>(table: P, values: object) =>
  pick<Outputs<P>>(
    values,
    names(table, (s) => s.output),
  );
/** The inputs a refresh hands back: the recorded ones, with the current values of the managed inputs set, so drift shows. */
export const refreshedInputs = <P extends PropertyTable>(table: P, outs: object, managed: string[]) =>
  pick<Inputs<P>>(
    outs,
    names(table, (s, k) => s.input && s.output && (!s.managed || managed.includes(k))),
  );

/** `diff`: each input with a `change` that differs from the old output; a managed input left out is no change. */
export function diffOf(table: PropertyTable, olds: object, news: object): Diff {
  const [o, n] = [olds as Record<string, unknown>, news as Record<string, unknown>];
  const replaces: string[] = [];
  const diffs: string[] = [];
  const detailedDiff: Record<string, PropertyDiff> = {};
  for (const [k, s] of Object.entries(table)) {
    if (!s.change || (s.managed && n[k] === undefined)) continue;
    const [old, next] = [o[k] ?? s.absentIs, n[k] ?? s.absentIs];
    if (old === next) continue;
    diffs.push(k);
    if (s.change === "replace") replaces.push(k);
    detailedDiff[k] = { kind: kindOf(old, next, s.change === "replace"), inputDiff: false };
  }
  // A replacement never deletes the old resource before the new one exists.
  return { changes: diffs.length > 0, replaces, deleteBeforeReplace: false, diffs, detailedDiff };
}
