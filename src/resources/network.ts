import * as pulumi from "@pulumi/pulumi";
import { KINDS } from "../provider/kinds";
import { type NETWORK_PROPERTIES } from "../provider/network";
import { checkDeclaration, providerFor, type ArgsOf, type OutputsOf } from "./shell";

/**
 * Arguments of {@link Network}. Destroy and replace leave the network in the service (the stack
 * only adopted it) unless `forceDestroy: true` is set.
 */
export type NetworkArgs = ArgsOf<typeof NETWORK_PROPERTIES>;

/** The outputs of a {@link Network}, declared from its property table. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the class's output members
export interface Network extends OutputsOf<typeof NETWORK_PROPERTIES> {}

/**
 * A network of the blockchain node service, adopted by id: create reads it and applies
 * `name`/`project`, refresh shows drift, update PATCHes what changed. Destroy and a replacement
 * forget the network and leave it in the service; with `forceDestroy: true` they delete it (the
 * service refuses while nodes remain; a destroy uses the value stored in state).
 * The `import` option does not work for dynamic resources: adopt by `networkId`.
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
