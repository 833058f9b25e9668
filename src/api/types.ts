import type {
  CloudProvider,
  NetworkStatus,
  NodeRole,
  NodeStatus,
  NodeType,
  OrderBy,
  ProjectType,
  Protocol,
  PublicNetwork,
  Region,
} from "../model/values";
import type { NodeDetailValues } from "../model/node-fields";
import type { NodeFilterName } from "../model/rules";

/** Who created a node or network. */
export interface Creator {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  organization: { id: string; name: string };
}

/**
 * Protocol-specific attributes of a node, one per field of the model's node-field table (which
 * documents each). Every field may be missing: endpoints and credentials are shown only to the
 * node's owner, and some protocols have no WebSocket endpoint or mode. Endpoint URLs may embed the
 * auth key: treat them as credentials.
 */
// An interface, not an alias, so that editors and the schema name it.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NodeDetails extends NodeDetailValues {}

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

/**
 * Filters of the node list, camelCase; each maps to a query parameter of `GET /v1/nodes/`. All
 * are optional and combine with AND; every given value is checked before any request (an unknown
 * value fails naming what is allowed), and so are combinations that can never match (a region of
 * another provider, a public network of another protocol).
 */
export interface NodeFilters {
  /** Only nodes of this project: a project id, `PR-` and digit groups, e.g. `PR-123-456`. */
  project?: string;
  /** Only nodes of this organization: an organization id, e.g. `RG-123-456`. */
  organization?: string;
  /** Only nodes of this network: a network id, e.g. `NW-123-456-7`. */
  network?: string;
  /**
   * Only nodes in this region: `asia-southeast1` (gcloud), `ap-southeast-1`, `us-west-2`,
   * `us-east-1` (aws), `uksouth` (azure) or `eu3` (vzo).
   */
  region?: Region;
  /** Only nodes hosted by this cloud provider: `aws`, `azure`, `gcloud` or `vzo`. */
  provider?: CloudProvider;
  /**
   * Only nodes of this protocol: `ethereum`, `polygon-pos`, `bsc`, `avalanche`, `arbitrum`,
   * `near`, `aurora`, `gnosis`, `cronos`, `fantom`, `starknet`, `harmony`, `tezos`, `fuse` or
   * `bitcoin`.
   */
  protocol?: Protocol;
  /** Only nodes of this role: `peer` (the only role). */
  role?: NodeRole;
  /**
   * Only nodes of this type: `shared` or `dedicated` (`shared` exists only for some protocols;
   * asking for it with another protocol is refused).
   */
  type?: NodeType;
  /**
   * Only archive nodes (`true`) or only non-archive nodes (`false`). Applies to the protocols with
   * an archive mode (Ethereum, Polygon PoS, BNB Smart Chain, Avalanche, Fantom, Tezos): nodes of
   * other protocols carry no flag and match neither value.
   */
  archive?: boolean;
  /**
   * Only nodes of this public network, e.g. `ethereum-mainnet`, `polygon-pos-testnet`,
   * `bsc-mainnet` (every value is in `PUBLIC_NETWORK_NAMES`).
   */
  publicNetwork?: PublicNetwork;
  /**
   * Only nodes with exactly this name: the whole name, case-sensitive, not a substring
   * (`"archive"` does not match `"My Ethereum archive node"`). The emulator matches this way;
   * the service's reference does not say more, so do not rely on partial matches.
   */
  name?: string;
  /** Only nodes of projects of this type: `public` (the only type). */
  projectType?: ProjectType;
  /**
   * Only nodes in this status: `pending`, `running`, `maintenance`, `failed`, `error`,
   * `stopping`, `stopped` or `starting`.
   */
  status?: NodeStatus;
  /**
   * Order of the result: `name` or `created_at`, ascending, or `-name` / `-created_at`,
   * descending. Default: the service's order.
   */
  orderBy?: OrderBy;
}

/** Compile-time checks: `SameNames` is `true` only for the same set of names; `Assert` takes `true` only. */
export type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Assert<T extends true> = T;
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
