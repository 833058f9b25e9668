import * as pulumi from "@pulumi/pulumi";
import type { Creator } from "../api";
import { KINDS, type NodeConnection, type NodeResult } from "../provider";
import { checkDeclaration, providerFor } from "./shell";

/**
 * Arguments of {@link Network}.
 *
 * **Destroy deletes the network in the service** (`DELETE /v1/networks/{id}/`), unless the
 * resource has the `retainOnDelete: true` option: set it when the stack only manages the name of a
 * network that must outlive the stack (a shared or production network), so that `pulumi destroy`
 * and a replacement forget it and leave it in place. The service refuses to delete a network that
 * still has nodes.
 */
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
  /**
   * Per-attempt timeout of each call to the service, ms (default 20000); defaults to stack config
   * `blockchain:timeoutMs`, then `BLOCKCHAIN_TIMEOUT_MS`. A change updates in place.
   */
  timeoutMs?: pulumi.Input<number>;
  /**
   * Overall deadline of each call to the service across its retries, ms (default 60000); defaults
   * to stack config `blockchain:deadlineMs`, then `BLOCKCHAIN_DEADLINE_MS`. A change updates in place.
   */
  deadlineMs?: pulumi.Input<number>;
  /**
   * Retries of each call after its first attempt (default 4, at most 100); defaults to stack
   * config `blockchain:maxRetries`, then `BLOCKCHAIN_MAX_RETRIES`. A change updates in place.
   */
  maxRetries?: pulumi.Input<number>;
}

/** Outputs that carry credentials and are always secret. */
export const NETWORK_SECRET_OUTPUTS = KINDS.network.secretOutputs;

/**
 * A network of the blockchain node service, adopted by id.
 *
 * - create: reads the network (a PATCH with an empty body, the only call that returns a
 *   network), then applies `name`/`project` if given;
 * - refresh: current values (drift shows); a network deleted out of band is dropped from state;
 * - update: PATCHes only what changed;
 * - delete: DELETE (a 404 counts as already gone); the service refuses while nodes remain.
 *
 * **Destroy deletes the network in the service**, and so does a replacement (a new `networkId`)
 * for the old one, unless the resource has the `retainOnDelete: true` option. Set it when the
 * stack only adopts a network that must outlive it (shared, production): destroy then forgets the
 * network and leaves it in place. A destroy uses the options stored in state: run `pulumi up`
 * once after adding the option.
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
   * The network's nodes' endpoints and credentials (each secret field of a {@link NodeConnection})
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
    const options = checkDeclaration(KINDS.network, name, args, opts);
    super(
      providerFor(KINDS.network.key),
      name,
      {
        networkId: args.networkId,
        name: args.name,
        project: args.project,
        apiUrl: args.apiUrl,
        apiKey: args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
        timeoutMs: args.timeoutMs,
        deadlineMs: args.deadlineMs,
        maxRetries: args.maxRetries,
        protocol: undefined,
        publicNetwork: undefined,
        status: undefined,
        details: undefined,
        createdAt: undefined,
        creator: undefined,
        nodes: undefined,
        connections: undefined,
      },
      options,
      "blockchain",
      "Network",
    );
  }
}
