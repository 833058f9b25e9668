/**
 * `npm run schema:compat`: is `schema.json` compatible with the newest released schema
 * (`schema/released/<version>.json`, the highest not above package.json's `version`)? Breaking:
 * a resource, function, type, property or enum value removed; a property's type changed, or an
 * output no longer always set; a new required input. Additions are not breaking. A break passes
 * only in a major bump (a higher minor below 1.0.0) whose CHANGELOG section has a `### … breaking …`
 * heading naming each change in backticks: a release whose number and notes say what broke.
 * Options: --schema, --released, --package, --changelog. Exit: 0 compatible or allowed, 1 refused, 2 usage.
 */
import * as fs from "fs";
import * as path from "path";
import { parseArgs } from "node:util";

export interface SchemaProperty {
  type?: string;
  $ref?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  oneOf?: SchemaProperty[];
}
type ObjectSpec = { properties?: Record<string, SchemaProperty>; required?: string[] };
interface TypeSpec extends ObjectSpec {
  type?: string;
  enum?: Array<{ name?: string; value?: unknown }>;
}
interface ResourceSpec extends ObjectSpec {
  inputProperties?: Record<string, SchemaProperty>;
  requiredInputs?: string[];
}
type FunctionSpec = { inputs?: ObjectSpec; outputs?: ObjectSpec };
/** A package schema (the subset read here). */
export interface PackageSchema {
  version?: string;
  config?: { variables?: Record<string, SchemaProperty>; defaults?: string[] };
  provider?: ResourceSpec;
  types?: Record<string, TypeSpec>;
  resources?: Record<string, ResourceSpec>;
  functions?: Record<string, FunctionSpec>;
}

/** One breaking change: what kind, the name to mention in the CHANGELOG, and a readable line. */
export interface Break {
  kind: "removed" | "changed type" | "new required input";
  /** The short name a CHANGELOG names it by: a property name, or a resource/function/type name. */
  name: string;
  message: string;
}

/** The short name of a token: `blockchain:index:getNodes` → `getNodes`. */
const short = (token: string) => token.slice(token.lastIndexOf(":") + 1);

/** A property's type as one comparable string: `string`, `array<ref(#/types/…)>`, `map<number>`, … */
export function typeOf(p: SchemaProperty | undefined): string {
  if (!p) return "none";
  if (p.$ref) return `ref(${p.$ref})`;
  if (p.oneOf) return `oneOf(${p.oneOf.map(typeOf).join("|")})`;
  if (p.type === "array") return `array<${typeOf(p.items)}>`;
  if (p.type === "object" && p.additionalProperties) return `map<${typeOf(p.additionalProperties)}>`;
  return p.type ?? "any";
}

/** The types reachable from `roots` (the `#/types/<token>` refs anywhere in them, then in those types). */
function reachable(
  schema: PackageSchema,
  roots: Array<Record<string, SchemaProperty> | undefined>,
): Set<string> {
  const found = new Set<string>();
  const visit = (props: Record<string, SchemaProperty> | undefined) => {
    for (const [, ref] of JSON.stringify(props ?? {}).matchAll(/"\$ref":"#\/types\/([^"]+)"/g)) {
      const token = decodeURIComponent(ref);
      if (found.has(token)) continue;
      found.add(token);
      visit(schema.types?.[token]?.properties);
    }
  };
  roots.forEach(visit);
  return found;
}

/** The property maps that are inputs (resources', functions', the provider's) and outputs. */
const inputRoots = (s: PackageSchema) => [
  ...Object.values(s.resources ?? {}).map((r) => r.inputProperties),
  ...Object.values(s.functions ?? {}).map((f) => f.inputs?.properties),
  s.provider?.inputProperties,
];
const outputRoots = (s: PackageSchema) => [
  ...Object.values(s.resources ?? {}).map((r) => r.properties),
  ...Object.values(s.functions ?? {}).map((f) => f.outputs?.properties),
];

/** One property map, old against new: removed and retyped; inputs newly required; outputs no longer always set. */
function compareProperties(
  what: string,
  role: "input" | "output" | "property",
  before: ObjectSpec,
  after: ObjectSpec,
  out: Break[],
): void {
  const [oldProps, newProps] = [before.properties ?? {}, after.properties ?? {}];
  const [oldRequired, newRequired] = [new Set(before.required ?? []), new Set(after.required ?? [])];
  for (const [name, prop] of Object.entries(oldProps)) {
    const [was, now] = [typeOf(prop), typeOf(newProps[name])];
    if (!(name in newProps))
      out.push({ kind: "removed", name, message: `removed: ${role} \`${name}\` of ${what}` });
    else if (was !== now) {
      const message = `changed type: ${role} \`${name}\` of ${what}: ${was} → ${now}`;
      out.push({ kind: "changed type", name, message });
    }
  }
  for (const name of role === "input" ? newRequired : []) {
    if (oldRequired.has(name)) continue;
    const message = `new required input: \`${name}\` of ${what}${name in oldProps ? " (was optional)" : ""}`;
    out.push({ kind: "new required input", name, message });
  }
  for (const name of role === "output" ? oldRequired : []) {
    if (newRequired.has(name) || !(name in newProps)) continue;
    const message = `changed type: output \`${name}\` of ${what} is no longer always set (required → optional)`;
    out.push({ kind: "changed type", name, message });
  }
}

/** Each entry of a section of the old schema with the new one's of its token; one the new lacks is a removal. */
function* keptEntries<T>(
  kind: string,
  before: Record<string, T> | undefined,
  after: Record<string, T> | undefined,
  out: Break[],
): Generator<[token: string, before: T, after: T]> {
  for (const [token, old] of Object.entries(before ?? {})) {
    const now = after?.[token];
    if (now) yield [token, old, now];
    else out.push({ kind: "removed", name: short(token), message: `removed: ${kind} ${token}` });
  }
}

/** The inputs of a resource or of the provider, as a property map with its required list. */
const inputsOf = (r?: ResourceSpec) => ({ properties: r?.inputProperties, required: r?.requiredInputs });

/** Every breaking change from `before` to `after` (see the header for what counts). */
export function compareSchemas(before: PackageSchema, after: PackageSchema): Break[] {
  const out: Break[] = [];

  for (const [token, oldRes, newRes] of keptEntries("resource", before.resources, after.resources, out)) {
    const what = `resource ${token}`;
    compareProperties(what, "input", inputsOf(oldRes), inputsOf(newRes), out);
    compareProperties(what, "output", oldRes, newRes, out);
  }

  for (const [token, oldFn, newFn] of keptEntries("function", before.functions, after.functions, out)) {
    const what = `function ${token}`;
    compareProperties(what, "input", oldFn.inputs ?? {}, newFn.inputs ?? {}, out);
    compareProperties(what, "output", oldFn.outputs ?? {}, newFn.outputs ?? {}, out);
  }

  const config = (s: PackageSchema) => ({ properties: s.config?.variables, required: s.config?.defaults });
  compareProperties("the provider's config (config.variables)", "input", config(before), config(after), out);
  const provider = [inputsOf(before.provider), inputsOf(after.provider)] as const;
  compareProperties("the provider's inputs", "input", ...provider, out);

  // Types: a new required property breaks a type used by inputs, a property no longer always set
  // breaks a type used by outputs (the new schema's uses); removed and retyped properties break either.
  const inputTypes = reachable(after, inputRoots(after));
  const outputTypes = reachable(after, outputRoots(after));
  for (const [token, oldType, newType] of keptEntries("type", before.types, after.types, out)) {
    const what = `type ${token}`;
    if (oldType.enum) {
      const values = new Set((newType.enum ?? []).map((e) => JSON.stringify(e.value)));
      for (const e of oldType.enum) {
        const message = `removed: value ${JSON.stringify(e.value)} of enum ${token}`;
        if (!values.has(JSON.stringify(e.value)))
          out.push({ kind: "removed", name: e.name ?? String(e.value), message });
      }
      continue;
    }
    compareProperties(what, "property", oldType, newType, out);
    // Only the required lists here: removed and retyped properties are reported above.
    if (inputTypes.has(token)) compareProperties(what, "input", { required: oldType.required }, newType, out);
    if (outputTypes.has(token))
      compareProperties(what, "output", { required: oldType.required }, newType, out);
  }
  return out;
}

/** A version `major.minor.patch[-pre]` as numbers; undefined when it is not one. */
export function parseVersion(v: string): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Below, equal to or above 0 as version `a` is below, equal to or above version `b` (major, minor, patch only). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a)!, parseVersion(b)!];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** Whether going from `from` to `to` may break: a higher major, or below 1.0.0 a higher minor. */
export function isMajorBump(from: string, to: string): boolean {
  const [a, b] = [parseVersion(from), parseVersion(to)];
  if (!a || !b) return false;
  if (b[0] !== a[0]) return b[0] > a[0];
  return a[0] === 0 && b[1] > a[1];
}

/**
 * The text under the `### …breaking…` heading(s) of the CHANGELOG section of `version` (the `## ` heading
 * whose first word is the version, brackets and a `v` allowed, to the next `## `); undefined without one.
 */
export function breakingNotes(changelog: string, version: string): string | undefined {
  const lines = changelog.split(/\r?\n/);
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const heading = new RegExp(`^##\\s+\\[?v?${escaped}\\]?(?=\\s|$)`);
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^##\s/.test(line));
  let [inBreaking, found] = [false, false];
  const notes = lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => {
    const h3 = /^###\s/.test(line);
    if (h3) inBreaking = /\bbreaking\b/i.test(line);
    found ||= inBreaking;
    return !h3 && inBreaking;
  });
  return found ? notes.join("\n") : undefined;
}

/** Whether `notes` name `name` in backticks: `` `name` `` or inside a longer span (`` `Network.name` ``). */
export function namedIn(notes: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\`[^\`\\n]*(?<![\\w$])${escaped}(?![\\w$])[^\`\\n]*\``).test(notes);
}

/** What the check decides, with the lines to print. */
export type Verdict = { ok: boolean; breaks: Break[]; lines: string[] };

/** The rule (see the header) on the breaks from the schema of `releasedVersion` to `version`'s, and the CHANGELOG. */
export function decide(input: {
  released: PackageSchema;
  releasedVersion: string;
  current: PackageSchema;
  version: string;
  changelog: string;
  /** How to call the current schema in messages (default `schema.json`). */
  schemaName?: string;
}): Verdict {
  const { releasedVersion: from, version } = input;
  const breaks = compareSchemas(input.released, input.current);
  const against = `${input.schemaName ?? "schema.json"} (version ${version}) against the released schema ${from}`;
  if (breaks.length === 0) {
    const line = `${against}: compatible (no resource, function or property removed or changed, no new required input).`;
    return { ok: true, breaks, lines: [line] };
  }
  const notes = breakingNotes(input.changelog, version);
  const unnamed = [
    ...new Set(breaks.filter((b) => !namedIn(notes ?? "", b.name)).map((b) => `\`${b.name}\``)),
  ];
  const major = parseVersion(from)?.[0] === 0 ? "a minor or major" : "a major";
  const refusal = !isMajorBump(from, version)
    ? `A breaking change needs ${major} version bump over ${from} in package.json (it is ${version}) ` +
      `and a "### … breaking …" heading in the CHANGELOG section of that version naming each change; ` +
      `or keep the schema compatible (add, do not remove or retype).`
    : notes === undefined
      ? `${version} is a major bump over ${from}, but CHANGELOG.md has no "## ${version}" section ` +
        `with a "### … breaking …" heading (e.g. "### Changed (breaking)"): add it, naming each change.`
      : unnamed.length > 0
        ? `The breaking section of ${version} in CHANGELOG.md does not name (in backticks) ` +
          `${unnamed.join(", ")}: say what broke and what users do about it.`
        : undefined;
  const listed = breaks.map((b) => `  ${b.message}`);
  const head = `${against}: ${breaks.length} breaking change(s)`;
  if (refusal) return { ok: false, breaks, lines: [`${head}:`, ...listed, refusal] };
  const allowed = `${head}, allowed: ${version} is a major bump over ${from} and CHANGELOG.md's breaking section of ${version} names each:`;
  return { ok: true, breaks, lines: [allowed, ...listed] };
}

/** The released schemas in `dir`: `<version>.json` files, highest version first. */
export function releasedSchemas(dir: string): Array<{ version: string; file: string }> {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  return files
    .filter((f) => f.endsWith(".json") && parseVersion(f.slice(0, -".json".length)))
    .map((f) => ({ version: f.slice(0, -".json".length), file: path.join(dir, f) }))
    .sort((a, b) => compareVersions(b.version, a.version));
}

/** Runs the check on files (see the header's options); returns the exit status. */
export function main(args: string[], log = console.log, error = console.error): number {
  try {
    const { values: files } = parseArgs({
      args,
      options: {
        schema: { type: "string", default: "schema.json" },
        released: { type: "string", default: path.join("schema", "released") },
        package: { type: "string", default: "package.json" },
        changelog: { type: "string", default: "CHANGELOG.md" },
      },
    });
    const version = String(JSON.parse(fs.readFileSync(files.package, "utf8")).version);
    if (!parseVersion(version))
      throw new Error(`${files.package}: version ${version} is not major.minor.patch`);
    const released = releasedSchemas(files.released);
    if (released.length === 0) throw new Error(`no released schema (<version>.json) in ${files.released}`);
    const baseline = released.find((r) => compareVersions(r.version, version) <= 0);
    if (!baseline)
      throw new Error(`${files.package} says ${version}, below every released schema in ${files.released}`);
    const verdict = decide({
      released: JSON.parse(fs.readFileSync(baseline.file, "utf8")),
      releasedVersion: baseline.version,
      current: JSON.parse(fs.readFileSync(files.schema, "utf8")),
      version,
      changelog: fs.existsSync(files.changelog) ? fs.readFileSync(files.changelog, "utf8") : "",
      schemaName: files.schema,
    });
    (verdict.ok ? log : error)(verdict.lines.join("\n"));
    return verdict.ok ? 0 : 1;
  } catch (e) {
    error(`schema:compat: ${(e as Error).message}`);
    return 2;
  }
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
