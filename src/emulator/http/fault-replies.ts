/**
 * The answers of injected faults: the error a status fault gives (the service's JSON error, or
 * a gateway's HTML page), and the unreadable `200` a malformed fault makes of a real answer.
 */
import type { Fault, FaultStatus, MalformedKind } from "./fault-options";
import type { Reply } from "./reply";
import { JSON_TYPE, errorReply } from "./reply";

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

/** The body the emulator answers for an injected status. */
export function faultReply(status: FaultStatus, retryAfter: string | undefined): Reply {
  const headers: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": retryAfter };
  switch (status) {
    case 429: {
      const when =
        retryAfter !== undefined && /^\d+$/.test(retryAfter)
          ? ` Expected available in ${retryAfter} seconds.`
          : "";
      return errorReply(429, "throttled", `Request was throttled.${when}`, { headers });
    }
    case 500:
      return errorReply(500, "server_error", "A server error occurred.", { headers });
    case 503:
      return errorReply(503, "service_unavailable", "Service temporarily unavailable, try again later.", {
        headers,
      });
    case 502:
    case 504: {
      const title = status === 502 ? "502 Bad Gateway" : "504 Gateway Time-out";
      return {
        status,
        headers: { "Content-Type": "text/html", ...headers },
        body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
      };
    }
  }
}

/** The reply of a status fault: the default body, or the one given. */
export function statusReply(fault: Extract<Fault, { status: FaultStatus }>): Reply {
  const reply = faultReply(fault.status, fault.retryAfter);
  if (fault.body !== undefined) {
    reply.body = fault.body;
    reply.headers["Content-Type"] =
      fault.contentType ?? (fault.body.trimStart().startsWith("<") ? "text/html" : "application/json");
  } else if (fault.contentType !== undefined) {
    reply.headers["Content-Type"] = fault.contentType;
  }
  return reply;
}
