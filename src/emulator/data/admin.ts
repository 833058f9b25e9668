import { NODE_STATUSES, checkNetworkName, checkOneOf, formatProblems } from "../../model";
import type { NodeStatus, WireNetwork, WireNode } from "../../model";
import type { Store } from "./store";

/** Out-of-band operations that bypass the API, as if someone changed things in the web UI. */
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
  /** Removes every node of a network; returns how many were removed. */
  removeNodes(networkId: string): number;
}

/**
 * Out-of-band operations on the store that bypass the API (and its authentication), as if
 * someone changed things in the provider's web UI. Values are still checked with the model.
 */
export function createAdmin(store: Store): EmulatorAdmin {
  return {
    renameNetwork(id: string, name: string): boolean {
      const problem = checkNetworkName("name", name);
      if (problem) throw new RangeError(formatProblems([problem]));
      const network = store.network(id);
      if (!network) return false;
      store.rename(network, name);
      return true;
    },
    deleteNetwork: (id: string) => store.deleteNetwork(id),
    getNetwork(id: string) {
      const network = store.network(id);
      return network ? store.networkWire(network, store.ownerOf(network)) : undefined;
    },
    getNode(id: string) {
      const node = store.node(id);
      return node ? store.nodeWire(node, node.organization) : undefined;
    },
    setNodeStatus(nodeId: string, status: NodeStatus): boolean {
      const problem = checkOneOf("status", status, NODE_STATUSES);
      if (problem) throw new RangeError(formatProblems([problem]));
      const node = store.node(nodeId);
      if (!node) return false;
      node.status = status;
      store.version++;
      return true;
    },
    removeNodes: (networkId: string) => store.removeNodes(networkId),
  };
}
