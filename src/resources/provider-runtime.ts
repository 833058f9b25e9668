/**
 * The dynamic providers' implementation, loaded by name inside the provider process at call
 * time (`require("pulumi-blockchain-nodes/provider-runtime")`). The serialized providers
 * therefore capture no client, no key and no module by value: see `./provider-shell.ts`.
 * The SDK is imported for its types only: the provider process never loads it from here.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  checkFaucetDrip,
  createFaucetDrip,
  deleteFaucetDrip,
  diffFaucetDrip,
  FaucetDripInputs,
  FaucetDripOutputs,
  readFaucetDrip,
  updateFaucetDrip,
} from "./faucet-drip-provider";
import {
  checkNetwork,
  createNetwork,
  deleteNetwork,
  diffNetwork,
  NetworkInputs,
  NetworkOutputs,
  readNetwork,
  updateNetwork,
} from "./network-provider";
import { setWaitReporter } from "../settings";
import { engineLog } from "./engine-log";
import { setProviderConfig } from "./provider-config";
import { quietly } from "./quiet-errors";

// A wait between two attempts shows in the engine's log as it happens (a 429, a 5xx, a timeout).
setWaitReporter((event) => engineLog("info", event.message));

/** Keeps the stack config of this provider process (read at call time, never serialized). */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  setProviderConfig((key) => req.config.get(key));
}

/**
 * The Network provider's methods; their errors are quiet (one message, no trace: see
 * `./quiet-errors.ts`). `read` also returns the inputs that match the refreshed outputs; the SDK
 * types `ReadResult.inputs` as outputs, and the host hands them to the engine as inputs.
 */
export const network = {
  check: quietly(checkNetwork),
  diff: quietly(diffNetwork),
  create: quietly(createNetwork),
  read: quietly(
    readNetwork as (id: string, props?: NetworkOutputs) => Promise<pulumi.dynamic.ReadResult<NetworkOutputs>>,
  ),
  update: quietly(updateNetwork),
  delete: quietly(deleteNetwork),
} satisfies pulumi.dynamic.ResourceProvider<NetworkInputs, NetworkOutputs>;

/** The FaucetDrip provider's methods; their errors are quiet (see `./quiet-errors.ts`). */
export const faucetDrip = {
  check: quietly(checkFaucetDrip),
  diff: quietly(diffFaucetDrip),
  create: quietly(createFaucetDrip),
  read: quietly(readFaucetDrip),
  update: quietly(updateFaucetDrip),
  delete: quietly(deleteFaucetDrip),
} satisfies pulumi.dynamic.ResourceProvider<FaucetDripInputs, FaucetDripOutputs>;
