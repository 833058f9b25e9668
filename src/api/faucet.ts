/** The test-token faucet (spec 4.5). */
import { DEFAULT_FAUCET_CHAIN, PATHS, Problem, checkAddress, checkFaucetChain } from "../model";
import { toFaucetResult } from "./mapping";
import { mapResponse } from "./answer";
import { request } from "./request";
import type { Transport } from "./transport";
import type { FaucetResult } from "./types";
import { apiUrl } from "./url";
import { requireNoProblems } from "./errors";

/**
 * Asks the faucet of `chain` (default `goerli`; `POST /v1/faucet/{chain}`) to send test tokens to
 * `address`. Both are checked before sending: the address is `0x` and 40 hex digits, EIP-55
 * checksum when mixed case; the chain is a path-safe name (lowercase letters, digits, hyphens,
 * starting with a letter). `amountSent` is the exact wei amount as a decimal
 * string. The POST is not idempotent: it is retried only when the service said it was not
 * processed (429, or 503 with `Retry-After`), or the connection was refused. Once the request was
 * sent, any outcome but such a clear refusal (a timeout, a dropped connection, a 5xx or gateway
 * page, a 200 whose body cannot be read) throws an error with `mayHaveBeenProcessed: true`: the
 * tokens may have been sent. A 429 carries `nextFaucetAvailable`.
 */
export async function requestTestTokens(
  t: Transport,
  address: string,
  chain: string = DEFAULT_FAUCET_CHAIN,
): Promise<FaucetResult> {
  const operation = "requestTestTokens";
  const problems = [checkAddress("address", address), checkFaucetChain("chain", chain)].filter(
    (p): p is Problem => p !== undefined,
  );
  requireNoProblems(t, operation, problems);
  const spec = { operation, resourceId: address, method: "POST" as const };
  const response = await request(t, {
    ...spec,
    url: apiUrl(t.base, PATHS.faucet(chain)),
    body: { address },
  });
  return mapResponse(t, spec, response, (body, text) => toFaucetResult(body, text));
}
