/** The two views of a node, one place for the functions and `Network`: readable metadata, and secret connections. */
import { NODE_CREDENTIAL_FIELDS, NODE_ENDPOINT_FIELDS, NODE_SECRET_FIELDS } from "../model/node-fields";
import type { NodeEndpointName, NodeSecretName } from "../model/node-fields";
import type { CloudProvider, NodeRole, NodeStatus, NodeType, Region } from "../model/values";
import { maskUrlCredentials } from "../api/redact";
import type { Assert, Creator, Node, NodeDetails, SameNames } from "../api/types";

/**
 * A node's metadata, readable and never secret: usable in resource names, previews, logs and
 * stack outputs. It holds no endpoint URL and no credential: each endpoint has only its masked
 * twin here (`<endpoint>Masked`). The endpoints and credentials themselves come from
 * `getNodeConnectionsOutput` (or `Network.connections`), secret as a whole.
 *
 * The enum fields are typed with the service's known values; a value the service adds later is
 * passed through as sent.
 */
export interface NodeResult extends MaskedEndpoints {
  /** The node's id, `ND-` and digit groups, e.g. `ND-123-456-789`. */
  id: string;
  /** The node's name, e.g. `My Ethereum archive node`. */
  name: string;
  /** Id of the network the node belongs to, e.g. `NW-123-456-7`. */
  network: string;
  /** Id of the organization that owns the node, e.g. `RG-123-456`. */
  organization: string;
  /** `shared` (a node shared by many customers) or `dedicated`. */
  type: NodeType;
  /** The node's role in its network: `peer`. */
  role: NodeRole;
  /** Cloud provider hosting the node: `aws`, `azure`, `gcloud` or `vzo`. */
  provider: CloudProvider;
  /**
   * Region hosting the node: `asia-southeast1` (gcloud), `ap-southeast-1`, `us-west-2`,
   * `us-east-1` (aws), `uksouth` (azure) or `eu3` (vzo).
   */
  region: Region;
  /**
   * The node's status: `pending`, `running`, `maintenance`, `failed`, `error`, `stopping`,
   * `stopped` or `starting`.
   */
  status: NodeStatus;
  /** Protocol-specific configuration; `archive: true` for an archive node of the protocols that have one. */
  configuration: { archive?: boolean; [key: string]: unknown };
  /** When the node was created: an ISO 8601 date and time, as the service sent it. */
  createdAt: string;
  /** Who created the node (id, email, names, organization); missing when the service did not say. */
  creator?: Creator;
  /** Node mode, e.g. `archive` or `full`; only on the protocols that have one. */
  mode?: string;
  /** Software version of the node, e.g. `1.9.9`. */
  version?: string;
  /** Enabled API namespaces, e.g. `["net", "eth", "web3"]`; missing on protocols without them. */
  apiNamespaces?: string[];
  /** What the node's own endpoint answered to the check `verify` asked for; missing without `verify`. */
  verified?: VerifiedEndpoint;
}

/** A node's endpoint as checked by `verify`: it answered, on the expected chain, with a fresh head. No URL. */
export interface VerifiedEndpoint {
  /** The chain it serves: an EVM chain id in decimal (`1`), `SN_MAIN`, NEAR's `mainnet`, a Tezos chain id, Bitcoin's `main`. */
  chainId: string;
  /** The number (height, level) of its head block. */
  headBlock: number;
  /** How old its head block was at the check, in whole seconds. */
  headAgeSeconds: number;
  /** The round trip of its first answer, in milliseconds. */
  latencyMs: number;
  /** When it was checked: an ISO 8601 date and time. */
  checkedAt: string;
}

/**
 * What a program needs to connect to one node: its endpoints and credentials as plain strings.
 * Always delivered inside an Output that is secret as a whole (`getNodeConnectionsOutput`,
 * `Network.connections`), so every value computed from it in an `apply` or a
 * `pulumi.interpolate` stays secret. Fields the service did not send are missing (endpoints and
 * credentials are shown only to the node's owner, and some protocols lack an endpoint or two).
 */
export interface NodeConnection extends Pick<NodeDetails, NodeSecretName> {
  /** The node's id, e.g. `ND-123-456-789` (the same as {@link NodeResult.id}). */
  id: string;
  /** The node's name (the same as {@link NodeResult.name}). */
  name: string;
}

/** Each endpoint for display, as `<endpoint>Masked`, present when the endpoint is. */
export interface MaskedEndpoints {
  /**
   * The HTTPS endpoint for display: anything that holds or looks like a credential (user info, a
   * key in the path or query) replaced by `***`. Present when the endpoint is. Not usable to
   * connect: the real URL is in the connection view (`getNodeOutput`, `getNodeConnectionsOutput`).
   */
  httpsEndpointMasked?: string;
  /** The WebSocket endpoint for display, credentials replaced by `***`; present when the endpoint is. */
  wssEndpointMasked?: string;
  /** The GraphQL endpoint for display, credentials replaced by `***`; present when the endpoint is. */
  graphqlEndpointMasked?: string;
  /** The beacon-chain endpoint for display, credentials replaced by `***`; present when the endpoint is. */
  beaconEndpointMasked?: string;
}

/** One masked twin per endpoint field of the model's table, and no other field. */
type _OneTwinPerEndpoint = Assert<SameNames<keyof MaskedEndpoints, `${NodeEndpointName}Masked`>>;

/** `value` without its `undefined` fields (outputs and stack exports must not carry `undefined`). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The metadata view of a node: no endpoint or credential, `details` flattened, a masked twin of each endpoint. */
export function toNodeResult(node: Node & { verified?: VerifiedEndpoint }): NodeResult {
  const { details, ...meta } = node;
  const credentials = NODE_CREDENTIAL_FIELDS.map((field) => details[field]);
  const masked: MaskedEndpoints = {};
  for (const field of NODE_ENDPOINT_FIELDS) {
    const url = details[field];
    if (url !== undefined) masked[`${field}Masked`] = maskEndpoint(url, credentials);
  }
  return defined<NodeResult>({
    id: meta.id,
    name: meta.name,
    network: meta.network,
    organization: meta.organization,
    type: meta.type as NodeType,
    role: meta.role as NodeRole,
    provider: meta.provider as CloudProvider,
    region: meta.region as Region,
    status: meta.status as NodeStatus,
    configuration: meta.configuration,
    createdAt: meta.createdAt,
    creator: meta.creator,
    mode: details.mode,
    version: details.version,
    apiNamespaces: details.apiNamespaces,
    ...masked,
    verified: meta.verified,
  });
}

/** The connection view of a node: id, name, and each endpoint and credential sent; the caller keeps it secret. */
export function toNodeConnection(node: Node): NodeConnection {
  return defined({ id: node.id, name: node.name, ...secretFields((f) => node.details[f]) });
}

/**
 * A node as `getNodeOutput` and `getNodesOutput` give it, in an Output secret as a whole: its
 * metadata and masked twins, and every endpoint and credential (`""` when the service sent none).
 */
export interface NodeWithConnection extends NodeResult, Required<Pick<NodeDetails, NodeSecretName>> {}

/** {@link toNodeResult} and every endpoint and credential, `""` where none was sent; the caller keeps it secret. */
export function toNodeWithConnection(node: Node): NodeWithConnection {
  return { ...toNodeResult(node), ...secretFields((f) => node.details[f] ?? "") } as NodeWithConnection;
}

/** Each secret field of a node's details, valued by `value`. */
const secretFields = (value: (field: NodeSecretName) => string | undefined) =>
  Object.fromEntries(NODE_SECRET_FIELDS.map((field) => [field, value(field)]));

/** Credentials shorter than this are not searched for (they would mask ordinary text). */
const MIN_CREDENTIAL_LENGTH = 4;

/**
 * An endpoint URL fit for display: user info, known credentials (also encoded, across segments),
 * key-like parts and secret-named query values replaced by `***`; a value that is not a URL, or
 * whose credential cannot be removed, masked whole. Linear time.
 */
export function maskEndpoint(url: string, credentials: ReadonlyArray<string | undefined> = []): string {
  const parse = (text: string) => {
    try {
      return new URL(text);
    } catch {
      return undefined;
    }
  };
  const parsed = typeof url === "string" ? parse(url) : undefined;
  if (!parsed) return "***";
  // Each credential, and what is left of it in a normalized path (`./key` → `key`).
  const secrets = credentials
    .filter((c): c is string => typeof c === "string" && c.length >= MIN_CREDENTIAL_LENGTH)
    .flatMap((c) => [c, parse(`http://h/${c}`)?.pathname.slice(1) ?? c])
    .filter((c) => c.length >= MIN_CREDENTIAL_LENGTH);
  // `https://host` is shown as written, without the slash the parser adds.
  const slashed = !url.includes("://") || /^[^/\\?#]*[/\\]/.test(url.slice(url.indexOf("://") + 3));
  const href = parsed.pathname === "/" && !slashed ? parsed.href.replace(/(\/\/[^/]*)\//, "$1") : parsed.href;
  return maskUrlCredentials(href, { replacement: "***", secrets, ignoreCase: true });
}
