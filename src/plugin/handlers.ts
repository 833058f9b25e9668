/** What the plugin does for each call of the provider protocol, on property maps: the provider core's methods, plus config, secrets per field and import. */
import * as fs from "fs";
import * as path from "path";
import { invalidInput } from "../api/errors";
import { unknownProperties } from "../model/rules";
import { engineLog, readProviderConfig, setProviderConfig } from "../provider/calls";
import { FUNCTION_TOKENS, kindOfToken, type AnyKind } from "../provider/kinds";
import { kindOf, type Diff } from "../provider/checks";
import { secretOutputs } from "../provider/table";
import { toNodeResult } from "../provider/node-views";
import {
  GET_NODE_ARG_NAMES,
  GET_NODE_CONNECTIONS_ARG_NAMES,
  GET_NODES_ARG_NAMES,
  listNodes,
  nodeConnections,
  readNode,
  type Connect,
  type GetNodeArgs,
  type GetNodeConnectionsArgs,
  type GetNodesArgs,
} from "../functions/lookups";
import { camelSpelling, snakeSpelling, type Spelling, type VerifyHost } from "../functions/verify";
import { configKey, inspectCall, SETTING_NAMES, unknownSettings, withClient } from "../settings";
import { PropertyMap, revealProps, sealProps, secret, UNKNOWN } from "./properties";

/** A `check` failure: the property (may be `""`) and why. */
export type Failure = { property: string; reason: string };

/** What `diff` answers: the provider core's `Diff`, for the resources and the provider's config alike. */
export type { Diff } from "../provider";

const resourceKind = (urn: string): AnyKind => kindOfToken(typeOfUrn(urn));

/** The type token in a resource URN (`urn:pulumi:stack::project::type::name`). */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts.length >= 4 ? parts[2] : "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

let configUnknown = false;

/**
 * Checks the provider's config with the resources' own checks. A failure names no property (the
 * engine would print its value, which may be a key); the key always goes back as a secret.
 */
export function checkConfig(news: PropertyMap): { inputs: PropertyMap; failures: Failure[] } {
  const { props } = revealProps(news);
  const failures: Failure[] = [
    ...unknownSettings(props, ENGINE_CONFIG_NAMES).map((u) => ({ property: u.name, reason: u.reason })),
    // Only the values given (none missing): the config being checked is these inputs.
    ...inspectCall(props, undefined, {}).problems.filter((p) => !p.missing),
  ].map(unnamed);
  const { apiKey } = props;
  let inputs = apiKey !== undefined && apiKey !== UNKNOWN ? { ...news, apiKey: secret(news.apiKey) } : news;
  // A refused apiUrl may be a key pasted in the wrong place: never handed back in plain text.
  const urlRefused = failures.some((f) => f.reason.startsWith("apiUrl:"));
  if (urlRefused && props.apiUrl !== undefined && props.apiUrl !== UNKNOWN)
    inputs = { ...inputs, apiUrl: secret(news.apiUrl) };
  return { inputs, failures };
}

/** A failure naming no property, its reason naming it instead (see {@link checkConfig}). */
function unnamed({ property, reason }: Failure): Failure {
  return {
    property: "",
    reason: !property || reason.startsWith(`${property}:`) ? reason : `${property}: ${reason}`,
  };
}

/** What the engine adds to a provider's config besides its settings. */
const ENGINE_CONFIG_NAMES = ["version", "pluginDownloadURL"];

/** Compares two configs: a new URL or key updates the provider in place, never replaces a resource. */
export function diffConfig(olds: PropertyMap, news: PropertyMap): Diff {
  const o = revealProps(olds).props;
  const n = revealProps(news).props;
  const diffs = ["apiUrl", "apiKey"].filter((k) => (o[k] ?? undefined) !== (n[k] ?? undefined));
  const detailedDiff: Diff["detailedDiff"] = {};
  for (const k of diffs) detailedDiff[k] = { kind: kindOf(o[k], n[k], false), inputDiff: true };
  return { changes: diffs.length > 0, replaces: [], deleteBeforeReplace: false, diffs, detailedDiff };
}

/** Takes the provider's config: arguments `args`, else the legacy `variables` (`blockchain:config:apiKey`). */
export function configure(args: PropertyMap, variables: Record<string, string> = {}): void {
  const { props } = revealProps(args);
  const value = (key: string) => {
    const v = props[key] ?? variables[`blockchain:config:${key}`];
    return typeof v === "number" ? String(v) : typeof v === "string" ? v : undefined;
  };
  // Numbers in YAML, strings in config.
  const values = Object.fromEntries(SETTING_NAMES.map((name) => [configKey(name), value(name)]));
  configUnknown = Object.values(values).includes(UNKNOWN);
  setProviderConfig((fullKey) => (values[fullKey] === UNKNOWN ? undefined : values[fullKey]));
}

/** `check` of a resource: the shared check; the inputs go back with the secrets they came with. */
export async function check(urn: string, olds: PropertyMap, news: PropertyMap) {
  const kind = resourceKind(urn);
  const input = revealProps(news);
  // A provider config not known yet (preview): its settings count as unknown, as unknown arguments do.
  const probe = configUnknown ? { ...input.props, apiUrl: UNKNOWN, apiKey: UNKNOWN } : input.props;
  const result = await kind.methods.check(revealProps(olds).props, probe);
  const inputs = { ...(result.inputs as PropertyMap) };
  if (configUnknown) for (const k of ["apiUrl", "apiKey"]) inputs[k] = input.props[k];
  // Only the inputs of the schema are named; any other (a mistyped name, apiKey) may hold a key.
  const named = (p: string) => Object.hasOwn(kind.properties, p) && kind.properties[p].schema !== false;
  const failures = result.failures.map((f) => (named(f.property) ? f : unnamed(f)));
  return { inputs: sealProps(inputs, [...input.secretKeys, "apiKey"]), failures };
}

/** `diff` of a resource: the shared diff, always explicit. */
export async function diff(urn: string, id: string, olds: PropertyMap, news: PropertyMap): Promise<Diff> {
  return resourceKind(urn).methods.diff(id, revealProps(olds).props, revealProps(news).props);
}

/** Outputs to send: the kind's secret outputs and every output whose input was secret, wrapped. */
function sealOutputs(kind: AnyKind, outs: unknown, secretInputs: Set<string>): PropertyMap {
  return sealProps(outs as PropertyMap, [...secretOutputs(kind.properties), ...secretInputs]);
}

export async function create(urn: string, news: PropertyMap) {
  const kind = resourceKind(urn);
  const input = revealProps(news);
  const { id, outs } = await kind.methods.create(input.props);
  return { id, props: sealOutputs(kind, outs, input.secretKeys) };
}

/** `read` of a resource; with no prior state (`pulumi import`), the kind's import read. */
export async function read(urn: string, id: string, props: PropertyMap, inputs: PropertyMap) {
  const kind = resourceKind(urn);
  const state = revealProps(props);
  const old = revealProps(inputs);
  const hasState = Object.keys(state.props).length > 0;
  const result =
    !hasState && Object.keys(old.props).length === 0
      ? await kind.importing.pluginRead(id, kind.methods.read)
      : await kind.methods.read(id, hasState ? state.props : old.props);
  const secrets = new Set([...state.secretKeys, ...old.secretKeys]);
  return {
    id: result.id ?? "",
    props: result.id ? sealOutputs(kind, result.props ?? {}, secrets) : {},
    inputs:
      result.id && result.inputs
        ? sealProps(result.inputs as PropertyMap, [...old.secretKeys, "apiKey"])
        : undefined,
  };
}

export async function update(urn: string, id: string, olds: PropertyMap, news: PropertyMap) {
  const kind = resourceKind(urn);
  const input = revealProps(news);
  const { outs } = await kind.methods.update(id, revealProps(olds).props, input.props);
  return { props: sealOutputs(kind, outs ?? {}, input.secretKeys) };
}

export async function remove(urn: string, id: string, props: PropertyMap): Promise<void> {
  await resourceKind(urn).methods.delete(id, revealProps(props).props);
}

const FUNCTION_ARGS: Record<string, readonly string[]> = {
  [FUNCTION_TOKENS.getNode]: GET_NODE_ARG_NAMES,
  [FUNCTION_TOKENS.getNodes]: GET_NODES_ARG_NAMES,
  [FUNCTION_TOKENS.getNodeConnections]: GET_NODE_CONNECTIONS_ARG_NAMES,
};

const connect: Connect = (args, use) => withClient(args, readProviderConfig, use);

/** A key as the schema spells it: Python sends a dict argument's keys as written (`timeout_seconds`). */
const camel = (key: string) => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The `runtime` of a `Pulumi.yaml`'s text: `runtime: python` or `runtime: { name: python }` (also
 * as a block); undefined when it names none.
 */
export function runtimeOf(projectYaml: string): string | undefined {
  const lines = projectYaml.split(/\r?\n/);
  const at = lines.findIndex((l) => /^runtime\s*:/.test(l));
  if (at < 0) return undefined;
  const word = (text: string) => /^\s*["']?([\w.-]+)/.exec(text)?.[1];
  const inline = lines[at]
    .replace(/^runtime\s*:/, "")
    .replace(/\s#.*$/, "")
    .trim();
  if (inline.startsWith("{")) return word(/[{,]\s*name\s*:(.*)/.exec(inline)?.[1] ?? "");
  if (inline) return word(inline);
  for (const line of lines.slice(at + 1)) {
    if (/^\S/.test(line)) return undefined;
    const name = /^\s+name\s*:(.*)/.exec(line);
    if (name) return word(name[1]);
  }
  return undefined;
}

/**
 * How the program's language spells the functions' arguments: the engine starts the plugin in
 * the program's folder (or its `main` folder below), whose `Pulumi.yaml` names the runtime;
 * `python` spells them in snake_case, every other language as the schema does.
 */
export function programSpelling(dir: string = process.cwd()): Spelling {
  for (let d = path.resolve(dir), up = 0; up < 8; d = path.dirname(d), up++) {
    for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(d, file), "utf8");
      } catch {
        continue;
      }
      return runtimeOf(text) === "python" ? snakeSpelling : camelSpelling;
    }
    if (path.dirname(d) === d) break;
  }
  return camelSpelling;
}

let spelling: Spelling | undefined;

/** The plugin's host for `verify`: the program's spelling, and a healthy set's warning through the engine's log. */
const verifyHost: VerifyHost = {
  spell: (name) => (spelling ??= programSpelling())(name),
  warn: (message) => engineLog("warning", message),
};

/** `invoke` of a function; `getNodeConnections`'s `connections` are wrapped as a secret. */
export async function invoke(tok: string, args: PropertyMap): Promise<PropertyMap> {
  const plain = revealProps(args).props;
  for (const name of ["waitFor", "verify"]) {
    const value = plain[name];
    if (value && typeof value === "object" && !Array.isArray(value))
      plain[name] = Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), v]));
  }
  const known = FUNCTION_ARGS[tok];
  const problems = known ? unknownProperties(plain, known, "argument") : [];
  if (problems.length > 0) throw invalidInput(tok.split(":").pop() ?? tok, problems);
  switch (tok) {
    case FUNCTION_TOKENS.getNode:
      return sealProps(
        { ...toNodeResult(await readNode("getNode", plain as unknown as GetNodeArgs, connect, verifyHost)) },
        [],
      );
    case FUNCTION_TOKENS.getNodes: {
      const nodes = await listNodes("getNodes", plain as GetNodesArgs, connect, verifyHost);
      return sealProps({ nodes: nodes.map(toNodeResult) }, []);
    }
    case FUNCTION_TOKENS.getNodeConnections: {
      const connections = await nodeConnections(
        "getNodeConnections",
        plain as GetNodeConnectionsArgs,
        (a) => listNodes("getNodeConnections", a, connect, verifyHost),
        (a) => readNode("getNodeConnections", a, connect, verifyHost),
      );
      return sealProps({ connections }, ["connections"]);
    }
    default:
      throw new Error(
        `unknown function ${tok}: this plugin serves ${Object.values(FUNCTION_TOKENS).join(", ")}`,
      );
  }
}
