import type { IncomingHttpHeaders } from "http";
import type { FaucetLedger } from "../data/faucet-ledger";
import type { Store } from "../data/store";

/** A request as the API handlers see it (the body already read). */
export interface ApiRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Raw path, without the query; not percent-decoded. */
  path: string;
  /** Raw query string without `?` (may be empty). */
  rawQuery: string;
  /** Request headers. */
  headers: IncomingHttpHeaders;
  /** Request body (empty when none). */
  body: Buffer;
  /** `http://host:port` as the client addressed the server, for absolute links. */
  origin: string;
}

/** Shared state and settings of the handlers. */
export interface ApiContext {
  store: Store;
  faucet: FaucetLedger;
  pageSize: number;
  faucetDailyLimit: number;
  /** The chains whose faucet is served; any other answers 404. */
  faucetChains: readonly string[];
  now: () => Date;
}
