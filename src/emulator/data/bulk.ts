import { NODE_STATUSES, PROVIDER_REGION_PAIRS, PUBLIC_NETWORK_NAMES, SHARED_PROTOCOLS } from "../../model";
import type { NodeType, Protocol } from "../../model";
import type { DatasetBuilder } from "./builder";
import type { FixtureRecords } from "./fixtures";
import type { NetworkRecord } from "./records";

/** How much generated data to add on top of a seed's data (for load and benchmark runs). */
export interface BulkSize {
  /** Extra networks of the primary organization (status `ok`, in its first project). */
  networks: number;
  /** Extra nodes of the primary organization, spread over its generated networks. */
  nodes: number;
}

/** The largest `networks` and `nodes` accepted. */
export const MAX_BULK = 1_000_000;

/**
 * Adds `size.networks` networks to the primary organization's first project, then
 * `size.nodes` nodes spread round-robin over `targets` (the primary organization's generated
 * networks, never a fixture network) and the new ones. Draws from the builder's generator after
 * every other draw of the seed, so a seed's data stays the same with no bulk, and a seed and a
 * size always give the same records.
 */
export function fillBulk(
  b: DatasetBuilder,
  f: FixtureRecords,
  targets: readonly NetworkRecord[],
  size: BulkSize,
): void {
  if (size.networks === 0 && size.nodes === 0) return;
  const rng = b.rng;
  const added: NetworkRecord[] = [];
  for (let i = 0; i < size.networks; i++) {
    added.push(b.network(f.project.id, rng.pick(PUBLIC_NETWORK_NAMES), "ok"));
  }
  const networks = [...targets, ...added];
  let pairs = rng.shuffle(PROVIDER_REGION_PAIRS);
  for (let i = 0; i < size.nodes; i++) {
    const network = networks[i % networks.length];
    if (i % pairs.length === 0 && i > 0) pairs = rng.shuffle(PROVIDER_REGION_PAIRS);
    const shared = (SHARED_PROTOCOLS as readonly Protocol[]).includes(network.protocol) && rng.chance(0.3);
    const type: NodeType = shared ? "shared" : "dedicated";
    const status = rng.chance(0.9) ? "running" : rng.pick(NODE_STATUSES);
    b.plan(network, f.primary.id, type, pairs[i % pairs.length], status);
  }
}
