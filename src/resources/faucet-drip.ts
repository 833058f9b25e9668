import * as pulumi from "@pulumi/pulumi";
import { KINDS } from "../provider/kinds";
import { type FAUCET_DRIP_PROPERTIES } from "../provider/faucet-drip";
import { checkDeclaration, providerFor, type ArgsOf, type OutputsOf } from "./shell";

/** Arguments of {@link FaucetDrip}. */
export type FaucetDripArgs = ArgsOf<typeof FAUCET_DRIP_PROPERTIES>;

/** The outputs of a {@link FaucetDrip}, declared from its property table. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the class's output members
export interface FaucetDrip extends OutputsOf<typeof FAUCET_DRIP_PROPERTIES> {}

/**
 * One request of test tokens from the service's faucet (`POST /v1/faucet/{chain}`, by default
 * `goerli`), made once when the resource is created. A new address or chain replaces the
 * resource (a new request). Deleting it does nothing: tokens that were sent cannot be returned.
 * The faucet's daily limit per address applies; the error says when the next request is possible.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- outputs declared by the interface above
export class FaucetDrip extends pulumi.dynamic.Resource {
  /**
   * Requests test tokens for `args.address` when created.
   * @throws pulumi.ResourceError when `opts.import` is set (a faucet request cannot be imported)
   * or `args` is missing.
   */
  constructor(name: string, args: FaucetDripArgs, opts?: pulumi.CustomResourceOptions) {
    const { props, options } = checkDeclaration(KINDS.faucetDrip, name, args, opts);
    super(providerFor(KINDS.faucetDrip.key), name, props, options, "blockchain", "FaucetDrip");
  }
}
