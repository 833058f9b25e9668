import { NODE_STATUSES, checkNetworkName, checkOneOf, formatProblems } from "../model";
import type { NodeStatus } from "../model";
import type { Store } from "./store";
import type { EmulatorAdmin } from "./types";

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
      return true;
    },
    removeNodes: (networkId: string) => store.removeNodes(networkId),
  };
}
