import type { NetworkInfo, NetworkUpdate } from "../api/types";
import { invalidInput, isApiError } from "../api/errors";
import { checkId, checkNetworkName, show, unknownProperties, validateNetworkUpdate } from "../model/rules";
import { type CallSettings, ConnectionArgs, SETTING_NAMES, UNKNOWN, withClient } from "../settings";
import { CallInterrupted, engineLog, OutcomeUnknownError, readProviderConfig, resourceLabel } from "./calls";
import { checkConnection, checkNetworkExists, describeError, toFailures } from "./checks";
import type { Checked, Diff, UncheckedInputs } from "./checks";
import { toNodeConnection, toNodeResult } from "./node-views";
import { diffOf, inputNames, managedInputsOf, outputsOf, refreshedInputs, setting } from "./table";
import type { Inputs, Outputs, PropertyTable } from "./table";

/** The properties of a Network (each row's doc is the input's doc; `@output` the output's, where it differs). */
export const NETWORK_PROPERTIES = {
  /**
   * Id of the existing network to adopt (`NW-…`). Networks cannot be created through the
   * service's API; changing this id replaces the resource: the new network is adopted, the old one
   * released untouched (deleted only with `forceDestroy`).
   * @output The network's id.
   */
  networkId: { type: "string", input: "required", output: "required", change: "replace" },
  /**
   * Desired name; updated in place. When omitted, the name is left as it is.
   * @output Current name.
   */
  name: { type: "string", input: "optional", output: "required", change: "update", managed: true },
  /**
   * Desired project id (`PR-…`); the network is moved in place. When omitted, left as it is.
   * @output Project id.
   */
  project: { type: "string", input: "optional", output: "required", change: "update", managed: true },
  /**
   * Delete the network in the service when the resource is destroyed or replaced. Default `false`:
   * the stack never created the network (it adopts one), so destroy and replace leave it in the
   * service and only forget it, as adopt-only resources do (Terraform's `aws_default_vpc`). A
   * change shows in the preview and updates in place; a destroy uses the value in state.
   * @output Whether destroy deletes the network in the service.
   */
  forceDestroy: { type: "boolean", input: "optional", output: "optional", change: "update", absentIs: false },
  /** Protocol, e.g. `ethereum`. */
  protocol: { type: "string", output: "required" },
  /** Public network, e.g. `ethereum-mainnet` (absent when the service does not say). */
  publicNetwork: { type: "string", output: "optional" },
  /** Network status: `pending`, `ok`, `failed`, `warning`, `stopping`, `stopped` or `starting`. */
  status: { type: "string", output: "required" },
  /** Network details object (may be empty). */
  details: { type: "object", output: "required" },
  /** Creation time (ISO 8601). */
  createdAt: { type: "string", output: "required" },
  /** Who created the network. */
  creator: { type: "Creator", output: "optional" },
  /**
   * The network's nodes, the same shape as the functions' results (`getNodes`): readable metadata
   * (id, name, status, region, …) and masked endpoints for display. Not secret: it holds no
   * endpoint URL and no credential; those are in {@link connections}.
   */
  nodes: { type: "NodeResult[]", output: "required" },
  /**
   * The network's nodes' endpoints and credentials (each secret field of a {@link NodeConnection})
   * as plain strings, in an Output that is secret as a whole: every value built from it in an
   * `apply` or a `pulumi.interpolate` stays secret.
   */
  connections: { type: "NodeConnection[]", output: "required", secret: true },
  /**
   * Which managed inputs (`name`, `project`) the program sets: a refresh hands back the current
   * values of exactly those, so that drift shows as `old => new`. Missing in state written before it.
   */
  managedInputs: { type: "string[]", values: ["name", "project"], output: "state" },
  /** API URL; defaults to stack config `blockchain:apiUrl`, then `BLOCKCHAIN_API_URL`. */
  apiUrl: setting("apiUrl", "update", "state"),
  /** API key, always stored as a secret; defaults to `blockchain:apiKey`, then `BLOCKCHAIN_API_KEY`. */
  apiKey: setting("apiKey", "update", "state"),
  /**
   * Per-attempt timeout of each call to the service, ms (default 20000); defaults to stack config
   * `blockchain:timeoutMs`, then `BLOCKCHAIN_TIMEOUT_MS`. A change updates in place.
   */
  timeoutMs: setting("timeoutMs", "update", "optional"),
  /**
   * Overall deadline of each call to the service across its retries, ms (default 60000); defaults
   * to stack config `blockchain:deadlineMs`, then `BLOCKCHAIN_DEADLINE_MS`. A change updates in place.
   */
  deadlineMs: setting("deadlineMs", "update", "optional"),
  /**
   * Retries of each call after its first attempt (default 4, at most 100); defaults to stack
   * config `blockchain:maxRetries`, then `BLOCKCHAIN_MAX_RETRIES`. A change updates in place.
   */
  maxRetries: setting("maxRetries", "update", "optional"),
} as const satisfies PropertyTable;

/** Inputs of the Network resource as the provider receives them (plain values). */
export type NetworkInputs = Inputs<typeof NETWORK_PROPERTIES>;
/** Outputs of the Network resource. */
export type NetworkOutputs = Outputs<typeof NETWORK_PROPERTIES>;
/** The optional inputs whose values the resource manages when the program sets them. */
export type ManagedInput = NonNullable<NetworkOutputs["managedInputs"]>[number];

const NETWORK_INPUT_NAMES = inputNames(NETWORK_PROPERTIES);

/** The outputs of `network` as read from the service, with the connection settings of `inputs`. */
function networkOutputs(
  network: NetworkInfo,
  inputs: ConnectionArgs & { forceDestroy?: boolean },
  managedInputs: string[] | undefined,
) {
  const nodes = network.nodes.map(toNodeResult);
  const connections = network.nodes.map(toNodeConnection);
  const settings = Object.fromEntries(SETTING_NAMES.map((n) => [n, inputs[n]]));
  return outputsOf(NETWORK_PROPERTIES, {
    ...network,
    ...{ networkId: network.id, nodes, connections, managedInputs, forceDestroy: inputs.forceDestroy },
    ...settings,
  });
}

function inputProblems(news: UncheckedInputs<NetworkInputs>) {
  const known = (v: unknown) => v !== undefined && v !== UNKNOWN;
  return [
    ...unknownProperties(news as Record<string, unknown>, NETWORK_INPUT_NAMES),
    news.networkId === UNKNOWN ? undefined : checkId("network", "networkId", news.networkId),
    known(news.name) ? checkNetworkName("name", news.name) : undefined,
    ...(known(news.project) ? validateNetworkUpdate({ project: news.project }) : []),
    known(news.forceDestroy) && typeof news.forceDestroy !== "boolean"
      ? { field: "forceDestroy", value: show(news.forceDestroy), allowed: "expected true or false" }
      : undefined,
  ].filter((p) => p !== undefined);
}

/** Refuses invalid inputs before any request (direct callers may skip `check`). */
function requireValidInputs(inputs: NetworkInputs, operation: string): void {
  const problems = inputProblems(inputs);
  if (problems.length > 0) throw invalidInput(operation, problems);
}

/**
 * `check`: the inputs and the connection settings; when all is valid, the API key (once per
 * process) and, for a new `networkId`, that the network exists. Unknown values pass.
 */
export async function checkNetwork(olds: unknown, news: UncheckedInputs<NetworkInputs>) {
  const failures = toFailures(inputProblems(news), news);
  const id = typeof news.networkId === "string" ? ` (${news.networkId})` : "";
  const label = `${resourceLabel("Network").operation}${id}`;
  const exists = (settings: CallSettings) => checkNetworkExists(label, olds, news, settings);
  failures.push(...(await checkConnection(label, news, failures, exists)));
  return { inputs: news as NetworkInputs, failures } satisfies Checked<NetworkInputs>;
}

/** `diff`: `networkId` replaces, the rest updates in place (see `diffOf`). */
export async function diffNetwork(_id: string, olds: NetworkOutputs, news: NetworkInputs): Promise<Diff> {
  return diffOf(NETWORK_PROPERTIES, olds, news);
}

/** The managed inputs that differ from the network's current values (what a PATCH must send). */
function pendingUpdate(inputs: NetworkInputs, current: { name: string; project: string }): NetworkUpdate {
  const managed = managedInputsOf(NETWORK_PROPERTIES, inputs) as ManagedInput[];
  const changed = managed.filter((k) => inputs[k] !== current[k]);
  return Object.fromEntries(changed.map((k) => [k, inputs[k]]));
}

/** What a PATCH of `update` changes, in words: `the rename to "x"`, `the move to project PR-…`. */
function changeOf(update: NetworkUpdate): string {
  const parts = [
    update.name !== undefined ? `the rename to ${JSON.stringify(update.name)}` : undefined,
    update.project !== undefined ? `the move to project ${update.project}` : undefined,
  ];
  return parts.filter(Boolean).join(" and ");
}

/**
 * Sends a write (a PATCH that changes the network, a DELETE): when its outcome is unknown (cut off
 * while in flight, or no answer after it may have reached the service), fails with one line
 * saying what may have been applied, never with a limit to raise; it is not sent again.
 */
async function write<T>(operation: string, id: string, change: string, send: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await send();
  } catch (err) {
    const seconds = Math.round((Date.now() - started) / 1000);
    const cause =
      err instanceof CallInterrupted && err.started
        ? `${err.reason} while it was in flight`
        : isApiError(err) && err.mayHaveBeenProcessed === true
          ? err.kind === "timeout"
            ? `no answer from the service within ${seconds} s`
            : `the connection was lost before the service answered (${err.code})`
          : undefined;
    if (cause === undefined) throw err;
    throw new OutcomeUnknownError(operation, id, cause, change);
  }
}

/** `create`: adopts the existing network, applies `name`/`project`, returns full outputs. */
export async function createNetwork(inputs: NetworkInputs): Promise<{ id: string; outs: NetworkOutputs }> {
  requireValidInputs(inputs, "adopting network");
  try {
    const network = await withClient(inputs, readProviderConfig, async (client) => {
      const current = await client.readNetwork(inputs.networkId, resourceLabel("Network"));
      const update = pendingUpdate(inputs, current);
      return Object.keys(update).length > 0
        ? write("adopting network", current.id, changeOf(update), () =>
            client.updateNetwork(current.id, update, resourceLabel("Network")),
          )
        : current;
    });
    return {
      id: network.id,
      outs: networkOutputs(network, inputs, managedInputsOf(NETWORK_PROPERTIES, inputs)),
    };
  } catch (err) {
    if (err instanceof OutcomeUnknownError) throw err;
    if (isApiError(err) && err.kind === "not_found")
      throw new Error(
        `Network ${inputs.networkId}: cannot adopt it: the service answered 404 (it does not exist, or this API key's ` +
          `organization cannot see it). Networks cannot be created through the API: create it in the service's console, ` +
          `then set networkId to its id.`,
        { cause: err },
      );
    throw describeError(err, "adopting network", inputs.networkId);
  }
}

/** `read`: the current network and the inputs that match it; an empty id when it is gone. */
export async function readNetwork(
  id: string,
  props: NetworkOutputs | undefined,
): Promise<{ id: string; props: NetworkOutputs; inputs?: NetworkInputs }> {
  const connection: ConnectionArgs = props ?? {};
  try {
    const network = await withClient(connection, readProviderConfig, (client) =>
      client.readNetwork(id, resourceLabel("Network")),
    );
    const managed = props?.managedInputs;
    const outs = networkOutputs(network, connection, managed);
    // State written before `managedInputs` does not say which inputs the program sets: the engine keeps the old ones.
    if (!Array.isArray(managed)) return { id: network.id, props: outs };
    return { id: network.id, props: outs, inputs: refreshedInputs(NETWORK_PROPERTIES, outs, managed) };
  } catch (err) {
    // The engine reads an empty id as "gone"; the properties of a gone resource are not read.
    if (isApiError(err) && err.kind === "not_found") {
      if (props !== undefined)
        await engineLog("warning", `${id} no longer exists in the service; removed from the stack`);
      return { id: "", props: {} as NetworkOutputs };
    }
    throw describeError(err, "reading network", id);
  }
}

/** `update`: PATCHes only what changed. */
export async function updateNetwork(id: string, olds: NetworkOutputs, news: NetworkInputs) {
  requireValidInputs(news, "updating network");
  try {
    const update = pendingUpdate(news, olds);
    const network = await withClient(news, readProviderConfig, (client) =>
      Object.keys(update).length > 0
        ? write("updating network", id, changeOf(update), () =>
            client.updateNetwork(id, update, resourceLabel("Network")),
          )
        : client.readNetwork(id, resourceLabel("Network")),
    );
    return { outs: networkOutputs(network, news, managedInputsOf(NETWORK_PROPERTIES, news)) };
  } catch (err) {
    if (err instanceof OutcomeUnknownError) throw err;
    throw describeError(err, "updating network", id);
  }
}

/** What to do when the service refuses to delete a network that still has nodes. */
export const DELETE_REFUSED_HINT =
  "The service refuses to delete a network that still has nodes; to leave it in place instead, " +
  "remove `forceDestroy: true` from the resource, run `pulumi up`, then `pulumi destroy`.";

/**
 * `delete`: forgets the network (the stack never created it), or, with `forceDestroy` in state,
 * DELETEs it; a 404 counts as already gone; a refusal keeps the resource and says what to do.
 */
export async function deleteNetwork(id: string, props: NetworkOutputs): Promise<void> {
  if (props.forceDestroy !== true) {
    await engineLog(
      "info",
      `${id} left in the service, forgotten by the stack (set forceDestroy: true to delete it)`,
    );
    return;
  }
  try {
    await withClient(props, readProviderConfig, (client) =>
      write("deleting network", id, "the deletion", () => client.deleteNetwork(id, resourceLabel("Network"))),
    );
  } catch (err) {
    if (err instanceof OutcomeUnknownError) throw err;
    // The refusal's status is not documented: 409 or 400 are both plausible.
    if (isApiError(err) && (err.kind === "conflict" || err.kind === "validation"))
      throw describeError(err, "deleting network", id, DELETE_REFUSED_HINT);
    throw describeError(err, "deleting network", id);
  }
}
