import * as pulumi from "@pulumi/pulumi";
import { KINDS, secretOutputs, type NETWORK_PROPERTIES } from "../provider";
import { checkDeclaration, providerFor, type ArgsOf, type OutputsOf } from "./shell";

/**
 * Arguments of {@link Network}.
 *
 * **Destroy deletes the network in the service** (`DELETE /v1/networks/{id}/`), unless the
 * resource has the `retainOnDelete: true` option: set it when the stack only manages the name of a
 * network that must outlive the stack (a shared or production network), so that `pulumi destroy`
 * and a replacement forget it and leave it in place. The service refuses to delete a network that
 * still has nodes.
 */
export type NetworkArgs = ArgsOf<typeof NETWORK_PROPERTIES>;

/** Outputs that carry credentials and are always secret. */
export const NETWORK_SECRET_OUTPUTS = secretOutputs(KINDS.network.properties);

/** The outputs of a {@link Network}, declared from its property table. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the class's output members
export interface Network extends OutputsOf<typeof NETWORK_PROPERTIES> {}

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
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- outputs declared by the interface above
export class Network extends pulumi.dynamic.Resource {
  /**
   * Adopts the network `args.networkId` under the resource name `name`.
   * @throws pulumi.ResourceError when `opts.import` is set (use `networkId` to adopt) or `args`
   * is missing.
   */
  constructor(name: string, args: NetworkArgs, opts?: pulumi.CustomResourceOptions) {
    const { props, options } = checkDeclaration(KINDS.network, name, args, opts);
    super(providerFor(KINDS.network.key), name, props, options, "blockchain", "Network");
  }
}
