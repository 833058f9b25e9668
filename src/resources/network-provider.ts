import type { NetworkInfo, NetworkUpdate, Node } from "../api";
import { compact, invalidInput, isApiError } from "../api";
import { checkId, checkNetworkName, Problem, validateNetworkUpdate } from "../model";
import { ConnectionArgs, UNKNOWN, withClient } from "../settings";
import { Checked, checkCredentialInputs, describeError, toFailures, UncheckedInputs } from "./checks";
import { readProviderConfig } from "./provider-config";

/** Inputs of the Network resource as the provider receives them (plain values). */
export interface NetworkInputs {
  networkId: string;
  name?: string;
  project?: string;
  apiUrl?: string;
  apiKey?: string;
}

/** A node as stored in the Network resource's `nodes` output (secret as a whole). */
export type NetworkNodeState = Node;

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
  nodes: NetworkNodeState[];
  apiUrl?: string;
  apiKey?: string;
}

/** Properties whose change replaces the resource. */
export const NETWORK_REPLACE_PROPERTIES = ["networkId"] as const;
/** Properties updated in place. */
export const NETWORK_UPDATE_PROPERTIES = ["name", "project", "apiUrl", "apiKey"] as const;

function outputsOf(network: NetworkInfo, inputs: ConnectionArgs): NetworkOutputs {
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
    nodes: network.nodes,
    apiUrl: inputs.apiUrl,
    apiKey: inputs.apiKey,
  });
}

/** The model's problems with known `networkId`, `name` and `project` inputs. */
function inputProblems(news: UncheckedInputs<NetworkInputs>): Problem[] {
  const problems: Problem[] = [];
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
 * `check`: validates inputs with the model; unknown values (preview) are accepted as they are.
 * The inputs are handed back unchanged: with no failure, they are valid {@link NetworkInputs}.
 */
export async function checkNetwork(
  _olds: unknown,
  news: UncheckedInputs<NetworkInputs>,
): Promise<Checked<NetworkInputs>> {
  const failures = [...toFailures(inputProblems(news)), ...checkCredentialInputs(news)];
  return { inputs: news as NetworkInputs, failures };
}

/** `diff`: always answers `changes` explicitly; `networkId` replaces, the rest updates in place. */
export async function diffNetwork(
  _id: string,
  olds: NetworkOutputs,
  news: NetworkInputs,
): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean; diffs: string[] }> {
  const replaces = NETWORK_REPLACE_PROPERTIES.filter((k) => news[k] !== olds[k]);
  const diffs = NETWORK_UPDATE_PROPERTIES.filter((k) => {
    if (k === "name" || k === "project") return news[k] !== undefined && news[k] !== olds[k];
    return (news[k] ?? undefined) !== (olds[k] ?? undefined);
  });
  const changed = [...replaces, ...diffs];
  // Adopting another network never deletes the first before the second is adopted.
  return { changes: changed.length > 0, replaces: [...replaces], deleteBeforeReplace: false, diffs: changed };
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
    return { id: network.id, outs: outputsOf(network, inputs) };
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
 * `read`: the current network. When it is gone, an empty id (so refresh drops it from state) and
 * no properties. `props` may be missing (a read without prior state): the settings then come from
 * the stack config or the environment.
 */
export async function readNetwork(
  id: string,
  props: NetworkOutputs | undefined,
): Promise<{ id: string; props: NetworkOutputs }> {
  const connection: ConnectionArgs = props ?? {};
  try {
    const network = await withClient(connection, readProviderConfig, (client) => client.readNetwork(id));
    return { id: network.id, props: outputsOf(network, connection) };
  } catch (err) {
    // The engine reads an empty id as "gone"; the properties of a gone resource are not read.
    if (isApiError(err) && err.kind === "not_found") return { id: "", props: {} as NetworkOutputs };
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
    return { outs: outputsOf(network, news) };
  } catch (err) {
    throw describeError(err, "updating network", id);
  }
}

/** `delete`: DELETE; a 404 counts as already gone; a refusal keeps the resource and says what to do. */
export async function deleteNetwork(id: string, props: NetworkOutputs): Promise<void> {
  try {
    await withClient(props, readProviderConfig, (client) => client.deleteNetwork(id));
  } catch (err) {
    // The refusal's status is not documented: 409 or 400 are both plausible.
    if (isApiError(err) && (err.kind === "conflict" || err.kind === "validation")) {
      throw describeError(
        err,
        "deleting network",
        id,
        "The service refuses to delete a network that still has nodes: delete its nodes in the service's console first, " +
          "or keep the network and stop managing it (set `retainOnDelete: true` on the resource, or run `pulumi state delete <urn>`).",
      );
    }
    throw describeError(err, "deleting network", id);
  }
}
