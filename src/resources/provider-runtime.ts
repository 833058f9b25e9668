/**
 * The dynamic providers' implementation, loaded by name inside the provider process at call
 * time (`require("pulumi-blockchain-nodes/provider-runtime")`). The serialized providers
 * therefore capture no client, no key and no module by value: see `./provider-shell.ts`.
 */
import { setProviderConfig } from "./connection";
import {
  checkFaucetDrip,
  createFaucetDrip,
  deleteFaucetDrip,
  diffFaucetDrip,
  FaucetDripInputs,
  FaucetDripOutputs,
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

/** What `configure(req)` hands a dynamic provider: the stack configuration. */
export interface ConfigureRequestLike {
  config: { get(key: string): string | undefined };
}

/** Keeps the stack config of this provider process (read at call time, never serialized). */
export async function configure(req: ConfigureRequestLike): Promise<void> {
  setProviderConfig((key) => req.config.get(key));
}

/** The Network provider's methods. */
export const network = {
  check: checkNetwork,
  diff: (id: string, olds: NetworkOutputs, news: NetworkInputs) => diffNetwork(id, olds, news),
  create: (inputs: NetworkInputs) => createNetwork(inputs),
  read: (id: string, props: NetworkOutputs) => readNetwork(id, props),
  update: (id: string, olds: NetworkOutputs, news: NetworkInputs) => updateNetwork(id, olds, news),
  delete: (id: string, props: NetworkOutputs) => deleteNetwork(id, props),
};

/** The FaucetDrip provider's methods. */
export const faucetDrip = {
  check: checkFaucetDrip,
  diff: (id: string, olds: FaucetDripOutputs, news: FaucetDripInputs) => diffFaucetDrip(id, olds, news),
  create: (inputs: FaucetDripInputs) => createFaucetDrip(inputs),
  read: async (id: string, props: FaucetDripOutputs) => ({ id, props }),
  update: async (_id: string, _olds: FaucetDripOutputs, news: FaucetDripOutputs) => ({ outs: news }),
  delete: () => deleteFaucetDrip(),
};
