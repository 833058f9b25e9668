/**
 * What the `blockchain` plugin does for each call of the provider protocol, in plain values
 * (property maps as {@link PropertyMap}, secrets wrapped as the protocol wraps them). The
 * resources run the very check, diff, create, read, update and delete of the dynamic providers;
 * the functions run the TypeScript functions' fetches. Only the protocol's own concerns live
 * here: provider config, secrets per field, import. `./server.ts` maps gRPC onto it.
 */
import { invalidInput, toNodeResult } from "../api";
import { unknownProperties } from "../model";
import { GET_NODE_ARG_NAMES, GET_NODE_CONNECTIONS_ARG_NAMES, GET_NODES_ARG_NAMES } from "../functions/args";
import type { GetNodeConnectionsArgs, GetNodeArgs, GetNodesArgs } from "../functions";
import { Connect, listNodes, nodeConnections, readNode } from "../functions/fetch";
import {
  checkFaucetDrip,
  createFaucetDrip,
  deleteFaucetDrip,
  diffFaucetDrip,
  readFaucetDrip,
  updateFaucetDrip,
} from "../resources/faucet-drip-provider";
import {
  checkNetwork,
  createNetwork,
  deleteNetwork,
  diffNetwork,
  readNetwork,
  updateNetwork,
} from "../resources/network-provider";
import {
  checkCallSettings,
  checkCredentialInputs,
  kindOf,
  toFailures,
  type PropertyDiff,
} from "../resources/checks";
import { readProviderConfig, setProviderConfig } from "../resources/provider-config";
import { CALL_SETTINGS, CALL_SETTING_NAMES, CONFIG_API_KEY, CONFIG_API_URL, withClient } from "../settings";
import { PropertyMap, revealProps, sealProps, secret, UNKNOWN } from "./properties";
import { TOKENS } from "./tokens";

/** A `check` failure: the property (may be `""`) and why. */
export interface Failure {
  property: string;
  reason: string;
}

/** How a property changes in a diff (the engine's kinds). */
export type DiffKind = PropertyDiff["kind"];

/** What `diff` answers. */
export interface Diff {
  changes: boolean | undefined;
  replaces: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
  detailedDiff: Record<string, PropertyDiff>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the providers' own types are checked where they are defined */
interface Kind {
  check(olds: any, news: any): Promise<{ inputs: any; failures: Failure[] }>;
  diff(id: string, olds: any, news: any): Promise<Partial<Diff>>;
  create(inputs: any): Promise<{ id: string; outs: any }>;
  read(id: string, props: any): Promise<{ id?: string; props?: any; inputs?: any }>;
  update(id: string, olds: any, news: any): Promise<{ outs?: any }>;
  delete(id: string, props: any): Promise<void>;
  /** Outputs that are always secret. */
  secretOutputs: readonly string[];
  /** Answers a `read` with no prior state: what `pulumi import` sends. */
  importRead(id: string): Promise<{ id: string; props: PropertyMap; inputs: PropertyMap }>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const KINDS: Record<string, Kind> = {
  [TOKENS.network]: {
    check: checkNetwork,
    diff: diffNetwork,
    create: createNetwork,
    read: readNetwork,
    update: updateNetwork,
    delete: deleteNetwork,
    secretOutputs: ["connections", "apiKey"],
    // Adopted with no managed input: the imported program sets `networkId` only, so its preview
    // shows no change; `name` or `project` added later are managed from then on.
    async importRead(id) {
      const read = await readNetwork(id, { managedInputs: [] } as never);
      if (!read.id) {
        throw new Error(
          `Network ${id}: cannot import it: the service answered 404 (it does not exist, or this API key's ` +
            `organization cannot see it). Check the id, and the provider's apiKey.`,
        );
      }
      return { id: read.id, props: read.props as never, inputs: { networkId: read.id } };
    },
  },
  [TOKENS.faucetDrip]: {
    check: checkFaucetDrip,
    diff: diffFaucetDrip,
    create: createFaucetDrip,
    read: readFaucetDrip,
    update: updateFaucetDrip,
    delete: deleteFaucetDrip,
    secretOutputs: ["apiKey"],
    async importRead(id) {
      throw new Error(
        `FaucetDrip ${id}: a faucet request cannot be imported: the service has no call that reads one. ` +
          `Declare a FaucetDrip instead; it records the request it makes when it is created.`,
      );
    },
  },
};

/** The kind of a resource token; an unknown token is an error naming the ones served. */
function resourceKind(type: string): Kind {
  const kind = Object.hasOwn(KINDS, type) ? KINDS[type] : undefined;
  if (!kind)
    throw new Error(`unknown resource type ${type}: this plugin serves ${Object.keys(KINDS).join(", ")}`);
  return kind;
}

/** The type token in a resource URN (`urn:pulumi:stack::project::type::name`). */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts.length >= 4 ? parts[2] : "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** Whether the provider's config holds a value not known yet (preview). */
let configUnknown = false;

/**
 * Checks the provider's config (`apiUrl`, `apiKey`) with the resources' own checks of those
 * arguments; the inputs go back as they came, but the key always a secret, so that state stores
 * it encrypted even when the program passed it in plain text.
 */
export function checkConfig(news: PropertyMap): { inputs: PropertyMap; failures: Failure[] } {
  const { props } = revealProps(news);
  const { apiKey } = props;
  const failures: Failure[] = [
    ...toFailures(unknownProperties(props, PROVIDER_CONFIG_NAMES, "provider setting")),
    ...checkCredentialInputs(props),
    // Only the values given: the config being checked is these inputs.
    ...checkCallSettings(props, undefined, {}),
  ];
  let inputs = apiKey !== undefined && apiKey !== UNKNOWN ? { ...news, apiKey: secret(news.apiKey) } : news;
  // A refused apiUrl may be a key pasted in the wrong place: never handed back in plain text.
  if (failures.some((f) => f.property === "apiUrl") && props.apiUrl !== undefined && props.apiUrl !== UNKNOWN)
    inputs = { ...inputs, apiUrl: secret(news.apiUrl) };
  return { inputs, failures };
}

/** The provider's settings, and what the engine adds to a provider's inputs (`version`, ...). */
const PROVIDER_CONFIG_NAMES = ["apiUrl", "apiKey", ...CALL_SETTING_NAMES, "version", "pluginDownloadURL"];

/** Compares two configs: a new URL or key updates the provider in place, never replaces a resource. */
export function diffConfig(olds: PropertyMap, news: PropertyMap): Diff {
  const o = revealProps(olds).props;
  const n = revealProps(news).props;
  const diffs = ["apiUrl", "apiKey"].filter((k) => (o[k] ?? undefined) !== (n[k] ?? undefined));
  const detailedDiff: Diff["detailedDiff"] = {};
  for (const k of diffs) {
    detailedDiff[k] = {
      kind: kindOf(o[k], n[k], false),
      inputDiff: true,
    };
  }
  return { changes: diffs.length > 0, replaces: [], deleteBeforeReplace: false, diffs, detailedDiff };
}

/**
 * Takes the provider's config (stack config `blockchain:*` for the default provider, the inputs of
 * an explicit provider): arguments `args`, else the legacy `variables` (`blockchain:config:apiKey`).
 */
export function configure(args: PropertyMap, variables: Record<string, string> = {}): void {
  const { props } = revealProps(args);
  const value = (key: string) => {
    const v = props[key] ?? variables[`blockchain:config:${key}`];
    return typeof v === "string" ? v : undefined;
  };
  const values: Record<string, string | undefined> = {
    [CONFIG_API_URL]: value("apiUrl"),
    [CONFIG_API_KEY]: value("apiKey"),
  };
  // The call limits (`timeoutMs`, `deadlineMs`, `maxRetries`): numbers in YAML, strings in config.
  for (const name of CALL_SETTING_NAMES) {
    const v = props[name] ?? variables[`blockchain:config:${name}`];
    values[CALL_SETTINGS[name].config] =
      typeof v === "number" ? String(v) : typeof v === "string" ? v : undefined;
  }
  configUnknown = Object.values(values).includes(UNKNOWN);
  setProviderConfig((fullKey) => (values[fullKey] === UNKNOWN ? undefined : values[fullKey]));
}

/** `check` of a resource: the shared check; the inputs go back with the secrets they came with. */
export async function check(urn: string, olds: PropertyMap, news: PropertyMap) {
  const kind = resourceKind(typeOfUrn(urn));
  const input = revealProps(news);
  // A provider config not known yet (preview): its settings count as unknown, as unknown arguments do.
  const probe = configUnknown ? { ...input.props, apiUrl: UNKNOWN, apiKey: UNKNOWN } : input.props;
  const result = await kind.check(revealProps(olds).props, probe);
  const inputs = { ...(result.inputs as PropertyMap) };
  if (configUnknown) for (const k of ["apiUrl", "apiKey"]) inputs[k] = input.props[k];
  return { inputs: sealProps(inputs, [...input.secretKeys, "apiKey"]), failures: result.failures };
}

/** `diff` of a resource: the shared diff, always explicit. */
export async function diff(urn: string, id: string, olds: PropertyMap, news: PropertyMap): Promise<Diff> {
  const d = await resourceKind(typeOfUrn(urn)).diff(id, revealProps(olds).props, revealProps(news).props);
  return {
    changes: d.changes,
    replaces: d.replaces ?? [],
    deleteBeforeReplace: d.deleteBeforeReplace ?? false,
    diffs: d.diffs ?? Object.keys(d.detailedDiff ?? {}),
    detailedDiff: d.detailedDiff ?? {},
  };
}

/** Outputs to send: the kind's secret outputs and every output whose input was secret, wrapped. */
function sealOutputs(kind: Kind, outs: PropertyMap, secretInputs: Set<string>): PropertyMap {
  return sealProps(outs, [...kind.secretOutputs, ...secretInputs]);
}

/** `create` of a resource. */
export async function create(urn: string, news: PropertyMap) {
  const kind = resourceKind(typeOfUrn(urn));
  const input = revealProps(news);
  const { id, outs } = await kind.create(input.props);
  return { id, props: sealOutputs(kind, outs, input.secretKeys) };
}

/**
 * `read` of a resource (refresh, `get`, import). With no prior state (`pulumi import`), the
 * kind's import read: the current resource and the inputs that reproduce it.
 */
export async function read(urn: string, id: string, props: PropertyMap, inputs: PropertyMap) {
  const kind = resourceKind(typeOfUrn(urn));
  const state = revealProps(props);
  const old = revealProps(inputs);
  const hasState = Object.keys(state.props).length > 0;
  const result =
    !hasState && Object.keys(old.props).length === 0
      ? await kind.importRead(id)
      : await kind.read(id, hasState ? state.props : old.props);
  const secrets = new Set([...state.secretKeys, ...old.secretKeys]);
  return {
    id: result.id ?? "",
    props: result.id ? sealOutputs(kind, result.props ?? {}, secrets) : {},
    inputs: result.id && result.inputs ? sealProps(result.inputs, [...old.secretKeys, "apiKey"]) : undefined,
  };
}

/** `update` of a resource. */
export async function update(urn: string, id: string, olds: PropertyMap, news: PropertyMap) {
  const kind = resourceKind(typeOfUrn(urn));
  const input = revealProps(news);
  const { outs } = await kind.update(id, revealProps(olds).props, input.props);
  return { props: sealOutputs(kind, outs ?? {}, input.secretKeys) };
}

/** `delete` of a resource. */
export async function remove(urn: string, id: string, props: PropertyMap): Promise<void> {
  await resourceKind(typeOfUrn(urn)).delete(id, revealProps(props).props);
}

/** The arguments each function takes (`getNodes` checks its filters too, naming the unknown ones). */
const FUNCTION_ARGS: Record<string, readonly string[]> = {
  [TOKENS.getNode]: GET_NODE_ARG_NAMES,
  [TOKENS.getNodes]: GET_NODES_ARG_NAMES,
  [TOKENS.getNodeConnections]: GET_NODE_CONNECTIONS_ARG_NAMES,
};

/** The functions' path to a client: the provider's config, then the environment. */
const connect: Connect = (args, use) => withClient(args, readProviderConfig, use);

/**
 * `invoke` of a function: node metadata readable (`getNode`, `getNodes`), node connections
 * secret (`getNodeConnections`: the `connections` list is wrapped as a secret).
 */
export async function invoke(tok: string, args: PropertyMap): Promise<PropertyMap> {
  const plain = revealProps(args).props;
  const known = FUNCTION_ARGS[tok];
  const problems = known ? unknownProperties(plain, known, "argument") : [];
  if (problems.length > 0) throw invalidInput(tok.split(":").pop() ?? tok, problems);
  switch (tok) {
    case TOKENS.getNode:
      return sealProps(
        { ...toNodeResult(await readNode("getNode", plain as unknown as GetNodeArgs, connect)) },
        [],
      );
    case TOKENS.getNodes:
      return sealProps(
        { nodes: (await listNodes("getNodes", plain as GetNodesArgs, connect)).map(toNodeResult) },
        [],
      );
    case TOKENS.getNodeConnections: {
      const connections = await nodeConnections(
        "getNodeConnections",
        plain as GetNodeConnectionsArgs,
        (a) => listNodes("getNodeConnections", a, connect),
        (a) => readNode("getNodeConnections", a, connect),
      );
      return sealProps({ connections }, ["connections"]);
    }
    default:
      throw new Error(
        `unknown function ${tok}: this plugin serves ${[TOKENS.getNode, TOKENS.getNodes, TOKENS.getNodeConnections].join(", ")}`,
      );
  }
}
