import { ARCHIVE_PROTOCOLS, BEACON_PROTOCOLS, PUBLIC_NETWORKS } from "../../model/values";
import { formatProblems, isId, toChecksumAddress, validateNodePlacement } from "../../model/rules";
import type {
  CloudProvider,
  IdKind,
  NetworkStatus,
  NodeStatus,
  NodeType,
  Protocol,
  PublicNetwork,
  Region,
} from "../../model/values";
import type { WireNodeDetails } from "../../model/node-fields";
import { createRng, deriveApiKey, deriveSeed, type Rng } from "./random";
import type { NetworkRecord, NodeRecord, OrganizationRecord, ProjectRecord, UserRecord } from "./store";

const FIRST_NAMES = "Ada Grace Linus Margaret Ken Barbara Dennis Radia Vint Hedy".split(" ");
const LAST_NAMES = "Lovelace Hopper Torvalds Hamilton Thompson Liskov Ritchie Perlman".split(" ");
const NICKNAMES = ["Indexer", "RPC", "Backfill", "Wallet backend", "Explorer", "Oracle", "Bridge relayer"];
const NETWORK_SUFFIXES = ["", "", "", " payments", " analytics", " indexing", " sandbox"];
const USERNAME_WORDS = "amber brisk cobalt dapper ember frosty gentle hazel ivory".split(" ");
/**
 * How the `details` of a protocol's nodes are shaped: a label for names, `mode` of a full node,
 * `api_namespaces`, the extra namespaces of an archive node, endpoints beyond `https_endpoint`,
 * and the software versions seen (lists are space-separated).
 */
const PROFILES: Record<Protocol, readonly [string, string, string, string, string, string]> = {
  ethereum: ["Ethereum", "full", "net eth web3 txpool", "debug", "wss graphql", "1.13.14 1.13.15 1.14.3"],
  "polygon-pos": ["Polygon PoS", "full", "net eth web3 txpool bor", "debug", "wss graphql", "1.2.8 1.3.0"],
  bsc: ["BNB Smart Chain", "full", "net eth web3 txpool parlia", "debug", "wss", "1.3.10 1.4.5"],
  avalanche: ["Avalanche", "full", "", "", "wss", "1.10.19 1.11.3"],
  arbitrum: ["Arbitrum", "", "net eth web3 arb", "", "wss", "2.3.1 2.3.3"],
  near: ["NEAR", "", "", "", "", "1.38.0 1.39.1"],
  aurora: ["Aurora", "", "net eth web3", "", "wss", "2.11.0"],
  gnosis: ["Gnosis", "", "net eth web3 txpool", "", "wss", "1.25.4 1.26.0"],
  cronos: ["Cronos", "", "net eth web3", "", "wss", "1.1.1 1.2.0"],
  fantom: ["Fantom", "full", "net eth web3 ftm dag", "debug", "wss graphql", "1.1.3-rc.5"],
  starknet: ["StarkNet", "", "starknet", "", "", "0.11.4"],
  harmony: ["Harmony", "", "hmy net eth web3", "", "wss", "2023.4.2"],
  tezos: ["Tezos", "rolling", "", "", "", "19.1 20.0"],
  fuse: ["Fuse", "", "net eth web3", "", "wss", "1.13.4"],
  bitcoin: ["Bitcoin", "", "", "", "", "25.1 26.0"],
};

/** A readable label for a public network, e.g. `Polygon PoS Mainnet`, `Ethereum Ropsten testnet`. */
function publicNetworkLabel(network: PublicNetwork): string {
  const protocol = PUBLIC_NETWORKS[network];
  const rest = network.slice(protocol.length + 1).replace(/-/g, " ");
  return `${PROFILES[protocol][0]} ${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

/** A node to create once every network exists; `id` and `name` are drawn when not given. */
type NodePlan = Pick<NodeRecord, "organization" | "type" | "provider" | "region" | "status" | "archive"> & {
  id?: string;
  name?: string;
  network: NetworkRecord;
  beacon: boolean;
};

/**
 * Makes the records of a dataset from one seeded generator: organizations with their users,
 * projects, networks, and nodes, each node checked against the model. Every draw happens in call
 * order, so the same seed and the same calls always give the same records.
 */
export class DatasetBuilder {
  /** The generator of every random choice of the data. */
  readonly rng: Rng;
  readonly organizations: OrganizationRecord[] = [];
  readonly users: UserRecord[] = [];
  readonly projects: ProjectRecord[] = [];
  readonly networks: NetworkRecord[] = [];
  readonly plans: NodePlan[] = [];
  private readonly usedIds = new Set<string>();
  private readonly usedCredentials = new Set<string>();
  private clock: number;

  /** `reservedIds` are never drawn; `origin` is the base URL of the nodes' endpoints. */
  constructor(
    readonly seed: number,
    reservedIds: Iterable<string>,
    readonly origin: string,
  ) {
    this.rng = createRng(deriveSeed(seed, "data"));
    for (const id of reservedIds) this.usedIds.add(id);
    this.clock = Date.UTC(2022, 2, 1, 8, 0, 0) + this.rng.int(0, 86_400_000);
  }

  /** Adds an organization, its API key and two users. */
  organization(id: string, name: string): OrganizationRecord {
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

  /** Adds a public project. */
  project(id: string, name: string, organization: string): ProjectRecord {
    const project: ProjectRecord = { id, name, organization, type: "public" };
    this.projects.push(project);
    return project;
  }

  /** Adds a network of a project; its id and name are drawn when not given. */
  network(
    projectId: string,
    publicNetwork: PublicNetwork,
    status: NetworkStatus,
    id?: string,
    name?: string,
  ) {
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

  /** Plans a node, drawing its archive flag and beacon endpoint where the protocol has them. */
  plan(
    network: NetworkRecord,
    organization: string,
    type: NodeType,
    pair: { provider: CloudProvider; region: Region },
    status: NodeStatus,
  ): void {
    const archive = (ARCHIVE_PROTOCOLS as readonly Protocol[]).includes(network.protocol)
      ? this.rng.chance(0.4)
      : undefined;
    const beacon =
      (BEACON_PROTOCOLS as readonly Protocol[]).includes(network.protocol) &&
      type === "dedicated" &&
      this.rng.chance(0.5);
    this.plans.push({ network, organization, type, ...pair, status, archive, beacon });
  }

  /** Gives every network its creation time, then makes the planned nodes in a shuffled order. */
  createNodes(): NodeRecord[] {
    for (const network of this.networks) network.createdAt = this.tick(6, 72);
    return this.rng.shuffle(this.plans).map((plan) => this.materialize(plan));
  }

  /** A new identifier of a kind, never drawn before, in the model's id shape. */
  newId(kind: IdKind): string {
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

  /** A valid EIP-55 address with both lower- and upper-case hex letters. */
  faucetAddress(): string {
    for (;;) {
      const address = toChecksumAddress(`0x${this.rng.hex(40)}`);
      if (/[a-f]/.test(address.slice(2)) && /[A-F]/.test(address.slice(2))) return address;
    }
  }

  private materialize(plan: NodePlan): NodeRecord {
    const { network } = plan;
    const { protocol, publicNetwork } = network;
    const problems = validateNodePlacement({ ...plan, protocol, publicNetwork });
    if (plan.beacon && !(BEACON_PROTOCOLS as readonly Protocol[]).includes(protocol))
      problems.push({ field: "beacon_endpoint", value: protocol, allowed: "Ethereum nodes only" });
    const id = plan.id ?? this.newId("node");
    if (problems.length > 0)
      throw new Error(`emulator seed ${this.seed}: ${id}: ${formatProblems(problems)}`);
    const variant = plan.type === "shared" ? "shared" : plan.archive ? "archive" : "full";
    const name =
      plan.name ??
      (this.rng.chance(0.25)
        ? `${this.rng.pick(NICKNAMES)} ${String(this.rng.int(1, 12)).padStart(2, "0")}`
        : `${publicNetworkLabel(publicNetwork)} ${variant} node`);
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
      details: this.details(id, protocol, plan),
      creator: this.userOf(plan.organization),
      createdAt: this.tick(1, 48),
    };
  }

  /** Details shaped per protocol; a pending node has no endpoints or credentials yet. */
  private details(id: string, protocol: Protocol, plan: NodePlan): WireNodeDetails {
    const [, fullMode, namespaces, archiveNamespaces, endpoints, versions] = PROFILES[protocol];
    const details: WireNodeDetails = {};
    if (fullMode) details.mode = plan.archive ? "archive" : fullMode;
    details.version = this.rng.pick(versions.split(" "));
    const archiveOnly = plan.archive && archiveNamespaces ? [archiveNamespaces] : [];
    if (namespaces) details.api_namespaces = [...namespaces.split(" "), ...archiveOnly];
    if (plan.status === "pending") return details;
    const authKey = this.credential(() => this.rng.hex(32));
    const base = `${this.origin}/node/${id.toLowerCase()}`;
    if (endpoints.includes("graphql")) details.graphql_endpoint = `${base}/${authKey}/graphql`;
    details.https_endpoint = `${base}/${authKey}`;
    if (endpoints.includes("wss")) details.wss_endpoint = `${base.replace(/^http/, "ws")}/${authKey}`;
    if (plan.beacon) details.beacon_endpoint = `${base}/beacon/${authKey}`;
    details.auth_username = this.credential(
      () => `${this.rng.pick(USERNAME_WORDS)}-${this.rng.pick(USERNAME_WORDS)}-${this.rng.digits(4)}`,
    );
    details.auth_password = this.credential(() => Array.from({ length: 6 }, () => this.rng.hex(4)).join("-"));
    details.auth_key = authKey;
    return details;
  }

  private credential(make: () => string): string {
    let value = make();
    while (this.usedCredentials.has(value)) value = make();
    this.usedCredentials.add(value);
    return value;
  }

  private userOf(organization: string): string {
    return this.rng.pick(this.users.filter((u) => u.organization === organization)).id;
  }

  private tick(minHours: number, maxHours: number): string {
    this.clock += this.rng.int(minHours * 3_600_000, maxHours * 3_600_000) + this.rng.int(1, 999);
    return new Date(this.clock).toISOString();
  }
}
