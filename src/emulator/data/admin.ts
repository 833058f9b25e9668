import { NODE_STATUSES, PROTOCOL_CHAINS, type NodeStatus } from "../../model/values";
import { SECRET_DETAIL_FIELDS } from "../../model/node-fields";
import { checkNetworkName, checkOneOf, formatProblems, show, unknownProperties } from "../../model/rules";
import type { Problem } from "../../model/rules";
import type { WireNetwork, WireNode } from "../../model/wire";
import { seedHash } from "./random";
import type { EndpointState, Store } from "./store";

const ENDPOINT_ANSWERS = ["normal", "refuse", "503", "slow", "huge", "not-json"] as const;
/** The endpoint behaviour of a node no rehearsal has changed. */
export const DEFAULT_ENDPOINT: EndpointState = {
  stalledAt: null,
  chainId: null,
  answer: "normal",
  delayMs: 30_000,
};

/** How a node's endpoints answer (docs/emulator.md, "Endpoint rehearsals"). */
export interface NodeEndpointBehaviour {
  /** The head stopped advancing this many seconds ago (its age now); `null`: it advances. */
  stalledSeconds: number | null;
  /** The chain id served instead of the network's, normalized (`"5"`, `"SN_SEPOLIA"`); `null`: the network's. */
  chainId: string | null;
  /** `normal`; `refuse` (connections destroyed), `503`, `slow` (after `delayMs`), `huge` (64 MiB), `not-json` (HTML). */
  answer: (typeof ENDPOINT_ANSWERS)[number];
  /** How long `slow` waits, in ms (default 30000). */
  delayMs: number;
}

/** What {@link EmulatorAdmin.updateNode} changes: a node status of the model, a non-empty name of at most 255 characters. */
export type NodeChanges = { status?: NodeStatus; name?: string };

/** A RangeError that carries the model's problems, so HTTP answers can name each field. */
export class ProblemsError extends RangeError {
  constructor(readonly problems: readonly Problem[]) {
    super(formatProblems(problems));
  }
}

/** Out-of-band changes that bypass the API (as in the web UI); values are checked with the model (RangeError). */
export interface EmulatorAdmin {
  /** Renames a network; returns false when it does not exist. */
  renameNetwork(id: string, name: string): boolean;
  /** Removes a network and all its nodes; returns false when it does not exist. */
  deleteNetwork(id: string): boolean;
  /** The network as its owner sees it (wire shape, with nodes), or undefined. */
  getNetwork(id: string): WireNetwork | undefined;
  /** The node as its owner sees it (wire shape), or undefined. */
  getNode(id: string): WireNode | undefined;
  /** Sets a node's status (a model node status; throws on any other value); false when missing. */
  setNodeStatus(nodeId: string, status: NodeStatus): boolean;
  /**
   * Changes a node's `status` and/or `name`; returns the node, or undefined when missing. Throws a
   * RangeError naming each bad or unknown field. `updateNode("ND-100-000-001", { status: "maintenance" })`
   */
  updateNode(nodeId: string, changes: NodeChanges): WireNode | undefined;
  /**
   * Gives a node new `auth_username`, `auth_password` and `auth_key` (deterministic per seed), in
   * every endpoint URL too; returns the node, or undefined when missing; throws a RangeError for a
   * node without credentials yet (`pending`).
   */
  rotateCredentials(nodeId: string): WireNode | undefined;
  /** A new API key for the organization (deterministic per seed), or undefined; the old key gets 401 from then on. */
  rotateKey(organization: string): string | undefined;
  /** Removes every node of a network; returns how many were removed. */
  removeNodes(networkId: string): number;
  /** How a node's endpoints answer, or undefined when the node is missing. */
  nodeEndpoint(nodeId: string): NodeEndpointBehaviour | undefined;
  /**
   * Changes the fields given of how a node's endpoints answer and returns it (undefined: no such
   * node); throws a RangeError naming each bad field. `setNodeEndpoint(id, { stalledSeconds: 600 })`
   */
  setNodeEndpoint(nodeId: string, changes: Partial<NodeEndpointBehaviour>): NodeEndpointBehaviour | undefined;
}

/** Each endpoint field's allowed values, and its test (`evm`: the node's family is EVM). */
// prettier-ignore
const ENDPOINT_CHECKS: Record<string, [string, (value: unknown, evm: boolean) => boolean]> = {
  stalledSeconds: ["seconds from 0 to 1e9, or null", (v) => v === null || (typeof v === "number" && v >= 0 && v <= 1e9)],
  chainId: ["a decimal chain id on EVM protocols, else 1 to 31 printable ASCII characters; or null",
    (v, evm) => v === null || (typeof v === "string" && (evm ? /^(?:0|[1-9][0-9]{0,19})$/ : /^[\x21-\x7e]{1,31}$/).test(v))],
  answer: [`one of ${ENDPOINT_ANSWERS.join(", ")}`, (v) => (ENDPOINT_ANSWERS as readonly unknown[]).includes(v)],
  delayMs: ["whole ms from 0 to 3600000", (v) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 3_600_000],
};

/** The admin operations on a store; `seed` makes rotated secrets deterministic; `now` is the clock of heads. */
export function createAdmin(store: Store, seed: number, now = () => new Date()): EmulatorAdmin {
  let rotations = 0;
  const fresh = (what: string, id: string) => seedHash("rotation", seed, what, id, ++rotations);
  const nodeWire = (id: string) => {
    const node = store.nodes.get(id);
    return node ? store.nodeWire(node, node.organization) : undefined;
  };
  const admin: EmulatorAdmin = {
    renameNetwork(id: string, name: string): boolean {
      const problem = checkNetworkName("name", name);
      if (problem) throw new ProblemsError([problem]);
      const network = store.networks.get(id);
      if (!network) return false;
      network.name = name;
      return true;
    },
    deleteNetwork: (id: string) => store.deleteNetwork(id),
    getNetwork(id: string) {
      const network = store.networks.get(id);
      return network ? store.networkWire(network, store.ownerOf(network)) : undefined;
    },
    getNode: nodeWire,
    setNodeStatus: (nodeId, status) => admin.updateNode(nodeId, { status }) !== undefined,
    updateNode(nodeId, changes) {
      const given = (changes ?? {}) as Record<string, unknown>;
      const problems = [
        ...unknownProperties(given, ["status", "name"], "field"),
        given.status === undefined ? undefined : checkOneOf("status", given.status, NODE_STATUSES),
        given.name === undefined ? undefined : checkNetworkName("name", given.name),
      ].filter((p): p is Problem => p !== undefined);
      if (problems.length > 0) throw new ProblemsError(problems);
      const node = store.nodes.get(nodeId);
      if (!node) return undefined;
      if (changes.status !== undefined) node.status = changes.status;
      if (changes.name !== undefined) node.name = changes.name;
      store.version++;
      return nodeWire(nodeId);
    },
    rotateCredentials(nodeId) {
      const node = store.nodes.get(nodeId);
      if (!node) return undefined;
      const details = node.details as Record<string, string | undefined>;
      if (details.auth_key === undefined)
        throw new RangeError(`node ${nodeId} has no credentials to rotate yet (status ${node.status})`);
      const hash = fresh("node", nodeId);
      const next: Record<string, string> = {
        auth_username: `rotated-${hash.slice(32, 36)}-${hash.slice(36, 40)}`,
        auth_password: hash.slice(40, 64).replace(/(.{4})(?!$)/g, "$1-"),
        auth_key: hash.slice(0, 32),
      };
      // Endpoint URLs carry the key in their path: every old value is replaced wherever it is.
      const swaps = Object.entries(next).flatMap(([name, now]) =>
        details[name] ? [[details[name], now]] : [],
      );
      for (const [field, value] of Object.entries(details))
        if (typeof value === "string")
          details[field] = swaps.reduce((t, [old, now]) => t.replaceAll(old, now), value);
      store.secrets.push(...SECRET_DETAIL_FIELDS.flatMap((f) => details[f] ?? []));
      return nodeWire(nodeId);
    },
    rotateKey(organization) {
      if (!Object.hasOwn(store.keys(), organization)) return undefined;
      const key = fresh("api-key", organization).slice(0, 40);
      store.setKey(organization, key);
      return key;
    },
    removeNodes: (networkId: string) => store.removeNodes(networkId),
    nodeEndpoint(nodeId) {
      if (!store.nodes.get(nodeId)) return undefined;
      const { stalledAt, ...rest } = store.endpoints.get(nodeId) ?? DEFAULT_ENDPOINT;
      return { stalledSeconds: stalledAt === null ? null : (now().getTime() - stalledAt) / 1000, ...rest };
    },
    setNodeEndpoint(nodeId, changes) {
      const node = store.nodes.get(nodeId);
      if (!node) return undefined;
      const given = (changes ?? {}) as Record<string, unknown>;
      const evm = PROTOCOL_CHAINS[store.networks.get(node.network)!.protocol].family === "evm";
      const problems = [
        ...unknownProperties(given, Object.keys(ENDPOINT_CHECKS), "field"),
        ...Object.entries(ENDPOINT_CHECKS).flatMap(([field, [allowed, ok]]) =>
          given[field] === undefined || ok(given[field], evm)
            ? []
            : [{ field, value: show(given[field]), allowed: `expected ${allowed}` }],
        ),
      ];
      if (problems.length > 0) throw new ProblemsError(problems);
      const { stalledSeconds: s, ...rest } = given;
      const state = { ...(store.endpoints.get(nodeId) ?? DEFAULT_ENDPOINT) };
      Object.assign(state, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)));
      if (s !== undefined) state.stalledAt = s === null ? null : now().getTime() - (s as number) * 1000;
      store.endpoints.set(nodeId, state);
      return admin.nodeEndpoint(nodeId);
    },
  };
  return admin;
}
