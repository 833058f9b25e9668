import {
  NETWORK_STATUSES,
  NODE_STATUSES,
  PROVIDER_REGION_PAIRS,
  PUBLIC_NETWORK_NAMES,
  SHARED_PROTOCOLS,
} from "../../model/values";
import { SECRET_DETAIL_FIELDS } from "../../model/node-fields";
import type { NetworkStatus, NodeStatus, NodeType, Protocol } from "../../model/values";
import { DatasetBuilder } from "./builder";
import type { EmulatorFixtures, FixtureRecords } from "./fixtures";
import { NETWORK_WITH_NODES_NODE_IDS, WELL_KNOWN_IDS, seedFixtures } from "./fixtures";
import type { Rng } from "./random";
import type { NetworkRecord } from "./store";

/** Everything the emulator serves, generated from a seed; `secrets`: every API key, endpoint URL and credential. */
export type Dataset = ReturnType<typeof buildDataset>;

/** Extra generated networks and nodes of the primary organization, for load and benchmark runs. */
type BulkSize = { networks: number; nodes: number };

export const MAX_BULK = 1_000_000; // the largest `networks` and `nodes` accepted

/**
 * The dataset of a seed: the well-known fixtures, the generated networks around them, then the
 * bulk ones (drawn last, so a seed's data stays the same without bulk). Every node is checked
 * against the model; its endpoints are under `origin` (the emulator's URL once it listens).
 */
export function buildDataset(
  seed: number,
  bulk: BulkSize = { networks: 0, nodes: 0 },
  origin = "http://127.0.0.1:8080",
) {
  const reserved = [...Object.values(WELL_KNOWN_IDS), ...NETWORK_WITH_NODES_NODE_IDS];
  const b = new DatasetBuilder(seed, reserved, origin);
  const f = seedFixtures(b);
  const before = b.networks.length;
  fillPrimaryOrganization(b, f);
  const generated = b.networks.slice(before);
  const foreignNetwork = fillOtherOrganizations(b, f);
  fillBulk(b, f, generated, bulk);
  const nodes = b.createNodes();
  const fixtures: EmulatorFixtures = {
    ...WELL_KNOWN_IDS,
    consortiumNetwork: f.consortiumNetwork.id,
    otherOrganization: f.other.id,
    foreignProject: f.foreignProject.id,
    foreignNetwork: foreignNetwork.id,
    faucetAddress: b.faucetAddress(),
  };
  const secrets = [
    ...b.organizations.map((o) => o.apiKey),
    ...nodes.flatMap((n) => SECRET_DETAIL_FIELDS.flatMap((field) => n.details[field] ?? [])),
  ];
  const { organizations, users, projects, networks } = b;
  return { organizations, users, projects, networks, nodes, fixtures, secrets };
}

/**
 * The primary organization's other networks: one per public network but `ethereum-mainnet`, one
 * to three nodes each, together covering every protocol, provider/region pair and status.
 */
function fillPrimaryOrganization(b: DatasetBuilder, f: FixtureRecords): void {
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
    b.plan(network, f.primary.id, nodeType(rng, network.protocol, mainnetFirst), pairs[i], statuses[i]);
  });
}

/**
 * The networks and nodes of the other two organizations; the first, returned, is the
 * `ethereum-mainnet` network with two nodes the primary organization cannot see.
 */
function fillOtherOrganizations(b: DatasetBuilder, f: FixtureRecords): NetworkRecord {
  const rng = b.rng;
  const foreign = b.network(f.foreignProject.id, "ethereum-mainnet", "ok");
  const others: Array<{ network: NetworkRecord; org: string; count: number }> = [
    { network: foreign, org: f.other.id, count: 2 },
    ...[0, 1, 2].map(() => {
      const project = rng.pick([f.foreignProject.id, f.otherSideProject.id]);
      return {
        network: b.network(project, rng.pick(PUBLIC_NETWORK_NAMES), "ok"),
        org: f.other.id,
        count: rng.int(1, 3),
      };
    }),
    ...[0, 1].map(() => ({
      network: b.network(f.thirdProject.id, rng.pick(PUBLIC_NETWORK_NAMES), "ok"),
      org: f.third.id,
      count: rng.int(1, 2),
    })),
  ];
  const total = others.reduce((sum, o) => sum + o.count, 0);
  const pairs = cycle(rng, total);
  for (const { network, org, count } of others) {
    for (let i = 0; i < count; i++) {
      const status = rng.chance(0.85) ? "running" : rng.pick(NODE_STATUSES);
      b.plan(network, org, nodeType(rng, network.protocol, false), pairs.pop()!, status);
    }
  }
  return foreign;
}

/**
 * `size.networks` networks in the primary organization's first project, then `size.nodes` nodes
 * round-robin over `targets` (its generated networks, never a fixture) and the new ones.
 */
function fillBulk(b: DatasetBuilder, f: FixtureRecords, targets: NetworkRecord[], size: BulkSize): void {
  if (size.networks === 0 && size.nodes === 0) return;
  const rng = b.rng;
  const networks = [...targets];
  for (let i = 0; i < size.networks; i++)
    networks.push(b.network(f.project.id, rng.pick(PUBLIC_NETWORK_NAMES), "ok"));
  let pairs = rng.shuffle(PROVIDER_REGION_PAIRS);
  for (let i = 0; i < size.nodes; i++) {
    const network = networks[i % networks.length];
    if (i % pairs.length === 0 && i > 0) pairs = rng.shuffle(PROVIDER_REGION_PAIRS);
    const shared = (SHARED_PROTOCOLS as readonly Protocol[]).includes(network.protocol) && rng.chance(0.3);
    const status = rng.chance(0.9) ? "running" : rng.pick(NODE_STATUSES);
    b.plan(network, f.primary.id, shared ? "shared" : "dedicated", pairs[i % pairs.length], status);
  }
}

/** `shared` only where the protocol has shared nodes: preferred, or now and then. */
function nodeType(rng: Rng, protocol: Protocol, preferShared: boolean): NodeType {
  if (!(SHARED_PROTOCOLS as readonly Protocol[]).includes(protocol)) return "dedicated";
  return preferShared || rng.chance(0.3) ? "shared" : "dedicated";
}

/** `count` provider/region pairs: every pair, then again, each round shuffled. */
function cycle(rng: Rng, count: number): (typeof PROVIDER_REGION_PAIRS)[number][] {
  const out: (typeof PROVIDER_REGION_PAIRS)[number][] = [];
  while (out.length < count) out.push(...rng.shuffle(PROVIDER_REGION_PAIRS));
  return out.slice(0, count);
}

/** Every value once, then `usual` (or now and then another value) up to `count`. */
function fill<T>(rng: Rng, values: readonly T[], count: number, usual: T): T[] {
  const out = [...values];
  while (out.length < count) out.push(rng.chance(0.8) ? usual : rng.pick(values));
  return out;
}
