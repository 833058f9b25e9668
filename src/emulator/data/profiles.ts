import type { Protocol, PublicNetwork } from "../../model";
import { PUBLIC_NETWORKS } from "../../model";

/** How the `details` of a protocol's nodes are shaped (the appendix: they differ by protocol). */
export interface ProtocolProfile {
  /** Human label used in generated names. */
  label: string;
  /** Whether nodes carry `mode`, and its value for full (non-archive) nodes. */
  fullMode?: string;
  /** `api_namespaces` of a full node; absent when the protocol has none. */
  apiNamespaces?: readonly string[];
  /** Extra namespaces of an archive node. */
  archiveNamespaces?: readonly string[];
  /** Whether nodes have a `wss_endpoint`. */
  wss: boolean;
  /** Whether nodes have a `graphql_endpoint`. */
  graphql: boolean;
  /** Software versions seen. */
  versions: readonly string[];
}

const EVM = ["net", "eth", "web3"] as const;

/** The details profile of every protocol. */
export const PROTOCOL_PROFILES: Record<Protocol, ProtocolProfile> = {
  ethereum: {
    label: "Ethereum",
    fullMode: "full",
    apiNamespaces: [...EVM, "txpool"],
    archiveNamespaces: ["debug"],
    wss: true,
    graphql: true,
    versions: ["1.13.14", "1.13.15", "1.14.3"],
  },
  "polygon-pos": {
    label: "Polygon PoS",
    fullMode: "full",
    apiNamespaces: [...EVM, "txpool", "bor"],
    archiveNamespaces: ["debug"],
    wss: true,
    graphql: true,
    versions: ["1.2.8", "1.3.0"],
  },
  bsc: {
    label: "BNB Smart Chain",
    fullMode: "full",
    apiNamespaces: [...EVM, "txpool", "parlia"],
    archiveNamespaces: ["debug"],
    wss: true,
    graphql: false,
    versions: ["1.3.10", "1.4.5"],
  },
  avalanche: {
    label: "Avalanche",
    fullMode: "full",
    wss: true,
    graphql: false,
    versions: ["1.10.19", "1.11.3"],
  },
  arbitrum: {
    label: "Arbitrum",
    apiNamespaces: [...EVM, "arb"],
    wss: true,
    graphql: false,
    versions: ["2.3.1", "2.3.3"],
  },
  near: { label: "NEAR", wss: false, graphql: false, versions: ["1.38.0", "1.39.1"] },
  aurora: { label: "Aurora", apiNamespaces: [...EVM], wss: true, graphql: false, versions: ["2.11.0"] },
  gnosis: {
    label: "Gnosis",
    apiNamespaces: [...EVM, "txpool"],
    wss: true,
    graphql: false,
    versions: ["1.25.4", "1.26.0"],
  },
  cronos: {
    label: "Cronos",
    apiNamespaces: [...EVM],
    wss: true,
    graphql: false,
    versions: ["1.1.1", "1.2.0"],
  },
  fantom: {
    label: "Fantom",
    fullMode: "full",
    apiNamespaces: [...EVM, "ftm", "dag"],
    archiveNamespaces: ["debug"],
    wss: true,
    graphql: true,
    versions: ["1.1.3-rc.5"],
  },
  starknet: {
    label: "StarkNet",
    apiNamespaces: ["starknet"],
    wss: false,
    graphql: false,
    versions: ["0.11.4"],
  },
  harmony: {
    label: "Harmony",
    apiNamespaces: ["hmy", ...EVM],
    wss: true,
    graphql: false,
    versions: ["2023.4.2"],
  },
  tezos: { label: "Tezos", fullMode: "rolling", wss: false, graphql: false, versions: ["19.1", "20.0"] },
  fuse: { label: "Fuse", apiNamespaces: [...EVM], wss: true, graphql: false, versions: ["1.13.4"] },
  bitcoin: { label: "Bitcoin", wss: false, graphql: false, versions: ["25.1", "26.0"] },
};

/** A readable label for a public network, e.g. `Polygon PoS Mainnet`, `Ethereum Ropsten testnet`. */
export function publicNetworkLabel(network: PublicNetwork): string {
  const protocol = PUBLIC_NETWORKS[network];
  const rest = network.slice(protocol.length + 1).replace(/-/g, " ");
  return `${PROTOCOL_PROFILES[protocol].label} ${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}
