import { checkAddress } from "../model";
import { checkCredentialInputs, CheckResult, describeError, toFailures } from "./checks";
import { clientFor } from "./connection";
import { UNKNOWN, withoutUndefined } from "./unknown";

/** Inputs of the FaucetDrip resource as the provider receives them. */
export interface FaucetDripInputs {
  address: string;
  apiUrl?: string;
  apiKey?: string;
}

/** Outputs of the FaucetDrip resource. */
export interface FaucetDripOutputs {
  address: string;
  /** Amount sent, in wei, as an exact decimal string. */
  amountSent: string;
  /** Link to the transaction. */
  transaction: string;
  apiUrl?: string;
  apiKey?: string;
}

/** `check`: the address must be 0x + 40 hex digits; mixed case must pass EIP-55. */
export async function checkFaucetDrip(_olds: unknown, news: Record<string, unknown>): Promise<CheckResult> {
  const problem = news.address === UNKNOWN ? undefined : checkAddress("address", news.address);
  return {
    inputs: news,
    failures: [...toFailures(problem ? [problem] : []), ...checkCredentialInputs(news)],
  };
}

/** `diff`: a new address replaces (a new request); credential changes need no action. */
export async function diffFaucetDrip(
  _id: string,
  olds: FaucetDripOutputs,
  news: FaucetDripInputs,
): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
  const replaces = news.address !== olds.address ? ["address"] : [];
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}

/** `create`: requests test tokens once and records what was sent. */
export async function createFaucetDrip(
  inputs: FaucetDripInputs,
): Promise<{ id: string; outs: FaucetDripOutputs }> {
  try {
    const result = await clientFor(inputs).requestTestTokens(inputs.address);
    const id = transactionId(result.transaction) ?? `${inputs.address}-${Date.now()}`;
    return {
      id,
      outs: withoutUndefined({
        address: inputs.address,
        amountSent: result.amountSent,
        transaction: result.transaction,
        apiUrl: inputs.apiUrl,
        apiKey: inputs.apiKey,
      }),
    };
  } catch (err) {
    throw describeError(err, "requesting test tokens for", inputs.address);
  }
}

/** The transaction hash at the end of the faucet's transaction link, used as the resource id. */
function transactionId(link: string): string | undefined {
  const match = /0x[0-9a-fA-F]{16,}/.exec(link);
  return match ? match[0] : undefined;
}

/** `delete`: nothing to do: tokens that were sent cannot be returned. */
export async function deleteFaucetDrip(): Promise<void> {
  return;
}
