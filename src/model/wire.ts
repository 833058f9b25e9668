/** The service's JSON shapes as they travel (snake_case); only the API layer maps them to the camelCase types. */
import type { WireNodeDetails } from "./node-fields";

/** `creator` of a node or network (spec 2.3). */
export interface WireCreator {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  organization: { id: string; name: string };
}

/** A node (spec 2.1). */
export interface WireNode {
  id: string;
  name: string;
  network: string;
  organization: string;
  type: string;
  role: string;
  provider: string;
  region: string;
  status: string;
  configuration: { archive?: boolean; [key: string]: unknown };
  details: WireNodeDetails;
  created_at: string;
  creator: WireCreator;
}

/** A network (spec 2.2). */
export interface WireNetwork {
  id: string;
  name: string;
  project: string;
  protocol: string;
  configuration: { network?: string; [key: string]: unknown };
  details: Record<string, unknown>;
  status: string;
  nodes: WireNode[];
  creator: WireCreator;
  created_at: string;
}

/** The error body (spec 2.5; appendix: optional `fields` on 400). */
export interface WireError {
  error: { code: string; message: string; fields?: Record<string, string[]> };
  /** Faucet 429 only: when the next request is possible (a date string). */
  nextFaucetAvailable?: string;
}
