import type {
  CloudProvider,
  NetworkStatus,
  NodeFilterName,
  NodeRole,
  NodeStatus,
  NodeType,
  OrderBy,
  ProjectType,
  Protocol,
  PublicNetwork,
  Region,
} from "../model";

/** Who created a node or network. */
export interface Creator {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organization: { id: string; name: string };
}

/**
 * Protocol-specific attributes of a node. Every field may be missing: endpoints and credentials
 * are shown only to the node's owner, and some protocols have no `wssEndpoint` or `mode`.
 * Endpoint URLs may embed the auth key: treat them as credentials.
 */
export interface NodeDetails {
  mode?: string;
  version?: string;
  apiNamespaces?: string[];
  graphqlEndpoint?: string;
  httpsEndpoint?: string;
  wssEndpoint?: string;
  beaconEndpoint?: string;
  authUsername?: string;
  authPassword?: string;
  authKey?: string;
}

/** A node of the service. Enum fields are typed with the known values but kept as sent. */
export interface Node {
  id: string;
  name: string;
  network: string;
  organization: string;
  type: NodeType | (string & {});
  role: NodeRole | (string & {});
  provider: CloudProvider | (string & {});
  region: Region | (string & {});
  status: NodeStatus | (string & {});
  configuration: { archive?: boolean; [key: string]: unknown };
  details: NodeDetails;
  createdAt: string;
  creator?: Creator;
}

/**
 * A network of the service, with its nodes, as the client reads it (the `Network` resource adopts
 * one and shows these fields as its outputs).
 */
export interface NetworkInfo {
  id: string;
  name: string;
  project: string;
  protocol: Protocol | (string & {});
  /** `configuration.network` of the wire format: the public network, e.g. `ethereum-mainnet`. */
  publicNetwork?: PublicNetwork | (string & {});
  configuration: { network?: string; [key: string]: unknown };
  details: Record<string, unknown>;
  status: NetworkStatus | (string & {});
  nodes: Node[];
  creator?: Creator;
  createdAt: string;
}

/** Filters of the node list, camelCase; each maps to a query parameter of `GET /v1/nodes/`. */
export interface NodeFilters {
  project?: string;
  organization?: string;
  network?: string;
  region?: Region;
  provider?: CloudProvider;
  protocol?: Protocol;
  role?: NodeRole;
  type?: NodeType;
  archive?: boolean;
  publicNetwork?: PublicNetwork;
  name?: string;
  projectType?: ProjectType;
  status?: NodeStatus;
  /** Ordering: `name`, `created_at`, or descending with a `-` prefix. */
  orderBy?: OrderBy;
}

/** `true` only when `A` and `B` are the same set of names. */
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Accepts `true` only. */
type Assert<T extends true> = T;
/** Compile-time check: the keys of `NodeFilters` are exactly the model's filter names (`NODE_FILTERS`). */
type _NodeFiltersAreTheModelsFilters = Assert<SameNames<keyof NodeFilters, NodeFilterName>>;

/** Fields of a network that can be changed. */
export interface NetworkUpdate {
  name?: string;
  project?: string;
}

/** Result of `deleteNetwork`: `deleted`, or `alreadyGone` when the service answered 404. */
export type DeleteResult = { status: "deleted" } | { status: "alreadyGone" };

/** Result of the faucet. `amountSent` is the wei amount as an exact decimal string. */
export interface FaucetResult {
  amountSent: string;
  transaction: string;
}
