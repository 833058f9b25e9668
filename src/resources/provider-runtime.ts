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
import { setProviderConfig } from "./provider-config";

/** Keeps the stack config of this provider process (read at call time, never serialized). */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  setProviderConfig((key) => req.config.get(key));
}

/** The Network provider's methods. */
export const network = {
  check: checkNetwork,
  diff: diffNetwork,
  create: createNetwork,
  read: readNetwork,
  update: updateNetwork,
  delete: deleteNetwork,
} satisfies pulumi.dynamic.ResourceProvider<NetworkInputs, NetworkOutputs>;

/** The FaucetDrip provider's methods. */
export const faucetDrip = {
  check: checkFaucetDrip,
  diff: diffFaucetDrip,
  create: createFaucetDrip,
  read: readFaucetDrip,
  update: updateFaucetDrip,
  delete: deleteFaucetDrip,
} satisfies pulumi.dynamic.ResourceProvider<FaucetDripInputs, FaucetDripOutputs>;
