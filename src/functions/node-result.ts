import * as pulumi from "@pulumi/pulumi";
import { compact, type Node, type NodeDetails } from "../api";
import { SECRET_DETAIL_FIELDS } from "../model";
import { maskEndpoint } from "../api";

/** `snake_case` as `camelCase`, as a type. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** A secret field of a node's details, camelCase (`httpsEndpoint`, `authKey`, ...). */
type SecretField = CamelCase<(typeof SECRET_DETAIL_FIELDS)[number]> & keyof NodeDetails;

/** A secret field that is an endpoint URL: these have a masked twin. */
type EndpointField = Extract<SecretField, `${string}Endpoint`>;

/**
 * Names of the secret fields of {@link NodeResult}: the model's secret `details` fields
 * (`SECRET_DETAIL_FIELDS`), camelCase. Endpoint URLs are among them, since they may embed the key.
 */
export const NODE_SECRET_FIELDS: readonly SecretField[] = SECRET_DETAIL_FIELDS.map(
  (field) => field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as SecretField,
);

/** The secret fields that are endpoint URLs, each with a masked twin `<field>Masked`. */
const ENDPOINT_FIELDS = NODE_SECRET_FIELDS.filter((f): f is EndpointField => f.endsWith("Endpoint"));

const isSecretField = (field: string): boolean => (NODE_SECRET_FIELDS as readonly string[]).includes(field);

/**
 * A node as the functions return it: the fields of a `Node`, with its `details` flattened.
 * Metadata (`id`, `name`, `network`, `status`, ..., `mode`, `version`, `apiNamespaces`) is plain
 * and readable (usable in names and previews). Every endpoint URL and credential
 * (`httpsEndpoint`, `wssEndpoint`, `graphqlEndpoint`, `beaconEndpoint`, `authUsername`,
 * `authPassword`, `authKey`) is a secret Output. Each endpoint has a masked, non-secret twin for
 * display (`httpsEndpointMasked`, ...: credentials replaced by `***`), present when the endpoint is.
 */
export interface NodeResult
  extends Omit<Node, "details">, Omit<NodeDetails, SecretField>, SecretOutputs, MaskedEndpoints {}

/** The secret fields of a node's details, as secret Outputs. */
type SecretOutputs = { [K in SecretField]-?: pulumi.Output<NodeDetails[K]> };

/** The masked, non-secret twins of the endpoints. */
type MaskedEndpoints = { [K in EndpointField as `${K}Masked`]?: string };

/** Builds the function result of a node: secrets wrapped, masked twins computed. */
export function toNodeResult(node: Node): NodeResult {
  const { details, ...metadata } = node;
  const credentials = [details.authKey, details.authPassword, details.authUsername];
  const result: Record<string, unknown> = { ...metadata };
  for (const [field, value] of Object.entries(details)) if (!isSecretField(field)) result[field] = value;
  for (const field of NODE_SECRET_FIELDS) result[field] = pulumi.secret(details[field]);
  for (const field of ENDPOINT_FIELDS) {
    const url = details[field];
    if (url !== undefined) result[`${field}Masked`] = maskEndpoint(url, credentials);
  }
  return compact(result) as unknown as NodeResult;
}
