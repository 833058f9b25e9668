import * as pulumi from "@pulumi/pulumi";
import { KINDS, type FaucetOutcome } from "../provider";
import { checkDeclaration, providerFor } from "./shell";

/** Arguments of {@link FaucetDrip}. */
export interface FaucetDripArgs {
  /** The address to send test tokens to: 0x and 40 hex digits; mixed case must pass EIP-55. */
  address: pulumi.Input<string>;
  /**
   * The test chain whose faucet sends the tokens (`POST /v1/faucet/{chain}`); default `goerli`,
   * the chain of the service's interface. The real service serves the chains its public reference
   * lists (sepolia and hoodi among others). A lowercase letter, then lowercase letters, digits
   * and hyphens, up to 63 characters. A change replaces the resource (a new request); leaving it
   * out is the same as `goerli`.
   */
  chain?: pulumi.Input<string>;
  /** API URL; defaults to stack config `blockchain:apiUrl`, then `BLOCKCHAIN_API_URL`. */
  apiUrl?: pulumi.Input<string>;
  /** API key, always stored as a secret; defaults to `blockchain:apiKey`, then `BLOCKCHAIN_API_KEY`. */
  apiKey?: pulumi.Input<string>;
  /**
   * Per-attempt timeout of the faucet request, ms (default 20000); defaults to stack config
   * `blockchain:timeoutMs`, then `BLOCKCHAIN_TIMEOUT_MS`. A change needs no action.
   */
  timeoutMs?: pulumi.Input<number>;
  /**
   * Overall deadline of the faucet request, ms (default 60000); defaults to stack config
   * `blockchain:deadlineMs`, then `BLOCKCHAIN_DEADLINE_MS`. A change needs no action.
   */
  deadlineMs?: pulumi.Input<number>;
  /**
   * Retries of the faucet request, only when the service clearly did not process it (default 4);
   * defaults to stack config `blockchain:maxRetries`, then `BLOCKCHAIN_MAX_RETRIES`.
   */
  maxRetries?: pulumi.Input<number>;
}

/**
 * One request of test tokens from the service's faucet (`POST /v1/faucet/{chain}`, by default
 * `goerli`), made once when the resource is created. A new address or chain replaces the
 * resource (a new request). Deleting it does nothing: tokens that were sent cannot be returned.
 * The faucet's daily limit per address applies; the error says when the next request is possible.
 */
export class FaucetDrip extends pulumi.dynamic.Resource {
  /** The address tokens were sent to. */
  declare readonly address: pulumi.Output<string>;
  /**
   * The chain whose faucet was asked. Absent on drips recorded before `chain` existed: those
   * asked `goerli`.
   */
  declare readonly chain: pulumi.Output<string | undefined>;
  /**
   * `sent`, or `unknown` when the request reached the service (or may have) and no readable answer
   * came back: the tokens may have been sent, and they are never sent again automatically. See
   * `note` for how to check and how to send again on purpose.
   */
  declare readonly outcome: pulumi.Output<FaucetOutcome>;
  /** Amount sent, in wei, as an exact decimal string; `""` when the outcome is unknown. */
  declare readonly amountSent: pulumi.Output<string>;
  /** Link to the transaction; `""` when the outcome is unknown. */
  declare readonly transaction: pulumi.Output<string>;
  /** When the outcome is unknown: what happened and what to do; `""` otherwise. */
  declare readonly note: pulumi.Output<string>;

  /**
   * Requests test tokens for `args.address` when created.
   * @throws pulumi.ResourceError when `opts.import` is set (a faucet request cannot be imported)
   * or `args` is missing.
   */
  constructor(name: string, args: FaucetDripArgs, opts?: pulumi.CustomResourceOptions) {
    const options = checkDeclaration(KINDS.faucetDrip, name, args, opts);
    super(
      providerFor(KINDS.faucetDrip.key),
      name,
      {
        address: args.address,
        chain: args.chain,
        apiUrl: args.apiUrl,
        apiKey: args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
        timeoutMs: args.timeoutMs,
        deadlineMs: args.deadlineMs,
        maxRetries: args.maxRetries,
        outcome: undefined,
        amountSent: undefined,
        transaction: undefined,
        note: undefined,
      },
      options,
      "blockchain",
      "FaucetDrip",
    );
  }
}
