/** The test-token faucet (spec 4.5). */
import { PATHS, checkAddress } from "../model";
import { toFaucetResult } from "./mapping";
import { mapResponse } from "./map-response";
import { request } from "./request";
import type { Transport } from "./transport";
import type { FaucetResult } from "./types";
import { apiUrl } from "./url";
import { requireNoProblems } from "./validation";

/**
 * Asks the faucet to send test tokens to `address` (checked before sending: `0x` and 40 hex
 * digits, EIP-55 checksum when mixed case). `amountSent` is the exact wei amount as a decimal
 * string. The POST is not idempotent: it is retried only when the service said it was not
 * processed (429, or 503 with `Retry-After`), or the connection was refused. Once the request was
 * sent, any outcome but such a clear refusal (a timeout, a dropped connection, a 5xx or gateway
 * page, a 200 whose body cannot be read) throws an error with `mayHaveBeenProcessed: true`: the
 * tokens may have been sent. A 429 carries `nextFaucetAvailable`.
 */
export async function requestTestTokens(t: Transport, address: string): Promise<FaucetResult> {
  const operation = "requestTestTokens";
  const problem = checkAddress("address", address);
  requireNoProblems(t, operation, problem ? [problem] : []);
  const spec = { operation, resourceId: address, method: "POST" as const };
  const response = await request(t, {
    ...spec,
    url: apiUrl(t.base, PATHS.faucet),
    body: { address },
  });
  return mapResponse(t, spec, response, (body, text) => toFaucetResult(body, text));
}
