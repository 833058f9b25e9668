/** The test-token faucet (spec 4.5). */
import { DEFAULT_FAUCET_CHAIN, checkAddress, checkFaucetChain } from "../model/rules";
import { requireNoProblems } from "./errors";
import { toFaucetResult } from "./mapping";
import type { Context } from "./options";
import { mapAnswer, request, startCall, type CallOptions } from "./request";
import type { FaucetResult } from "./types";
import { apiUrl, PATHS } from "./url";

/** Asks the faucet of `chain` (`POST /v1/faucet/{chain}`, never idempotent) for test tokens to `address`. */
export async function requestTestTokens(
  t: Context,
  address: string,
  chain: string = DEFAULT_FAUCET_CHAIN,
  options?: CallOptions,
): Promise<FaucetResult> {
  const call = startCall(t, "requestTestTokens", options, address);
  requireNoProblems(t, call.operation, [checkAddress("address", address), checkFaucetChain("chain", chain)]);
  const url = apiUrl(t.base, PATHS.faucet(chain));
  const answer = await request(t, call, { method: "POST", url, body: { address } });
  return mapAnswer(t, call, answer, (a) => toFaucetResult(a.body, a.text), true);
}
