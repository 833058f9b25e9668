/** The one table of a node's `details` fields (public name, wire name, secret or not): all else derives from it. */

/** One field of a node's details: its wire name; secret (an endpoint or a credential) or readable (`text`, `list`); its {@link NodeAccess} use. */
export interface NodeDetailField {
  readonly wire: string;
  readonly secret: boolean;
  readonly value: "text" | "list" | "endpoint" | "credential";
  readonly use?: keyof NodeAccess;
}

/** How an app reaches a node: its RPC endpoint and the credentials for it, as the service gives them. */
export type NodeAccess = { url?: string; key?: string; username?: string; password?: string };

/** Every field of a node's details, in the order the views show them. */
export const NODE_DETAIL_FIELDS = {
  /** Node mode, e.g. `archive` or `full`; only on the protocols that have one. */
  mode: { wire: "mode", secret: false, value: "text" },
  /** Software version of the node, e.g. `1.9.9`. */
  version: { wire: "version", secret: false, value: "text" },
  /** Enabled API namespaces, e.g. `["net", "eth", "web3"]`; missing on protocols without them. */
  apiNamespaces: { wire: "api_namespaces", secret: false, value: "list" },
  /** The HTTPS (JSON-RPC) endpoint URL; it may embed the auth key in its path. */
  httpsEndpoint: { wire: "https_endpoint", secret: true, value: "endpoint", use: "url" },
  /** The WebSocket endpoint URL; it may embed the auth key in its path. */
  wssEndpoint: { wire: "wss_endpoint", secret: true, value: "endpoint" },
  /** The GraphQL endpoint URL, on protocols that have one. */
  graphqlEndpoint: { wire: "graphql_endpoint", secret: true, value: "endpoint" },
  /** The beacon-chain endpoint URL (Ethereum). */
  beaconEndpoint: { wire: "beacon_endpoint", secret: true, value: "endpoint" },
  /** User name for the endpoints' basic authentication. */
  authUsername: { wire: "auth_username", secret: true, value: "credential", use: "username" },
  /** Password for the endpoints' basic authentication. */
  authPassword: { wire: "auth_password", secret: true, value: "credential", use: "password" },
  /** The node's auth key (often also part of the endpoint paths). */
  authKey: { wire: "auth_key", secret: true, value: "credential", use: "key" },
} as const satisfies Record<string, NodeDetailField>;

export type NodeDetailTable = typeof NODE_DETAIL_FIELDS;
/** The public name of a field of a node's details. */
export type NodeDetailName = keyof NodeDetailTable;
type NamesWhere<P> = { [K in NodeDetailName]: NodeDetailTable[K] extends P ? K : never }[NodeDetailName];
/** The public name of an endpoint field (secret, with a masked twin). */
export type NodeEndpointName = NamesWhere<{ value: "endpoint" }>;
/** The public name of a credential field (secret, never shown). */
export type NodeCredentialName = NamesWhere<{ value: "credential" }>;
/** The public name of a secret field: an endpoint or a credential. */
export type NodeSecretName = NamesWhere<{ secret: true }>;
type ValueOf<F extends NodeDetailField> = F["value"] extends "list" ? string[] : string;

/** A node's details by public name, every field optional (a mapped type keeps each row's doc). */
export type NodeDetailValues = { -readonly [K in keyof NodeDetailTable]?: ValueOf<NodeDetailTable[K]> };
/** `details` of a node as they travel (spec 2.1.1, snake_case); every field may be missing. */
export type WireNodeDetails = {
  -readonly [K in NodeDetailName as NodeDetailTable[K]["wire"]]?: ValueOf<NodeDetailTable[K]>;
};

const NAMES = Object.keys(NODE_DETAIL_FIELDS) as NodeDetailName[];

const namesOf = (value: NodeDetailField["value"]) =>
  NAMES.filter((k) => NODE_DETAIL_FIELDS[k].value === value);

/** The endpoint fields, each with a masked twin in the readable view. */
export const NODE_ENDPOINT_FIELDS = namesOf("endpoint") as readonly NodeEndpointName[];
/** The credential fields (besides the endpoints, which may embed them). */
export const NODE_CREDENTIAL_FIELDS = namesOf("credential") as readonly NodeCredentialName[];
/** Every secret field: the endpoints, then the credentials. */
export const NODE_SECRET_FIELDS: readonly NodeSecretName[] = [
  ...NODE_ENDPOINT_FIELDS,
  ...NODE_CREDENTIAL_FIELDS,
];
/** The wire names of the secret fields: what the service shows only to a node's owner. */
export const SECRET_DETAIL_FIELDS = NODE_SECRET_FIELDS.map(
  (k) => NODE_DETAIL_FIELDS[k].wire,
) as readonly (keyof WireNodeDetails)[];

/** The secret fields' names as the redaction compares names (lower case, without `_` and `-`). */
export const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set(
  NODE_SECRET_FIELDS.map((name) => name.toLowerCase().replace(/[_-]/g, "")),
);

/** Every secret of one node's details: the values of its secret fields that are non-empty strings. */
export function secretValues(details: Readonly<Record<string, unknown>>): string[] {
  return NODE_SECRET_FIELDS.map((k) => details[k]).filter(
    (v): v is string => typeof v === "string" && v !== "",
  );
}

/** The forms a secret can take in a text: as it is, URL-encoded and JSON-escaped (distinct). */
export function secretForms(secret: string): string[] {
  const forms = [secret];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // a lone surrogate has no URL encoding; the other forms still apply
  }
  forms.push(JSON.stringify(secret).slice(1, -1));
  return [...new Set(forms)];
}

/** The {@link NodeAccess} of a node's details, by the table's `use` of each field. */
export function nodeAccess(details: NodeDetailValues): NodeAccess {
  const access: NodeAccess = {};
  for (const name of NAMES) {
    const use = (NODE_DETAIL_FIELDS[name] as NodeDetailField).use;
    if (use) access[use] = details[name] as string | undefined;
  }
  return access;
}
