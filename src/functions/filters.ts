import type * as pulumi from "@pulumi/pulumi";
import type { NodeFilters } from "../api";
import type {
  CloudProvider,
  NodeRole,
  NodeStatus,
  NodeType,
  OrderBy,
  ProjectType,
  Protocol,
  PublicNetwork,
  Region,
} from "../model";

/**
 * The filters of the node list (`GET /v1/nodes/`), each documented for the editor. All are
 * optional and combine with AND; every given value is checked before any request (an unknown
 * value fails naming what is allowed), and so are combinations that can never match (a region of
 * another provider, a public network of another protocol).
 */
export interface NodeFilterArgs {
  /** Only nodes of this project: a project id, `PR-` and digit groups, e.g. `PR-123-456`. */
  project?: string;
  /** Only nodes of this organization: an organization id, e.g. `RG-123-456`. */
  organization?: string;
  /** Only nodes of this network: a network id, e.g. `NW-123-456-7` (`Network.networkId`). */
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

/** `true` only when `A` and `B` are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Accepts `true` only. */
type Assert<T extends true> = T;
/** Compile-time check: the documented filters are exactly the client's filters, with the same types. */
type _FiltersAreTheClients = Assert<Same<Required<NodeFilterArgs>, Required<NodeFilters>>>;

/**
 * Every field of `T` as a `pulumi.Input`, optional where it is optional in `T`. A homomorphic
 * mapped type: each field keeps its JSDoc, so the `…Output` forms show the same docs as the
 * plain ones.
 */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<Exclude<T[K], undefined>> };
