import * as pulumi from "@pulumi/pulumi";
import type { Creator, Node } from "../api";
import { maskEndpoint } from "./mask";

/**
 * A node as the functions return it. Metadata is plain and readable (usable in names and
 * previews); every endpoint URL and credential is a secret Output; each endpoint has a masked,
 * non-secret twin for display.
 */
export interface NodeResult {
  id: string;
  name: string;
  network: string;
  organization: string;
  type: string;
  role: string;
  provider: string;
  region: string;
  status: string;
  configuration: { archive?: boolean; [key: string]: unknown };
  createdAt: string;
  creator?: Creator;
  mode?: string;
  version?: string;
  apiNamespaces?: string[];
  /** HTTPS endpoint (secret: it may embed the auth key). */
  httpsEndpoint: pulumi.Output<string | undefined>;
  /** WebSocket endpoint (secret). */
  wssEndpoint: pulumi.Output<string | undefined>;
  /** GraphQL endpoint (secret). */
  graphqlEndpoint: pulumi.Output<string | undefined>;
  /** Beacon endpoint, some Ethereum nodes only (secret). */
  beaconEndpoint: pulumi.Output<string | undefined>;
  /** Username for the endpoints (secret). */
  authUsername: pulumi.Output<string | undefined>;
  /** Password for the endpoints (secret). */
  authPassword: pulumi.Output<string | undefined>;
  /** Key for the endpoints (secret). */
  authKey: pulumi.Output<string | undefined>;
  /** `httpsEndpoint` with credentials replaced by `***`, for display. */
  httpsEndpointMasked?: string;
  /** `wssEndpoint` masked. */
  wssEndpointMasked?: string;
  /** `graphqlEndpoint` masked. */
  graphqlEndpointMasked?: string;
  /** `beaconEndpoint` masked. */
  beaconEndpointMasked?: string;
}

/** Names of the secret fields of {@link NodeResult}. */
export const NODE_SECRET_FIELDS = [
  "httpsEndpoint",
  "wssEndpoint",
  "graphqlEndpoint",
  "beaconEndpoint",
  "authUsername",
  "authPassword",
  "authKey",
] as const;

/** Builds the function result of a node: secrets wrapped, masked twins computed. */
export function toNodeResult(node: Node): NodeResult {
  const d = node.details;
  const creds = [d.authKey, d.authPassword, d.authUsername];
  const masked = (url: string | undefined) => (url === undefined ? undefined : maskEndpoint(url, creds));
  const result: NodeResult = {
    id: node.id,
    name: node.name,
    network: node.network,
    organization: node.organization,
    type: node.type,
    role: node.role,
    provider: node.provider,
    region: node.region,
    status: node.status,
    configuration: node.configuration,
    createdAt: node.createdAt,
    creator: node.creator,
    mode: d.mode,
    version: d.version,
    apiNamespaces: d.apiNamespaces,
    httpsEndpoint: pulumi.secret(d.httpsEndpoint),
    wssEndpoint: pulumi.secret(d.wssEndpoint),
    graphqlEndpoint: pulumi.secret(d.graphqlEndpoint),
    beaconEndpoint: pulumi.secret(d.beaconEndpoint),
    authUsername: pulumi.secret(d.authUsername),
    authPassword: pulumi.secret(d.authPassword),
    authKey: pulumi.secret(d.authKey),
    httpsEndpointMasked: masked(d.httpsEndpoint),
    wssEndpointMasked: masked(d.wssEndpoint),
    graphqlEndpointMasked: masked(d.graphqlEndpoint),
    beaconEndpointMasked: masked(d.beaconEndpoint),
  };
  for (const key of Object.keys(result) as (keyof NodeResult)[])
    if (result[key] === undefined) delete result[key];
  return result;
}
