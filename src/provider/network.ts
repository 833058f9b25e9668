import type { NetworkInfo, NetworkUpdate } from "../api";
import { compact, invalidInput, isApiError } from "../api";
import { checkId, checkNetworkName, Problem, unknownProperties, validateNetworkUpdate } from "../model";
import { ConnectionArgs, UNKNOWN, withClient } from "../settings";
import { engineLog, readProviderConfig } from "./calls";
import {
  Checked,
  checkConnection,
  checkNetworkExists,
  describeError,
  Diff,
  kindOf,
  PropertyDiff,
  toFailures,
  UncheckedInputs,
} from "./checks";
import { toNodeConnection, toNodeResult, type NodeConnection, type NodeResult } from "./node-views";

/** Inputs of the Network resource as the provider receives them (plain values). */
export interface NetworkInputs {
  networkId: string;
  name?: string;
  project?: string;
  apiUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  deadlineMs?: number;
  maxRetries?: number;
}

/** The optional inputs whose values the resource manages when the program sets them. */
export type ManagedInput = "name" | "project";

/** Outputs of the Network resource. */
export interface NetworkOutputs {
  networkId: string;
  name: string;
  project: string;
  protocol: string;
  publicNetwork?: string;
  status: string;
  details: Record<string, unknown>;
  createdAt: string;
  creator?: NetworkInfo["creator"];
  /** The network's nodes: readable metadata and masked endpoints, no secret (the functions' `NodeResult`). */
  nodes: NodeResult[];
  /** The network's nodes' endpoints and credentials; a secret output as a whole. */
  connections: NodeConnection[];
  /**
   * Which of `name` and `project` the program sets (and the resource therefore manages). `read`
   * uses it to hand the engine the current values of exactly those inputs, so that the diff after
   * a refresh shows `old => new`. Missing in state written before it existed.
   */
  managedInputs?: ManagedInput[];
  apiUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  deadlineMs?: number;
  maxRetries?: number;
}

/** Properties whose change replaces the resource. */
export const NETWORK_REPLACE_PROPERTIES = ["networkId"] as const;
/** Properties updated in place. */
export const NETWORK_UPDATE_PROPERTIES = [
  "name",
  "project",
  "apiUrl",
  "apiKey",
  "timeoutMs",
  "deadlineMs",
  "maxRetries",
] as const satisfies readonly (keyof NetworkInputs)[];
/** Every input of a Network, as a program or the plugin passes them. */
export const NETWORK_INPUT_NAMES = [...NETWORK_REPLACE_PROPERTIES, ...NETWORK_UPDATE_PROPERTIES] as const;

/** The optional inputs the program sets. */
function managedInputsOf(inputs: Partial<NetworkInputs>): ManagedInput[] {
  return (["name", "project"] as const).filter((k) => inputs[k] !== undefined);
}

function outputsOf(
  network: NetworkInfo,
  inputs: ConnectionArgs,
  managedInputs: ManagedInput[] | undefined,
): NetworkOutputs {
  return compact<NetworkOutputs>({
    networkId: network.id,
    name: network.name,
    project: network.project,
    protocol: network.protocol,
    publicNetwork: network.publicNetwork,
    status: network.status,
    details: network.details,
    createdAt: network.createdAt,
    creator: network.creator,
    nodes: network.nodes.map(toNodeResult),
    connections: network.nodes.map(toNodeConnection),
    managedInputs,
    apiUrl: inputs.apiUrl,
    apiKey: inputs.apiKey,
    timeoutMs: inputs.timeoutMs,
    deadlineMs: inputs.deadlineMs,
    maxRetries: inputs.maxRetries,
  });
}

/** The model's problems with known `networkId`, `name` and `project` inputs, and unknown inputs. */
function inputProblems(news: UncheckedInputs<NetworkInputs>): Problem[] {
  const problems: Problem[] = unknownProperties(news as Record<string, unknown>, NETWORK_INPUT_NAMES);
  const known = (v: unknown) => v !== undefined && v !== UNKNOWN;
  if (news.networkId !== UNKNOWN) {
    const p = checkId("network", "networkId", news.networkId);
    if (p) problems.push(p);
  }
  if (known(news.name)) {
    const p = checkNetworkName("name", news.name);
    if (p) problems.push(p);
  }
  if (known(news.project)) problems.push(...validateNetworkUpdate({ project: news.project }));
  return problems;
}

/** Refuses invalid inputs before any request (the engine runs `check` first; direct callers may not). */
function requireValidInputs(inputs: NetworkInputs, operation: string): void {
  const problems = inputProblems(inputs);
  if (problems.length > 0) {
    throw invalidInput(operation, problems);
  }
}

/**
 * `check`: validates inputs with the model, and the connection settings wherever they come from
 * (arguments, stack config, environment); when all is valid, checks once per process that the
 * service accepts the API key (see `checkConnection`), and, when `networkId` is new to the stack
 * or changed, that the network exists ({@link checkNetworkExists}). Unknown values (preview) are
 * accepted as they are. The inputs are handed back unchanged: with no failure, they are valid
 * {@link NetworkInputs}.
 */
export async function checkNetwork(
  olds: unknown,
  news: UncheckedInputs<NetworkInputs>,
): Promise<Checked<NetworkInputs>> {
  const failures = toFailures(inputProblems(news));
  failures.push(...(await checkConnection(news, failures)));
  const known = Object.values(news).every((v) => v !== UNKNOWN);
  if (failures.length === 0 && known)
    failures.push(...(await checkNetworkExists(olds, news as NetworkInputs)));
  return { inputs: news as NetworkInputs, failures };
}

/**
 * `diff`: always answers `changes` explicitly; `networkId` replaces, the rest updates in place.
 * `detailedDiff` names every changed property with its kind, against the old outputs (so drift
 * found by a refresh counts), for hosts that pass it on to the engine.
 */
export async function diffNetwork(_id: string, olds: NetworkOutputs, news: NetworkInputs): Promise<Diff> {
  const replaces = NETWORK_REPLACE_PROPERTIES.filter((k) => news[k] !== olds[k]);
  const updates = NETWORK_UPDATE_PROPERTIES.filter((k) => {
    if (k === "name" || k === "project") return news[k] !== undefined && news[k] !== olds[k];
    return (news[k] ?? undefined) !== (olds[k] ?? undefined);
  });
  const detailedDiff: Record<string, PropertyDiff> = {};
  for (const k of replaces) detailedDiff[k] = { kind: kindOf(olds[k], news[k], true), inputDiff: false };
  for (const k of updates) detailedDiff[k] = { kind: kindOf(olds[k], news[k], false), inputDiff: false };
  const changed = [...replaces, ...updates];
  // Adopting another network never deletes the first before the second is adopted.
  return {
    changes: changed.length > 0,
    replaces: [...replaces],
    deleteBeforeReplace: false,
    diffs: changed,
    detailedDiff,
  };
}

/** The `name`/`project` inputs that differ from the network's current values (what a PATCH must send). */
function pendingUpdate(inputs: NetworkInputs, current: { name: string; project: string }): NetworkUpdate {
  const update: NetworkUpdate = {};
  if (inputs.name !== undefined && inputs.name !== current.name) update.name = inputs.name;
  if (inputs.project !== undefined && inputs.project !== current.project) update.project = inputs.project;
  return update;
}

/** `create`: adopts the existing network, applies `name`/`project`, returns full outputs. */
export async function createNetwork(inputs: NetworkInputs): Promise<{ id: string; outs: NetworkOutputs }> {
  requireValidInputs(inputs, "adopting network");
  try {
    const network = await withClient(inputs, readProviderConfig, async (client) => {
      const current = await client.readNetwork(inputs.networkId);
      const update = pendingUpdate(inputs, current);
      return Object.keys(update).length > 0 ? client.updateNetwork(current.id, update) : current;
    });
    return { id: network.id, outs: outputsOf(network, inputs, managedInputsOf(inputs)) };
  } catch (err) {
    if (isApiError(err) && err.kind === "not_found") {
      throw new Error(
        `Network ${inputs.networkId}: cannot adopt it: the service answered 404 (it does not exist, or this API key's ` +
          `organization cannot see it). Networks cannot be created through the API: create it in the service's console, ` +
          `then set networkId to its id.`,
      );
    }
    throw describeError(err, "adopting network", inputs.networkId);
  }
}

/**
 * The inputs a refresh hands back to the engine: the program's inputs as recorded (`networkId`,
 * `apiUrl`, `apiKey`) with the service's current values of the managed ones (`name`,
 * `project`). The engine compares the program's next inputs with these, so that `pulumi preview
 * --diff` after a refresh shows drift as `name: "console-name" => "declared-name"`. Undefined for
 * state that does not say which inputs the program sets: the engine then keeps the old inputs.
 */
function refreshedInputs(outs: NetworkOutputs): NetworkInputs | undefined {
  if (!Array.isArray(outs.managedInputs)) return undefined;
  const inputs: NetworkInputs = { networkId: outs.networkId };
  for (const k of outs.managedInputs) if (k === "name" || k === "project") inputs[k] = outs[k];
  return compact<NetworkInputs>({
    ...inputs,
    apiUrl: outs.apiUrl,
    apiKey: outs.apiKey,
    timeoutMs: outs.timeoutMs,
    deadlineMs: outs.deadlineMs,
    maxRetries: outs.maxRetries,
  });
}

/**
 * `read`: the current network, and the inputs that match it (see {@link refreshedInputs}). When it
 * is gone, an empty id (so refresh drops it from state) and no properties. `props` may be missing
 * (a read without prior state): the settings then come from the stack config or the environment.
 */
export async function readNetwork(
  id: string,
  props: NetworkOutputs | undefined,
): Promise<{ id: string; props: NetworkOutputs; inputs?: NetworkInputs }> {
  const connection: ConnectionArgs = props ?? {};
  try {
    const network = await withClient(connection, readProviderConfig, (client) => client.readNetwork(id));
    const outs = outputsOf(network, connection, props?.managedInputs);
    const inputs = refreshedInputs(outs);
    return inputs ? { id: network.id, props: outs, inputs } : { id: network.id, props: outs };
  } catch (err) {
    // The engine reads an empty id as "gone"; the properties of a gone resource are not read.
    if (isApiError(err) && err.kind === "not_found") {
      if (props !== undefined)
        engineLog("warning", `${id} no longer exists in the service; removed from the stack`);
      return { id: "", props: {} as NetworkOutputs };
    }
    throw describeError(err, "reading network", id);
  }
}

/** `update`: PATCHes only what changed (`name`, `project`). */
export async function updateNetwork(
  id: string,
  olds: NetworkOutputs,
  news: NetworkInputs,
): Promise<{ outs: NetworkOutputs }> {
  requireValidInputs(news, "updating network");
  try {
    const update = pendingUpdate(news, olds);
    const network = await withClient(news, readProviderConfig, (client) =>
      Object.keys(update).length > 0 ? client.updateNetwork(id, update) : client.readNetwork(id),
    );
    return { outs: outputsOf(network, news, managedInputsOf(news)) };
  } catch (err) {
    throw describeError(err, "updating network", id);
  }
}

/**
 * What to do when the service refuses to delete a network that still has nodes. A destroy uses
 * the resource options stored in state, not the program's: `retainOnDelete` added to the program
 * counts once an `up` has stored it, or with `destroy --run-program`.
 */
export const DELETE_REFUSED_HINT =
  "The service refuses to delete a network that still has nodes. Either delete its nodes in the service's console, then run the command again; " +
  "or keep the network and stop managing it, in one of three ways: add `retainOnDelete: true` to the resource's options and run `pulumi up` " +
  "(a destroy uses the options stored in state, so the edit counts only once `up` has stored it), then `pulumi destroy`; " +
  "or, with that edit, run `pulumi destroy --run-program` (it takes the options from the program); " +
  "or remove the network from the stack's state only, with `pulumi state delete '<urn>'` (`pulumi stack --show-urns` lists the URNs).";

/** `delete`: DELETE; a 404 counts as already gone; a refusal keeps the resource and says what to do. */
export async function deleteNetwork(id: string, props: NetworkOutputs): Promise<void> {
  try {
    await withClient(props, readProviderConfig, (client) => client.deleteNetwork(id));
  } catch (err) {
    // The refusal's status is not documented: 409 or 400 are both plausible.
    if (isApiError(err) && (err.kind === "conflict" || err.kind === "validation")) {
      throw describeError(err, "deleting network", id, DELETE_REFUSED_HINT);
    }
    throw describeError(err, "deleting network", id);
  }
}
