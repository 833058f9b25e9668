import {
  NETWORK_STATUSES,
  NODE_STATUSES,
  PROVIDER_REGION_PAIRS,
  PUBLIC_NETWORK_NAMES,
  SHARED_PROTOCOLS,
} from "../../model";
import type { CloudProvider, NetworkStatus, NodeStatus, NodeType, Protocol, Region } from "../../model";
import type { DatasetBuilder } from "./builder";
import type { FixtureRecords } from "./fixtures";
import type { NetworkRecord } from "./records";
import type { Rng } from "./rng";

/**
 * Generates the primary organization's other networks: one per public network but
 * `ethereum-mainnet`, with one to three nodes each, so that together they cover every protocol,
 * every provider/region pair, every network status and every node status.
 */
export function fillPrimaryOrganization(b: DatasetBuilder, f: FixtureRecords): void {
  const rng = b.rng;
  const generic = PUBLIC_NETWORK_NAMES.filter((n) => n !== "ethereum-mainnet");
  const networkStatuses = rng.shuffle(fill<NetworkStatus>(rng, NETWORK_STATUSES, generic.length, "ok"));
  const slots: Array<{ network: NetworkRecord; index: number }> = [];
  generic.forEach((publicNetwork, i) => {
    const project = rng.chance(0.6) ? f.project : f.otherProject;
    const network = b.network(project.id, publicNetwork, networkStatuses[i]);
    const count = rng.pick([1, 1, 2, 2, 2, 3]);
    for (let index = 0; index < count; index++) slots.push({ network, index });
  });
  const pairs = cycle(rng, slots.length);
  const statuses = rng.shuffle(fill<NodeStatus>(rng, NODE_STATUSES, slots.length, "running"));
  slots.forEach(({ network, index }, i) => {
    const mainnetFirst = index === 0 && network.publicNetwork.endsWith("-mainnet");
    const type = nodeType(rng, network.protocol, mainnetFirst);
    b.plan(network, f.primary.id, type, pairs[i], statuses[i]);
  });
}

/**
 * Generates the networks and nodes of the other two organizations. The first is the
 * `ethereum-mainnet` network with two nodes that the primary organization cannot see (the
 * `foreignNetwork` fixture); it is returned.
 */
export function fillOtherOrganizations(b: DatasetBuilder, f: FixtureRecords): NetworkRecord {
  const rng = b.rng;
  const foreign = b.network(f.foreignProject.id, "ethereum-mainnet", "ok");
  const others: Array<{ network: NetworkRecord; org: string; count: number }> = [
    { network: foreign, org: f.other.id, count: 2 },
    ...[0, 1, 2].map(() => ({
      network: b.network(
        rng.pick([f.foreignProject.id, f.otherSideProject.id]),
        rng.pick(PUBLIC_NETWORK_NAMES),
        "ok",
      ),
      org: f.other.id,
      count: rng.int(1, 3),
    })),
    ...[0, 1].map(() => ({
      network: b.network(f.thirdProject.id, rng.pick(PUBLIC_NETWORK_NAMES), "ok"),
      org: f.third.id,
      count: rng.int(1, 2),
    })),
  ];
  const pairs = cycle(
    rng,
    others.reduce((sum, o) => sum + o.count, 0),
  );
  for (const { network, org, count } of others) {
    for (let i = 0; i < count; i++) {
      const status = rng.chance(0.85) ? "running" : rng.pick(NODE_STATUSES);
      const type = nodeType(rng, network.protocol, false);
      b.plan(network, org, type, pairs.pop()!, status);
    }
  }
  return foreign;
}

/** `shared` only where the protocol has shared nodes: preferred, or now and then. */
function nodeType(rng: Rng, protocol: Protocol, preferShared: boolean): NodeType {
  if (!(SHARED_PROTOCOLS as readonly Protocol[]).includes(protocol)) return "dedicated";
  return preferShared || rng.chance(0.3) ? "shared" : "dedicated";
}

/** `count` provider/region pairs: every pair, then again, each round shuffled. */
function cycle(rng: Rng, count: number): Array<{ provider: CloudProvider; region: Region }> {
  const out: Array<{ provider: CloudProvider; region: Region }> = [];
  while (out.length < count) out.push(...rng.shuffle(PROVIDER_REGION_PAIRS));
  return out.slice(0, count);
}

/** Every value once, then `usual` (or now and then another value) up to `count`. */
function fill<T>(rng: Rng, values: readonly T[], count: number, usual: T): T[] {
  const out = [...values];
  while (out.length < count) out.push(rng.chance(0.8) ? usual : rng.pick(values));
  return out;
}
