import { SECRET_DETAIL_FIELDS } from "../../model";
import { DatasetBuilder } from "./builder";
import { fillBulk } from "./bulk";
import type { BulkSize } from "./bulk";
import { fillOtherOrganizations, fillPrimaryOrganization } from "./filler";
import type { EmulatorFixtures } from "./fixtures";
import { NETWORK_WITH_NODES_NODE_IDS, WELL_KNOWN_IDS, seedFixtures } from "./fixtures";
import type { NetworkRecord, NodeRecord, OrganizationRecord, ProjectRecord, UserRecord } from "./records";

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

/**
 * Generates the dataset of a seed: the well-known fixtures, then the generated filler around
 * them, then the bulk networks and nodes if asked. Checks every node against the model (throws
 * if one breaks it). Same seed and bulk size, same data; no bulk, the seed's usual data.
 */
export function buildDataset(seed: number, bulk: BulkSize = { networks: 0, nodes: 0 }): Dataset {
  const b = new DatasetBuilder(seed, [...Object.values(WELL_KNOWN_IDS), ...NETWORK_WITH_NODES_NODE_IDS]);
  const f = seedFixtures(b);
  const before = b.networks.length;
  fillPrimaryOrganization(b, f);
  const generated = b.networks.slice(before);
  const foreignNetwork = fillOtherOrganizations(b, f);
  fillBulk(b, f, generated, bulk);
  const nodes = b.createNodes();
  const fixtures: EmulatorFixtures = {
    organization: f.primary.id,
    otherOrganization: f.other.id,
    project: f.project.id,
    otherProject: f.otherProject.id,
    foreignProject: f.foreignProject.id,
    networkWithNodes: f.networkWithNodes.id,
    beaconNode: WELL_KNOWN_IDS.beaconNode,
    emptyNetwork: f.emptyNetwork.id,
    secondEmptyNetwork: f.secondEmptyNetwork.id,
    foreignNetwork: foreignNetwork.id,
    consortiumNetwork: f.consortiumNetwork.id,
    faucetAddress: b.faucetAddress(),
  };
  const secrets = [
    ...b.organizations.map((o) => o.apiKey),
    ...nodes.flatMap((n) =>
      SECRET_DETAIL_FIELDS.map((field) => n.details[field]).filter((v): v is string => typeof v === "string"),
    ),
  ];
  return {
    organizations: b.organizations,
    users: b.users,
    projects: b.projects,
    networks: b.networks,
    nodes,
    fixtures,
    secrets,
  };
}
