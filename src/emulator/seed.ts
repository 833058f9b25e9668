import { createHash } from "crypto";
import {
  ARCHIVE_PROTOCOLS,
  BEACON_PROTOCOLS,
  NETWORK_STATUSES,
  NODE_STATUSES,
  PROVIDER_REGION_PAIRS,
  PUBLIC_NETWORKS,
  PUBLIC_NETWORK_NAMES,
  SECRET_DETAIL_FIELDS,
  SHARED_PROTOCOLS,
  formatProblems,
  isId,
  toChecksumAddress,
  validateNodePlacement,
} from "../model";
import type {
  CloudProvider,
  IdKind,
  NetworkStatus,
  NodeStatus,
  NodeType,
  Protocol,
  PublicNetwork,
  Region,
  WireNodeDetails,
} from "../model";
import { PROTOCOL_PROFILES, publicNetworkLabel } from "./profiles";
import type { NetworkRecord, NodeRecord, OrganizationRecord, ProjectRecord, UserRecord } from "./records";
import { createRng, deriveSeed } from "./rng";
import type { Rng } from "./rng";
import type { EmulatorFixtures } from "./types";

/**
 * Identifiers of the primary organization's main fixtures: the same for every seed, so READMEs
 * and examples can name them. All other identifiers vary with the seed.
 */
export const WELL_KNOWN_IDS = {
  organization: "RG-100-001",
  project: "PR-100-001",
  otherProject: "PR-100-002",
  networkWithNodes: "NW-100-000-1",
  emptyNetwork: "NW-100-000-2",
  secondEmptyNetwork: "NW-100-000-3",
  beaconNode: "ND-100-000-001",
} as const;

/** The fixed node ids of {@link WELL_KNOWN_IDS.networkWithNodes}, the beacon node first. */
export const NETWORK_WITH_NODES_NODE_IDS = [
  "ND-100-000-001",
  "ND-100-000-002",
  "ND-100-000-003",
  "ND-100-000-004",
] as const;

/**
 * The API key of an organization for a seed: the first 40 hex digits of
 * `sha256("blockchain-nodes-emulator/api-key/<seed>/<organizationId>")`.
 */
export function deriveApiKey(seed: number, organizationId: string): string {
  return createHash("sha256")
    .update(`blockchain-nodes-emulator/api-key/${seed}/${organizationId}`)
    .digest("hex")
    .slice(0, 40);
}

/** Everything the emulator serves, generated from a seed. */
export interface Dataset {
  organizations: OrganizationRecord[];
  users: UserRecord[];
  projects: ProjectRecord[];
  networks: NetworkRecord[];
  nodes: NodeRecord[];
  fixtures: EmulatorFixtures;
  /** API keys, endpoint URLs and credentials of every node. */
  secrets: string[];
}

const ORGANIZATION_NAMES = [
  "Acme Chain Labs",
  "Blue Harbor Payments",
  "Northwind Ledger",
  "Lattice Works",
  "Orbit Analytics",
  "Granite Capital",
  "Helios Games",
  "Kestrel Finance",
];
const FIRST_NAMES = [
  "Ada",
  "Grace",
  "Linus",
  "Margaret",
  "Ken",
  "Barbara",
  "Dennis",
  "Radia",
  "Vint",
  "Hedy",
];
const LAST_NAMES = ["Lovelace", "Hopper", "Torvalds", "Hamilton", "Thompson", "Liskov", "Ritchie", "Perlman"];
const NICKNAMES = ["Indexer", "RPC", "Backfill", "Wallet backend", "Explorer", "Oracle", "Bridge relayer"];
const NETWORK_SUFFIXES = ["", "", "", " payments", " analytics", " indexing", " sandbox"];
const USERNAME_WORDS = ["amber", "brisk", "cobalt", "dapper", "ember", "frosty", "gentle", "hazel", "ivory"];

interface NodePlan {
  id?: string;
  name?: string;
  network: NetworkRecord;
  organization: string;
  type: NodeType;
  provider: CloudProvider;
  region: Region;
  status: NodeStatus;
  archive?: boolean;
  beacon: boolean;
}

/** Generates the dataset of a seed and checks every node against the model (throws if one breaks it). */
export function buildDataset(seed: number): Dataset {
  return new DatasetBuilder(seed).build();
}

class DatasetBuilder {
  private readonly rng: Rng;
  private readonly usedIds = new Set<string>();
  private readonly usedCredentials = new Set<string>();
  private readonly organizations: OrganizationRecord[] = [];
  private readonly users: UserRecord[] = [];
  private readonly projects: ProjectRecord[] = [];
  private readonly networks: NetworkRecord[] = [];
  private readonly plans: NodePlan[] = [];
  private clock: number;

  constructor(private readonly seed: number) {
    this.rng = createRng(deriveSeed(seed, "data"));
    for (const id of [...Object.values(WELL_KNOWN_IDS), ...NETWORK_WITH_NODES_NODE_IDS]) this.usedIds.add(id);
    this.clock = Date.UTC(2022, 2, 1, 8, 0, 0) + this.rng.int(0, 86_400_000);
  }

  build(): Dataset {
    const rng = this.rng;
    const names = rng.shuffle(ORGANIZATION_NAMES);
    const primary = this.organization(WELL_KNOWN_IDS.organization, names[0]);
    const other = this.organization(this.newId("organization"), names[1]);
    const third = this.organization(this.newId("organization"), names[2]);

    const project = this.project(WELL_KNOWN_IDS.project, "Production", primary.id);
    const otherProject = this.project(WELL_KNOWN_IDS.otherProject, "Staging", primary.id);
    const foreignProject = this.project(this.newId("project"), "Main", other.id);
    const otherSideProject = this.project(this.newId("project"), "Experiments", other.id);
    const thirdProject = this.project(this.newId("project"), "Validators", third.id);

    // Primary organization: the fixtures.
    const withNodes = this.network(
      project.id,
      "ethereum-mainnet",
      "ok",
      WELL_KNOWN_IDS.networkWithNodes,
      "Ethereum Mainnet",
    );
    const fixedNodes: Array<[string, NodeType, boolean, CloudProvider, Region, boolean]> = [
      ["Ethereum Mainnet archive node", "dedicated", true, "gcloud", "asia-southeast1", true],
      ["Ethereum Mainnet full node", "dedicated", false, "aws", "us-east-1", false],
      ["Ethereum Mainnet full node", "dedicated", false, "aws", "us-west-2", false],
      ["Ethereum Mainnet shared node", "shared", false, "azure", "uksouth", false],
    ];
    fixedNodes.forEach(([name, type, archive, provider, region, beacon], i) =>
      this.plans.push({
        id: NETWORK_WITH_NODES_NODE_IDS[i],
        name,
        network: withNodes,
        organization: primary.id,
        type,
        provider,
        region,
        status: "running",
        archive,
        beacon,
      }),
    );
    const empty = this.network(
      otherProject.id,
      "polygon-pos-testnet",
      "ok",
      WELL_KNOWN_IDS.emptyNetwork,
      "Staging sandbox",
    );
    const secondEmpty = this.network(
      otherProject.id,
      "bsc-testnet",
      "ok",
      WELL_KNOWN_IDS.secondEmptyNetwork,
      "Scratch network",
    );
    const consortium = this.network(project.id, "polygon-pos-mainnet", "ok", undefined, "Polygon consortium");
    this.plans.push(this.plan(consortium, primary.id, "dedicated", PROVIDER_REGION_PAIRS[1], "running"));
    this.plans.push(this.plan(consortium, third.id, "dedicated", PROVIDER_REGION_PAIRS[4], "running"));

    // Primary organization: one network per remaining public network, covering every protocol,
    // every provider/region pair and every node status.
    const generic = PUBLIC_NETWORK_NAMES.filter((n) => n !== "ethereum-mainnet");
    const networkStatuses = rng.shuffle(this.fill<NetworkStatus>(NETWORK_STATUSES, generic.length, "ok"));
    const slots: Array<{ network: NetworkRecord; index: number }> = [];
    generic.forEach((publicNetwork, i) => {
      const network = this.network(
        rng.chance(0.6) ? project.id : otherProject.id,
        publicNetwork,
        networkStatuses[i],
      );
      const count = rng.pick([1, 1, 2, 2, 2, 3]);
      for (let index = 0; index < count; index++) slots.push({ network, index });
    });
    const pairs = this.cycle(slots.length);
    const statuses = rng.shuffle(this.fill<NodeStatus>(NODE_STATUSES, slots.length, "running"));
    slots.forEach(({ network, index }, i) => {
      const mainnetFirst = index === 0 && network.publicNetwork.endsWith("-mainnet");
      const type = this.nodeType(network.protocol, mainnetFirst);
      this.plans.push(this.plan(network, primary.id, type, pairs[i], statuses[i]));
    });

    // The other organizations.
    const foreign = this.network(foreignProject.id, "ethereum-mainnet", "ok");
    const others: Array<{ network: NetworkRecord; org: string; count: number }> = [
      { network: foreign, org: other.id, count: 2 },
      ...[0, 1, 2].map(() => ({
        network: this.network(
          rng.pick([foreignProject.id, otherSideProject.id]),
          rng.pick(PUBLIC_NETWORK_NAMES),
          "ok",
        ),
        org: other.id,
        count: rng.int(1, 3),
      })),
      ...[0, 1].map(() => ({
        network: this.network(thirdProject.id, rng.pick(PUBLIC_NETWORK_NAMES), "ok"),
        org: third.id,
        count: rng.int(1, 2),
      })),
    ];
    const otherPairs = this.cycle(others.reduce((sum, o) => sum + o.count, 0));
    for (const { network, org, count } of others) {
      for (let i = 0; i < count; i++) {
        const status = rng.chance(0.85) ? "running" : rng.pick(NODE_STATUSES);
        const type = this.nodeType(network.protocol, false);
        this.plans.push(this.plan(network, org, type, otherPairs.pop()!, status));
      }
    }

    // Creation times: networks first, then nodes in a shuffled order, all distinct.
    for (const network of this.networks) network.createdAt = this.tick(6, 72);
    const nodes = rng.shuffle(this.plans).map((plan) => this.materialize(plan));

    const fixtures: EmulatorFixtures = {
      organization: primary.id,
      otherOrganization: other.id,
      project: project.id,
      otherProject: otherProject.id,
      foreignProject: foreignProject.id,
      networkWithNodes: withNodes.id,
      beaconNode: WELL_KNOWN_IDS.beaconNode,
      emptyNetwork: empty.id,
      secondEmptyNetwork: secondEmpty.id,
      foreignNetwork: foreign.id,
      consortiumNetwork: consortium.id,
      faucetAddress: this.faucetAddress(),
    };
    const secrets = [
      ...this.organizations.map((o) => o.apiKey),
      ...nodes.flatMap((n) =>
        SECRET_DETAIL_FIELDS.map((f) => n.details[f]).filter((v): v is string => typeof v === "string"),
      ),
    ];
    return {
      organizations: this.organizations,
      users: this.users,
      projects: this.projects,
      networks: this.networks,
      nodes,
      fixtures,
      secrets,
    };
  }

  private organization(id: string, name: string): OrganizationRecord {
    const org = { id, name, apiKey: deriveApiKey(this.seed, id) };
    this.organizations.push(org);
    const domain = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const used = new Set<string>();
    while (used.size < 2) {
      const firstName = this.rng.pick(FIRST_NAMES);
      const lastName = this.rng.pick(LAST_NAMES);
      const email = `${firstName}.${lastName}@${domain}.example`.toLowerCase();
      if (used.has(email)) continue;
      used.add(email);
      this.users.push({ id: this.newId("user"), email, firstName, lastName, organization: id });
    }
    return org;
  }

  private project(id: string, name: string, organization: string): ProjectRecord {
    const project: ProjectRecord = { id, name, organization, type: "public" };
    this.projects.push(project);
    return project;
  }

  private network(
    projectId: string,
    publicNetwork: PublicNetwork,
    status: NetworkStatus,
    id?: string,
    name?: string,
  ): NetworkRecord {
    const organization = this.projects.find((p) => p.id === projectId)!.organization;
    const network: NetworkRecord = {
      id: id ?? this.newId("network"),
      name: name ?? `${publicNetworkLabel(publicNetwork)}${this.rng.pick(NETWORK_SUFFIXES)}`,
      project: projectId,
      protocol: PUBLIC_NETWORKS[publicNetwork],
      publicNetwork,
      status,
      details: {},
      creator: this.userOf(organization),
      createdAt: "",
    };
    this.networks.push(network);
    return network;
  }

  private plan(
    network: NetworkRecord,
    organization: string,
    type: NodeType,
    pair: { provider: CloudProvider; region: Region },
    status: NodeStatus,
  ): NodePlan {
    const archive = (ARCHIVE_PROTOCOLS as readonly Protocol[]).includes(network.protocol)
      ? this.rng.chance(0.4)
      : undefined;
    const beacon =
      (BEACON_PROTOCOLS as readonly Protocol[]).includes(network.protocol) &&
      type === "dedicated" &&
      this.rng.chance(0.5);
    return {
      network,
      organization,
      type,
      provider: pair.provider,
      region: pair.region,
      status,
      archive,
      beacon,
    };
  }

  private nodeType(protocol: Protocol, preferShared: boolean): NodeType {
    if (!(SHARED_PROTOCOLS as readonly Protocol[]).includes(protocol)) return "dedicated";
    return preferShared || this.rng.chance(0.3) ? "shared" : "dedicated";
  }

  private materialize(plan: NodePlan): NodeRecord {
    const { network } = plan;
    const problems = validateNodePlacement({
      protocol: network.protocol,
      type: plan.type,
      provider: plan.provider,
      region: plan.region,
      publicNetwork: network.publicNetwork,
    });
    if (plan.beacon && !(BEACON_PROTOCOLS as readonly Protocol[]).includes(network.protocol)) {
      problems.push({ field: "beacon_endpoint", value: network.protocol, allowed: "Ethereum nodes only" });
    }
    const id = plan.id ?? this.newId("node");
    if (problems.length > 0) {
      throw new Error(
        `emulator seed ${this.seed}: node ${id} breaks the model:\n${formatProblems(problems)}`,
      );
    }
    const variant = plan.type === "shared" ? "shared" : plan.archive ? "archive" : "full";
    const name =
      plan.name ??
      (this.rng.chance(0.25)
        ? `${this.rng.pick(NICKNAMES)} ${String(this.rng.int(1, 12)).padStart(2, "0")}`
        : `${publicNetworkLabel(network.publicNetwork)} ${variant} node`);
    return {
      id,
      name,
      network: network.id,
      organization: plan.organization,
      type: plan.type,
      role: "peer",
      provider: plan.provider,
      region: plan.region,
      status: plan.status,
      ...(plan.archive === undefined ? {} : { archive: plan.archive }),
      details: this.details(id, network.protocol, plan),
      creator: this.userOf(plan.organization),
      createdAt: this.tick(1, 48),
    };
  }

  /** Details shaped per protocol; a pending node has no endpoints or credentials yet. */
  private details(id: string, protocol: Protocol, plan: NodePlan): WireNodeDetails {
    const profile = PROTOCOL_PROFILES[protocol];
    const details: WireNodeDetails = {};
    if (profile.fullMode) details.mode = plan.archive ? "archive" : profile.fullMode;
    details.version = this.rng.pick(profile.versions);
    if (profile.apiNamespaces) {
      details.api_namespaces = [
        ...profile.apiNamespaces,
        ...(plan.archive ? (profile.archiveNamespaces ?? []) : []),
      ];
    }
    if (plan.status === "pending") return details;
    const authKey = this.credential(() => this.rng.hex(32));
    const host = `${id.toLowerCase()}.p2pify.example`;
    if (profile.graphql) details.graphql_endpoint = `https://${host}/${authKey}/graphql`;
    details.https_endpoint = `https://${host}/${authKey}`;
    if (profile.wss) details.wss_endpoint = `wss://ws-${host}/${authKey}`;
    if (plan.beacon) details.beacon_endpoint = `https://beacon-${host}/${authKey}`;
    details.auth_username = this.credential(
      () => `${this.rng.pick(USERNAME_WORDS)}-${this.rng.pick(USERNAME_WORDS)}-${this.rng.digits(4)}`,
    );
    details.auth_password = this.credential(() => Array.from({ length: 6 }, () => this.rng.hex(4)).join("-"));
    details.auth_key = authKey;
    return details;
  }

  private credential(make: () => string): string {
    for (;;) {
      const value = make();
      if (!this.usedCredentials.has(value)) {
        this.usedCredentials.add(value);
        return value;
      }
    }
  }

  private userOf(organization: string): string {
    return this.rng.pick(this.users.filter((u) => u.organization === organization)).id;
  }

  private newId(kind: IdKind): string {
    for (;;) {
      const a = String(this.rng.int(200, 999));
      const d = (n: number) => this.rng.digits(n);
      const id = {
        node: () => `ND-${a}-${d(3)}-${d(3)}`,
        network: () => `NW-${a}-${d(3)}-${this.rng.int(1, 9)}`,
        organization: () => `RG-${a}-${d(3)}`,
        project: () => `PR-${a}-${d(3)}`,
        user: () => `UR-${a}-${d(3)}-${d(3)}`,
      }[kind]();
      if (this.usedIds.has(id)) continue;
      if (!isId(kind, id)) throw new Error(`emulator: generated ${kind} id ${id} does not match the model`);
      this.usedIds.add(id);
      return id;
    }
  }

  /** `count` provider/region pairs: every pair, then again, each round shuffled. */
  private cycle(count: number): Array<{ provider: CloudProvider; region: Region }> {
    const out: Array<{ provider: CloudProvider; region: Region }> = [];
    while (out.length < count) out.push(...this.rng.shuffle(PROVIDER_REGION_PAIRS));
    return out.slice(0, count);
  }

  /** Every value once, then `usual` (or now and then another value) up to `count`. */
  private fill<T>(values: readonly T[], count: number, usual: T): T[] {
    const out = [...values];
    while (out.length < count) out.push(this.rng.chance(0.8) ? usual : this.rng.pick(values));
    return out;
  }

  private tick(minHours: number, maxHours: number): string {
    this.clock += this.rng.int(minHours * 3_600_000, maxHours * 3_600_000) + this.rng.int(1, 999);
    return new Date(this.clock).toISOString();
  }

  private faucetAddress(): string {
    for (;;) {
      const address = toChecksumAddress(`0x${this.rng.hex(40)}`);
      if (/[a-f]/.test(address.slice(2)) && /[A-F]/.test(address.slice(2))) return address;
    }
  }
}
