import { FAUCET_TEMPLATE, NETWORK_TEMPLATE, matchRoute } from "./routes";

/**
 * Fixed delays of particular operations, applied before the request is processed (after any
 * fault or latency), so a test can hold a send or an update in flight. Milliseconds, `>= 0`;
 * absent or `0`: no delay.
 */
export interface RouteDelays {
  /** Delay of `POST /v1/faucet/{chain}` (every chain). */
  faucetMs?: number;
  /** Delay of `PATCH /v1/networks/{id}/` (update, and the empty-body read). */
  networkUpdateMs?: number;
}

/** Longest delay accepted, in milliseconds (10 minutes). */
export const MAX_ROUTE_DELAY_MS = 600_000;

const KEYS = ["faucetMs", "networkUpdateMs"] as const;

/** Throws a RangeError when a route delay is not a number of milliseconds in range. */
export function validateRouteDelays(delays: RouteDelays): void {
  if (typeof delays !== "object" || delays === null || Array.isArray(delays)) {
    throw new RangeError(`routeDelays must be an object with faucetMs and/or networkUpdateMs`);
  }
  for (const key of Object.keys(delays)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new RangeError(`unknown route delay ${key}; expected ${KEYS.join(" or ")}`);
    }
  }
  for (const key of KEYS) {
    const v = delays[key];
    if (
      v !== undefined &&
      !(typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= MAX_ROUTE_DELAY_MS)
    ) {
      throw new RangeError(`routeDelays.${key} must be milliseconds from 0 to ${MAX_ROUTE_DELAY_MS}`);
    }
  }
}

/** The delay of a request's operation before it is processed: `0` for operations without one. */
export function routeDelayMs(delays: RouteDelays, method: string, path: string): number {
  const template = matchRoute(path)?.route.template;
  if (method === "POST" && template === FAUCET_TEMPLATE) return delays.faucetMs ?? 0;
  if (method === "PATCH" && template === NETWORK_TEMPLATE) return delays.networkUpdateMs ?? 0;
  return 0;
}
