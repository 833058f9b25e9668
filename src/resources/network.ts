import * as pulumi from "@pulumi/pulumi";
import type { Creator, Node } from "../api";
import { providerFor } from "./provider-shell";

/** Arguments of {@link Network}. */
export interface NetworkArgs {
  /**
   * Id of the existing network to adopt (`NW-…`). Networks cannot be created through the
   * service's API; changing this id replaces the resource (the new network is adopted, the old one deleted).
   */
  networkId: pulumi.Input<string>;
  /** Desired name; updated in place. When omitted, the name is left as it is. */
  name?: pulumi.Input<string>;
  /** Desired project id (`PR-…`); the network is moved in place. When omitted, left as it is. */
  project?: pulumi.Input<string>;
  /** API URL; defaults to stack config `blockchain:apiUrl`, then `BLOCKCHAIN_API_URL`. */
  apiUrl?: pulumi.Input<string>;
  /** API key, always stored as a secret; defaults to `blockchain:apiKey`, then `BLOCKCHAIN_API_KEY`. */
  apiKey?: pulumi.Input<string>;
}

/** Outputs that carry credentials and are always secret. */
export const NETWORK_SECRET_OUTPUTS = ["nodes", "apiKey"];

/**
 * A network of the blockchain node service, adopted by id.
 *
 * - create: reads the network (a PATCH with an empty body, the only call that returns a
 *   network), then applies `name`/`project` if given;
 * - refresh: current values (drift shows); a network deleted out of band is dropped from state;
 * - update: PATCHes only what changed;
 * - delete: DELETE (a 404 counts as already gone); the service refuses while nodes remain.
 *
 * The engine's `import` option does not work for dynamic resources: adopting by `networkId` is the way.
 */
export class Network extends pulumi.dynamic.Resource {
  /** The network's id. */
  declare readonly networkId: pulumi.Output<string>;
  /** Current name. */
  declare readonly name: pulumi.Output<string>;
  /** Project id. */
  declare readonly project: pulumi.Output<string>;
  /** Protocol, e.g. `ethereum`. */
  declare readonly protocol: pulumi.Output<string>;
  /** Public network, e.g. `ethereum-mainnet` (absent when the service does not say). */
  declare readonly publicNetwork: pulumi.Output<string | undefined>;
  /** Network status: `pending`, `ok`, `failed`, `warning`, `stopping`, `stopped` or `starting`. */
  declare readonly status: pulumi.Output<string>;
  /** Network details object (may be empty). */
  declare readonly details: pulumi.Output<Record<string, unknown>>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Who created the network. */
  declare readonly creator: pulumi.Output<Creator | undefined>;
  /** The network's nodes with their endpoints and credentials: secret. */
  declare readonly nodes: pulumi.Output<Node[]>;

  /** Adopts the network `args.networkId` under the resource name `name`. */
  constructor(name: string, args: NetworkArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providerFor("network"),
      name,
      {
        networkId: args.networkId,
        name: args.name,
        project: args.project,
        apiUrl: args.apiUrl,
        apiKey: args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
        protocol: undefined,
        publicNetwork: undefined,
        status: undefined,
        details: undefined,
        createdAt: undefined,
        creator: undefined,
        nodes: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: NETWORK_SECRET_OUTPUTS }),
      "blockchain",
      "Network",
    );
  }
}
