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
  WireNodeDetails,
} from "../../model";

/** An organization and its API key. */
export interface OrganizationRecord {
  id: string;
  name: string;
  apiKey: string;
}

/** A user, who creates networks and nodes. */
export interface UserRecord {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organization: string;
}

/** A project of an organization. */
export interface ProjectRecord {
  id: string;
  name: string;
  organization: string;
  type: ProjectType;
}

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
