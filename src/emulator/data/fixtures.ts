import { PROVIDER_REGION_PAIRS } from "../../model/values";
import type { CloudProvider, NodeType, PublicNetwork, Region } from "../../model/values";
import type { DatasetBuilder } from "./builder";

/** Identifiers of the primary organization's main fixtures, the same for every seed (others vary). */
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

/** Well-known identifiers of the seeded data, for tests and examples (fixed ones: {@link WELL_KNOWN_IDS}). */
export interface EmulatorFixtures {
  /** The primary organization, that of {@link RunningEmulator.apiKey}. */
  organization: string;
  /** Two projects of the primary organization. */
  project: string;
  otherProject: string;
  /** An `ethereum-mainnet` network of the primary organization with four nodes. */
  networkWithNodes: string;
  /** The node of {@link networkWithNodes} that has a `beacon_endpoint`. */
  beaconNode: string;
  /** Two networks of the primary organization without nodes (deletable). */
  emptyNetwork: string;
  secondEmptyNetwork: string;
  /**
   * A network of the primary organization in which a third organization also runs a node: the
   * primary key sees that node without endpoints or credentials (shown only to the node's owner).
   */
  consortiumNetwork: string;
  /** Another organization with its own key, networks and nodes. */
  otherOrganization: string;
  /** A project of {@link otherOrganization}: moving a network there is refused (400). */
  foreignProject: string;
  /** A network of {@link otherOrganization}: 404 for the primary key. */
  foreignNetwork: string;
  /** A valid EIP-55 mixed-case address for the faucet. */
  faucetAddress: string;
}

const ORGANIZATION_NAMES = (
  "Acme Chain Labs,Blue Harbor Payments,Northwind Ledger,Lattice Works," +
  "Orbit Analytics,Granite Capital,Helios Games,Kestrel Finance"
).split(",");

/** The nodes of {@link WELL_KNOWN_IDS.networkWithNodes}: name, type, archive, provider, region, beacon. */
const NETWORK_WITH_NODES_NODES: ReadonlyArray<[string, NodeType, boolean, CloudProvider, Region, boolean]> = [
  ["Ethereum Mainnet archive node", "dedicated", true, "gcloud", "asia-southeast1", true],
  ["Ethereum Mainnet full node", "dedicated", false, "aws", "us-east-1", false],
  ["Ethereum Mainnet full node", "dedicated", false, "aws", "us-west-2", false],
  ["Ethereum Mainnet shared node", "shared", false, "azure", "uksouth", false],
];

/** The records the fixtures are made of, for the generated data to build around. */
export type FixtureRecords = ReturnType<typeof seedFixtures>;

/**
 * The fixed part of the data: three organizations (the third runs a node in the consortium
 * network) and their projects, the network with its four well-known nodes, the empty networks.
 */
export function seedFixtures(b: DatasetBuilder) {
  const names = b.rng.shuffle(ORGANIZATION_NAMES);
  const primary = b.organization(WELL_KNOWN_IDS.organization, names[0]);
  const other = b.organization(b.newId("organization"), names[1]);
  const third = b.organization(b.newId("organization"), names[2]);

  const project = b.project(WELL_KNOWN_IDS.project, "Production", primary.id);
  const otherProject = b.project(WELL_KNOWN_IDS.otherProject, "Staging", primary.id);
  const foreignProject = b.project(b.newId("project"), "Main", other.id);
  const otherSideProject = b.project(b.newId("project"), "Experiments", other.id);
  const thirdProject = b.project(b.newId("project"), "Validators", third.id);

  const ids = WELL_KNOWN_IDS;
  const net = (p: { id: string }, publicNetwork: PublicNetwork, id: string | undefined, name: string) =>
    b.network(p.id, publicNetwork, "ok", id, name);
  const networkWithNodes = net(project, "ethereum-mainnet", ids.networkWithNodes, "Ethereum Mainnet");
  const fixed = { network: networkWithNodes, organization: primary.id, status: "running" as const };
  NETWORK_WITH_NODES_NODES.forEach(([name, type, archive, provider, region, beacon], i) => {
    const id = NETWORK_WITH_NODES_NODE_IDS[i];
    b.plans.push({ ...fixed, id, name, type, provider, region, archive, beacon });
  });
  const emptyNetwork = net(otherProject, "polygon-pos-testnet", ids.emptyNetwork, "Staging sandbox");
  const secondEmptyNetwork = net(otherProject, "bsc-testnet", ids.secondEmptyNetwork, "Scratch network");
  const consortiumNetwork = net(project, "polygon-pos-mainnet", undefined, "Polygon consortium");
  b.plan(consortiumNetwork, primary.id, "dedicated", PROVIDER_REGION_PAIRS[1], "running");
  b.plan(consortiumNetwork, third.id, "dedicated", PROVIDER_REGION_PAIRS[4], "running");
  // prettier-ignore
  return { primary, other, third, project, otherProject, foreignProject, otherSideProject, thirdProject,
    networkWithNodes, emptyNetwork, secondEmptyNetwork, consortiumNetwork };
}
