import type { Reply } from "./reply";
import { JSON_TYPE } from "./reply";
import type { MalformedKind } from "./types";

/** Every kind of unreadable `200` answer, in a fixed order (random draws pick from it). */
export const MALFORMED_KINDS: readonly MalformedKind[] = [
  "html",
  "truncated-json",
  "non-integer-amount",
  "missing-transaction",
];

/** The kinds that only make sense on the faucet's answer (`amountSent`, `transaction`). */
export const FAUCET_ONLY_MALFORMED_KINDS: readonly MalformedKind[] = [
  "non-integer-amount",
  "missing-transaction",
];

/** The kinds that fit any route's JSON answer. */
export const GENERIC_MALFORMED_KINDS: readonly MalformedKind[] = ["html", "truncated-json"];

/** The page a CDN or captive portal answers with `200` instead of the API's JSON. */
export const MALFORMED_HTML =
  "<!DOCTYPE html>\r\n<html>\r\n<head><title>Just a moment...</title></head>\r\n" +
  "<body>\r\n<h1>Checking your browser before accessing the site.</h1>\r\n</body>\r\n</html>\r\n";

/** The `amountSent` of a `non-integer-amount` answer: 0.5 (ether, not wei). */
export const NON_INTEGER_AMOUNT = 0.5;

/**
 * Turns the successful answer of a processed request into an unreadable `200`, or returns
 * undefined when it does not apply (only a `2xx` answer with a JSON object body is mangled;
 * the faucet kinds need `amountSent` / `transaction` in it):
 *
 * - `html`: an HTML page with `Content-Type: text/html`;
 * - `truncated-json`: the JSON body cut in half, still labelled `application/json`;
 * - `non-integer-amount`: `amountSent` is `0.5`;
 * - `missing-transaction`: the body has no `transaction`.
 */
export function malformedReply(kind: MalformedKind, real: Reply): Reply | undefined {
  if (real.status < 200 || real.status > 299 || real.body === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(real.body);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const object = value as Record<string, unknown>;
  const jsonReply = (body: string): Reply => ({ status: 200, headers: { "Content-Type": JSON_TYPE }, body });
  switch (kind) {
    case "html":
      return { status: 200, headers: { "Content-Type": "text/html" }, body: MALFORMED_HTML };
    case "truncated-json":
      return jsonReply(real.body.slice(0, Math.max(1, Math.floor(real.body.length / 2))));
    case "non-integer-amount":
      if (!("amountSent" in object)) return undefined;
      return jsonReply(JSON.stringify({ ...object, amountSent: NON_INTEGER_AMOUNT }));
    case "missing-transaction": {
      if (!("transaction" in object)) return undefined;
      const { transaction: _dropped, ...rest } = object;
      return jsonReply(JSON.stringify(rest));
    }
  }
}
