import { SECRET_DETAIL_FIELDS } from "../../model/node-fields";
import type {
  CloudProvider,
  NetworkStatus,
  NodeRole,
  NodeStatus,
  NodeType,
  ProjectType,
  Protocol,
  PublicNetwork,
  Region,
} from "../../model/values";
import type { WireCreator, WireNetwork, WireNode } from "../../model/wire";
import type { WireNodeDetails } from "../../model/node-fields";
import type { NodeEndpointBehaviour } from "./admin";
import type { Dataset } from "./seed";

export type OrganizationRecord = { id: string; name: string; apiKey: string };
export type UserRecord = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organization: string;
};
export type ProjectRecord = { id: string; name: string; organization: string; type: ProjectType };

/** A network as stored; its owner is the organization of its project. */
export interface NetworkRecord {
  id: string;
  name: string;
  project: string;
  protocol: Protocol;
  publicNetwork: PublicNetwork;
  status: NetworkStatus;
  details: Record<string, unknown>;
  creator: string;
  createdAt: string;
}

/** A node as stored. `archive` is absent on protocols the archive flag does not apply to. */
export interface NodeRecord {
  id: string;
  name: string;
  network: string;
  organization: string;
  type: NodeType;
  role: NodeRole;
  provider: CloudProvider;
  region: Region;
  status: NodeStatus;
  archive?: boolean;
  details: WireNodeDetails;
  creator: string;
  createdAt: string;
}

/** How a node's endpoints behave; `stalledAt`: when its head stopped (ms since the epoch). */
export type EndpointState = Omit<NodeEndpointBehaviour, "stalledSeconds"> & { stalledAt: number | null };

/** A node with the network and project it belongs to, as the list filters need it. */
export type NodeView = { node: NodeRecord; network: NetworkRecord; project: ProjectRecord };

/**
 * The in-memory state and the service's visibility rules: a network is owned (updated, deleted)
 * by its project's organization; an organization sees the nodes of every network it owns or runs
 * a node in; a node's endpoints and credentials are shown only to the node's organization.
 */
export class Store {
  private readonly organizations = new Map<string, OrganizationRecord>();
  private readonly organizationByKey = new Map<string, string>();
  private readonly users = new Map<string, UserRecord>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly networks = new Map<string, NetworkRecord>();
  /** Read here; changed only through the methods, which count {@link version}. */
  readonly nodes = new Map<string, NodeRecord>();
  /** The endpoint behaviour of each node a rehearsal changed (others: `DEFAULT_ENDPOINT`). */
  readonly endpoints = new Map<string, EndpointState>();
  /** Every secret ever served: the dataset's, then every rotated key and credential. */
  readonly secrets: string[];
  /** Grows on every change of a network or node: a node list derived from the store is valid while it stays. */
  version = 0;

  /** Copies the dataset, so changes never reach the seed's objects. */
  constructor(dataset: Dataset) {
    const copy = structuredClone(dataset);
    this.secrets = copy.secrets;
    for (const o of copy.organizations) {
      this.organizations.set(o.id, o);
      this.organizationByKey.set(o.apiKey, o.id);
    }
    for (const u of copy.users) this.users.set(u.id, u);
    for (const p of copy.projects) this.projects.set(p.id, p);
    for (const n of copy.networks) this.networks.set(n.id, n);
    for (const n of copy.nodes) this.nodes.set(n.id, n);
  }

  organizationOfKey(key: string): string | undefined {
    return this.organizationByKey.get(key);
  }

  /** The API key of every organization, by organization id. */
  keys(): Record<string, string> {
    return Object.fromEntries([...this.organizations.values()].map((o) => [o.id, o.apiKey]));
  }

  /** Replaces an organization's key: the old one is refused from then on. */
  setKey(organization: string, key: string): void {
    const org = this.organizations.get(organization)!;
    this.organizationByKey.delete(org.apiKey);
    org.apiKey = key;
    this.organizationByKey.set(key, organization);
    this.secrets.push(key);
  }

  /** The organization that owns a network (that of its project). */
  ownerOf(network: NetworkRecord): string {
    return this.projects.get(network.project)!.organization;
  }

  /** A network only when `organization` owns it: others get undefined (404, like the service). */
  ownedNetwork(id: string, organization: string): NetworkRecord | undefined {
    const network = this.networks.get(id);
    return network && this.ownerOf(network) === organization ? network : undefined;
  }

  /** The nodes of a network, oldest first (ties by id). */
  nodesOf(networkId: string): NodeRecord[] {
    return [...this.nodes.values()]
      .filter((n) => n.network === networkId)
      .sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.id, b.id));
  }

  /** Every node the organization may see, with its network and project. */
  visibleNodes(organization: string): NodeView[] {
    const members = new Map<string, Set<string>>();
    for (const network of this.networks.values()) members.set(network.id, new Set([this.ownerOf(network)]));
    for (const node of this.nodes.values()) members.get(node.network)?.add(node.organization);
    return [...this.nodes.values()]
      .filter((node) => members.get(node.network)?.has(organization))
      .map((node) => {
        const network = this.networks.get(node.network)!;
        return { node, network, project: this.projects.get(network.project)! };
      });
  }

  visibleNode(id: string, organization: string): NodeRecord | undefined {
    const node = this.nodes.get(id);
    const network = node && this.networks.get(node.network);
    if (!network) return undefined;
    const member = (n: NodeRecord) => n.network === network.id && n.organization === organization;
    return this.ownerOf(network) === organization || [...this.nodes.values()].some(member) ? node : undefined;
  }

  deleteNetwork(id: string): boolean {
    if (!this.networks.delete(id)) return false;
    this.version++;
    this.removeNodes(id);
    return true;
  }

  /** Deletes every node of a network; returns how many. */
  removeNodes(networkId: string): number {
    const gone = [...this.nodes.values()].filter((n) => n.network === networkId);
    for (const node of gone) this.nodes.delete(node.id);
    if (gone.length > 0) this.version++;
    return gone.length;
  }

  /** The wire shape of a node as `viewer` sees it (credentials only for the node's organization). */
  nodeWire(node: NodeRecord, viewer: string): WireNode {
    const details: WireNodeDetails = { ...node.details };
    if (details.api_namespaces) details.api_namespaces = [...details.api_namespaces];
    if (viewer !== node.organization) for (const field of SECRET_DETAIL_FIELDS) delete details[field];
    // One literal (no spread of a temporary): this runs for every node of every page.
    return {
      id: node.id,
      name: node.name,
      network: node.network,
      organization: node.organization,
      type: node.type,
      role: node.role,
      provider: node.provider,
      region: node.region,
      status: node.status,
      configuration: node.archive === undefined ? {} : { archive: node.archive },
      details,
      created_at: node.createdAt,
      creator: this.creatorWire(node.creator),
    };
  }

  /** The wire shape of a network with its nodes, as `viewer` sees it. */
  networkWire(network: NetworkRecord, viewer: string): WireNetwork {
    return {
      id: network.id,
      name: network.name,
      project: network.project,
      protocol: network.protocol,
      configuration: { network: network.publicNetwork },
      details: { ...network.details },
      status: network.status,
      nodes: this.nodesOf(network.id).map((n) => this.nodeWire(n, viewer)),
      creator: this.creatorWire(network.creator),
      created_at: network.createdAt,
    };
  }

  private creatorWire(userId: string): WireCreator {
    const { id, email, firstName, lastName, organization } = this.users.get(userId)!;
    const { name } = this.organizations.get(organization)!;
    return {
      id,
      email,
      first_name: firstName,
      last_name: lastName,
      organization: { id: organization, name },
    };
  }
}

/** Plain code-unit comparison: -1, 0 or 1. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
