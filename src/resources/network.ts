import * as pulumi from "@pulumi/pulumi";
import type { Creator, NodeConnection, NodeResult } from "../api";
import { refuseImport } from "./import-option";
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
export const NETWORK_SECRET_OUTPUTS = ["connections", "apiKey"];

/**
 * A network of the blockchain node service, adopted by id.
 *
 * - create: reads the network (a PATCH with an empty body, the only call that returns a
 *   network), then applies `name`/`project` if given;
 * - refresh: current values (drift shows); a network deleted out of band is dropped from state;
 * - update: PATCHes only what changed;
 * - delete: DELETE (a 404 counts as already gone); the service refuses while nodes remain.
 *
 * The engine's `import` option does not work for dynamic resources: adopting by `networkId` is the
 * way, and the constructor refuses `import` saying so.
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
  /**
   * The network's nodes, the same shape as the functions' results (`getNodes`): readable metadata
   * (id, name, status, region, …) and masked endpoints for display. Not secret: it holds no
   * endpoint URL and no credential; those are in {@link connections}.
   */
  declare readonly nodes: pulumi.Output<NodeResult[]>;
  /**
   * The network's nodes' endpoints and credentials (`httpsEndpoint`, `wssEndpoint`, `authKey`, …)
   * as plain strings, in an Output that is secret as a whole: every value built from it in an
   * `apply` or a `pulumi.interpolate` stays secret.
   */
  declare readonly connections: pulumi.Output<NodeConnection[]>;

  /**
   * Adopts the network `args.networkId` under the resource name `name`.
   * @throws pulumi.ResourceError when `opts.import` is set (use `networkId` to adopt) or `args`
   * is missing.
   */
  constructor(name: string, args: NetworkArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("Network", name, opts);
    if (args === undefined || args === null || typeof args !== "object") {
      throw new pulumi.ResourceError(
        `Network ${JSON.stringify(name)}: the arguments are missing: pass at least the id of the network to adopt, ` +
          `e.g. new Network(${JSON.stringify(name)}, { networkId: "NW-…" }).`,
        undefined,
        true,
      );
    }
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
        connections: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: NETWORK_SECRET_OUTPUTS }),
      "blockchain",
      "Network",
    );
  }
}
