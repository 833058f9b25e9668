import { checkAddress } from "../model";
import type { ApiContext, ApiRequest } from "./context";
import { nextUtcMidnight } from "./faucet";
import { parseJsonObject } from "./json-body";
import type { Reply } from "./reply";
import { JSON_TYPE, errorReply, validationError } from "./reply";

/**
 * `POST /v1/faucet/goerli` with `{"address": "0x..."}`: checks the address with the model
 * (EIP-55 checksum for mixed case; 400 `validation_error`), applies the per-address daily limit
 * (429 `rate_limited` with a top-level `nextFaucetAvailable`: the next UTC midnight) and answers
 * `{"amountSent": <wei as a JSON number>, "transaction": "<link>"}`.
 */
export function requestTokens(req: ApiRequest, ctx: ApiContext): Reply {
  const body = parseJsonObject(req.body, req.headers["content-type"]);
  if ("reply" in body) return body.reply;
  const address = body.value.address;
  const problem =
    address === undefined
      ? { field: "address", value: "undefined", allowed: "this field is required" }
      : checkAddress("address", address);
  if (problem) return validationError([problem]);
  const now = ctx.now();
  if (!ctx.faucet.allowed(address as string, now)) {
    const next = nextUtcMidnight(now).toISOString();
    return errorReply(
      429,
      "rate_limited",
      `The faucet already sent tokens to ${address as string} today (limit ${ctx.faucetDailyLimit} per address per UTC day); try again after ${next}.`,
      { top: { nextFaucetAvailable: next } },
    );
  }
  const send = ctx.faucet.send(address as string, now);
  // Written by hand so that the wei amount is a JSON number with every digit, like the service's.
  return {
    status: 200,
    headers: { "Content-Type": JSON_TYPE },
    body: `{"amountSent":${send.amountSent},"transaction":${JSON.stringify(send.transaction)}}`,
  };
}
